"""Seed 003's reference anchors (issue 49): each study's recorded values on its first, middle and
last rows against the notebook's procedure written again as plain code
(harness/sources/lookback/reference*.py): one prompt at a time, plain forward hooks."""
from __future__ import annotations

from harness import reference
from harness.claims import claim
from harness.sources.lookback.against_reference import AGREEMENT

PROVENANCE = ("issue 49: the study's values against the seed's procedure written again as plain "
              "code (one prompt at a time, plain forward hooks), on its first, middle and last "
              "rows; {}")
NB, REGISTER = "the seed notebook's §{}", "the claims register's account of §{}"


def fields(statement: str, where: str) -> dict:
    """A lookback reference anchor's fields beside its id, section and guards."""
    return reference.claim_fields(statement, provenance=PROVENANCE.format(where),
                                  why=AGREEMENT.why)


test_behaviour_reference = claim("lookback.behaviour-reference", reads="lookback_behaviour_reference",
    section="2", guards=("lookback_behaviour",),
    **fields("§2's belief, reality and explicit answers and their rates are the seed's.", NB.format(2)))


test_visibility_reference = claim("lookback.visibility-reference", reads="lookback_visibility_reference",
    section="2", guards=("lookback_visibility",),
    **fields("§2's observer and non-observer answers and their rates are the seed's.", NB.format(2)))


test_binding_filter_reference = claim("lookback.binding-filter-reference", reads="lookback_binding_filter_reference",
    section="4",
    guards=("lookback_binding_filter", "lookback_kept"),
    **fields("§4's error filter asks the seed's binding rows, records their answers and keeps the rows answered right on both prompts.", NB.format(4)))


test_source_filter_reference = claim("lookback.source-filter-reference", reads="lookback_source_filter_reference",
    section="5",
    guards=("lookback_source_filter", "lookback_source_kept"),
    **fields("§5's error filter asks the seed's source rows, records their answers and keeps the rows answered right on both prompts.", REGISTER.format(5)))


test_answer_filter_reference = claim("lookback.answer-filter-reference", reads="lookback_answer_filter_reference",
    section="6",
    guards=("lookback_answer_filter", "lookback_answer_kept"),
    **fields("§6's error filter asks the seed's answer rows, records their answers and keeps the rows answered right on both prompts.", REGISTER.format(6)))


test_reversed_reference = claim("lookback.reversed-reference", reads="lookback_reversed_reference",
    section="4", guards=("lookback_reversed",),
    **fields("§4's reversed swap records the seed's answers, curves, layers and positions.", NB.format(4)))


test_same_position_reference = claim("lookback.same-position-reference", reads="lookback_same_position_reference",
    section="4", guards=("lookback_same_position",),
    **fields("§4's same-position copy records the seed's answers, curves, layers and positions.", NB.format(4)))


test_opaque_reference = claim("lookback.opaque-reference", reads="lookback_opaque_reference",
    section="4", guards=("lookback_opaque",),
    **fields("§4's opaque control records the seed's answers, curves, layers and positions.", NB.format(4)))


test_source_freeze_reference = claim("lookback.source-freeze-reference", reads="lookback_source_freeze_reference",
    section="5", guards=("lookback_source_freeze",),
    **fields("§5's source swap with the drinks frozen records the seed's answers, curves, L and positions.", REGISTER.format(5)))


test_source_plain_reference = claim("lookback.source-plain-reference", reads="lookback_source_plain_reference",
    section="5", guards=("lookback_source_plain",),
    **fields("§5's source swap without the freeze records the seed's answers, curves, L and positions.", REGISTER.format(5)))


test_answer_reference = claim("lookback.answer-reference", reads="lookback_answer_reference",
    section="6", guards=("lookback_answer",),
    **fields("§6's final-token patch records the seed's answers, its clean, pointer and payload curves, layers and position.", REGISTER.format(6)))


test_low_rank_reference = claim("lookback.low-rank-reference", reads="lookback_low_rank_reference",
    section="7", guards=("lookback_low_rank",),
    **fields("§7 fits its basis on the held-in half at the reversed curve's peak and scores the seed's writes (unrestricted, fitted, each seed's random control) on the held-out half.", REGISTER.format(7)))

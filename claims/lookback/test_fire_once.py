"""Seed 003's anchors derived from its declared interventions: each intervention kind, run
through its experiment's own function on a few rows, writes exactly its sites (harness.fire_once;
seed 000 §6's pattern); §4's same-position sweep and §6's answer sweep on each row's own values
are the identity, and the same-position sweep's rows hold alone (harness.interventions)."""
from __future__ import annotations

from claims.lookback.shared import BOUND, SWAPPED
from harness.claims import claim
from harness import identity_check, rows_alone
from harness.fire_once import claim_fields

RULE = "the suite's fire-once rule, seed 000 §6's second prerequisite applied to seed 003 §{}"
ROWS = ("runs on the first 2 rows of the sample set, unfiltered: it needs no behaviour from the "
        "model, so it holds on random weights too",
        "the counterfactual and clean runs a value comes from, and the rows it is written to, are "
        "found by the prompts each forward's rows read, not by their places")
SWEPT = ("the sweep runs through the experiment's own function at its first, middle and last "
         "blocks (every kind of block, at a fraction of a full sweep's cost on the published "
         "model)",)


test_interchange_fires_once = claim("lookback.interchange-fires-once", reads="lookback_interchange_fires",
    section="4",
    **claim_fields("Each §4 sweep (reversed, same position, opaque) writes the counterfactual's values at each swept block, at its own positions of the clean rows, in that block's forward, and nothing else.",
                   RULE.format(4)),
    guards=BOUND, decisions=ROWS + SWEPT)


test_source_swap_fires_once = claim("lookback.source-swap-fires-once", reads="lookback_source_swap_fires",
    section="5",
    **claim_fields("The §5 source swap to L writes the counterfactual's reversed-slot entity values at every block 0..L, and nothing else.",
                   RULE.format(5)),
    guards=SWAPPED, decisions=ROWS + ("checked at L = 0 and at the middle block",))


test_freeze_fires_once = claim("lookback.freeze-fires-once", reads="lookback_freeze_fires",
    section="5",
    **claim_fields("With the freeze, the §5 source swap also pins the drink positions to the clean run's own values at every block.",
                   RULE.format(5)),
    guards=("lookback_source_freeze",),
    decisions=ROWS + ("checked at L = 0 and at the middle block",))


test_answer_fires_once = claim("lookback.answer-fires-once", reads="lookback_answer_fires",
    section="6",
    **claim_fields("The §6 answer sweep writes the counterfactual's final-token value at each swept block of the clean rows, in that block's forward, and nothing else.",
                   RULE.format(6)),
    guards=("lookback_answer",), decisions=ROWS + SWEPT)


test_low_rank_fires_once = claim("lookback.low-rank-fires-once", reads="lookback_low_rank_fires",
    section="7",
    **claim_fields("The §7 projected swap writes h_dst + (h_src − h_dst)·BᵀB at the clean rows' drink positions, and nothing else.",
                   RULE.format(7)),
    guards=("lookback_low_rank",), decisions=ROWS + ("checked at the middle block with the experiment's first "
                                   "rank-1 random control, which must be the register's draw "
                                   "at seed 0: the anchor draws it itself (torch.randn on the "
                                   "CPU, then QR), not through the experiment's helper; the "
                                   "value is computed from the unedited run",))


IDENTITY = "the suite's identity rule, seed 003 §4's self-patch derived from §{}'s declared sites"
OWN = ("its own-values run: each row's clean prompt as its counterfactual too",)


test_same_position_identity = claim("lookback.same-position-identity", reads="lookback_same_position_identity",
    section="4",
    **identity_check.claim_fields("The §4 same-position sweep run with each clean prompt as its own counterfactual writes every row's own values, and leaves every block and the logits bit-identical to the unpatched run.",
                                  IDENTITY.format(4)),
    guards=BOUND, decisions=ROWS + SWEPT + OWN)


test_same_position_rows_alone = claim("lookback.same-position-rows-alone", reads="lookback_same_position_rows_alone",
    section="4",
    **rows_alone.claim_fields("The first, middle and last row of each forward of the §4 same-position sweep, run as one plain forward of its own prompt with its own writes, gives the logits it gave in its batch.",
                              "the suite's batched-row rule (issue 36), derived from §4's declared sites"),
    guards=BOUND, decisions=ROWS + SWEPT)


test_answer_identity = claim("lookback.answer-identity", reads="lookback_answer_identity",
    section="6",
    **identity_check.claim_fields("The §6 answer sweep run with each clean prompt as its own counterfactual writes every row's own final-token value, and leaves every block and the logits bit-identical to the unpatched run.",
                                  IDENTITY.format(6)),
    guards=("lookback_answer",), decisions=ROWS + SWEPT + OWN)

"""Seed 001's reference anchors (issue 49): each study's numbers equal those of the seed's
procedure written again as plain code (harness/sources/heads/reference*.py), one prompt at a time
through plain PyTorch hooks, on a few of its cells and families; each guards its study, so a study
computing the wrong quantity with sound machinery blocks its findings."""
from __future__ import annotations

from typing import Any

from claims.heads.declarations import STUDIED
from harness import reference
from harness.claims import claim
from harness.sources.heads.organism_notes import VARIED

PROVENANCE = "issue 49: the seed's §{} procedure written again as plain code, without the study's helpers"
ROWS = ("the reference re-runs harness.reference.sampled of each family set (every family of a "
        "set of up to 8: the opening set; else its first, middle and last: main families 0, 16 "
        "and 31) at sampled cells (every block or head up to 8, else the first, a middle and the "
        "last) and every cell a finding reads; a summary (the family bootstrap with the seed's "
        "own seed and draws, a count) is the seed's over every family, the reference's value where "
        "it re-ran the family and the study's record elsewhere, so where it re-runs every family "
        "(the opening set, the catalogue's chain) it is the reference's alone; a choice (the rule's "
        "block, a screen's head) is compared where every cell was re-run")
EXACT = ("the reference's prefill is the study's forward written as plain hooks (heads."
         "reference-forward: the same logits bit for bit), a crossed message is what the model's "
         "own attention gives with the value bank replaced (heads.kv-groups: the same message), "
         "and each readout and summary is the same float arithmetic in the same order")


def fields(statement: str, section: str) -> dict[str, Any]:
    """A reference anchor's declaration: exact, with how its rows are chosen."""
    found = reference.claim_fields(statement, provenance=PROVENANCE.format(section),
                                   why=reference.EXACTLY.why)
    return {**found, "decisions": (*found["decisions"], EXACT, ROWS, VARIED)}


test_sweep_reference = claim("heads.sweep-reference", reads="heads_sweep_reference",
    section="2", guards=("heads_sweep",),
    **fields("§2's residual sweep: each family's p(U), p(L) and p(D) with D's final residual "
             "written into R before a block, each block's bootstraps and the block rule's "
             "choice equal the plain reference's.", "2"))


test_opening_reference = claim("heads.opening-reference", reads="heads_opening_reference",
    section="2", guards=("heads_opening",),
    **fields("§2's opening screen: each family's losses of p(L) and of the L−U margin with a "
             "head zeroed, in H and O, their bootstraps, the chosen head and H's answers equal "
             "the plain reference's.", "2"))


test_main_screen_reference = claim("heads.main-screen-reference", reads="heads_main_screen_reference",
    section="3", guards=("heads_main_screen",),
    **fields("§3's next-block screen: each family's losses in H and O, their bootstraps, each "
             "context's top head and O's surviving answers equal the plain reference's.", "3"))


test_native_answers_reference = claim("heads.native-answers-reference", reads="heads_native_answers_reference",
    section="4", guards=("heads_native_answers",),
    **fields("Whether each main family's unedited O answers L, and how many do, equal a plain "
             "prefill of every family's O.", "4"))


test_first_crossing_reference = claim("heads.first-crossing-reference", reads="heads_first_crossing_reference",
    section="4", guards=("heads_first_crossing",),
    **fields("§4's crossing at the retrieval head: each family's readouts natively, with O's "
             "own and with D's values, the cohort rows and the worked example equal the plain "
             "reference's.", "4"))


# §5's context X is §4's crossed run itself (the seed reuses those live runs as its baselines), so
# this anchor re-measures §4's runs too and guards them beside heads.crossing-readback (which reads
# §5's choice of head and would otherwise require this anchor while this one required it).
test_challenged_reference = claim("heads.challenged-reference", reads="heads_challenged_reference",
    section="5",
    guards=("heads_challenged", "heads_first_crossing"),
    **fields("§5's challenged screen: each family's losses with the first head's crossed "
             "message fixed, their bootstraps, the support head, ranking, gap and lone wins "
             "equal the plain reference's.", "5"))


test_content_reference = claim("heads.content-reference", reads="heads_content_reference",
    section="5", guards=("heads_content",),
    **fields("§5's content effects: each family's readouts under OO, OD and OD.label at both "
             "sites and each site's four paired effects equal the plain reference's.", "5"))


test_joint_reference = claim("heads.joint-reference", reads="heads_joint_reference",
    section="6", guards=("heads_joint",),
    **fields("§6's joint crossing: each family's readouts with either and both crossed "
             "messages, their mean p(C), C's wins and the worked example equal the plain "
             "reference's.", "6"))


test_grid_reference = claim("heads.grid-reference", reads="heads_grid_reference",
    section="6", guards=("heads_grid",),
    **fields("§6's grid: each cell's condition and readouts per family, each cell's means, "
             "crossing's paired increase over zeroing under the first crossing and the "
             "deletion controls equal the plain reference's.", "6"))


# heads.record-counts guards every study after §2 and reads this step: guarding what it guards
# keeps the two side by side (harness/plugin/guards.py) rather than requiring each other.
test_record_counts_reference = claim("heads.record-counts-reference", reads="heads_record_counts_reference",
    section="7", guards=(*STUDIED, "heads_record_counts"),
    **fields("§7: each family's recorded conditions are the seed's list for the sizes' blocks "
             "and heads and the sites' blocks, and the record counts are its length times the "
             "families.", "7"))

"""Seed 003 §7 as the register describes it: the reversed swap restricted to low-rank subspaces.
"""
from __future__ import annotations

from claims.lookback.shared import BINDING_ANSWERED, LOW_RANK_READBACK, RATE, REGISTER
from harness.attribute_readout import attributes
from harness.claims import Holds, claim
from harness.criteria import BinomialRate, CurveBinomial, Same, all_of
from harness.nulls import AsMeasured, Null
from harness.sources.lookback.known_answers import KNOWN


test_low_rank_anchor = claim("lookback.low-rank-anchor", reads="lookback_low_rank",
    readout=attributes("unrestricted", "interchange", n="held_out", layer="layer"),
    statement="The unrestricted reversed swap at the peak layer on the held-out half gives IIA {unrestricted}.",
    headline="unrestricted IIA {unrestricted:.3f} on {n} held-out samples",
    published={"unrestricted": 0.745, "n": 51}, provenance=REGISTER.format(7),
    criterion=BinomialRate("unrestricted"), holds=Holds(Same("unrestricted", "interchange")),
    guards=("lookback_low_rank",),
    # beside the anchors guarding its steps: the direction of §4's rates it is scored by (a
    # behavioural anchor, which a mechanical one does not require of itself), and the
    # readback that checks the same writes beside it
    requires=(BINDING_ANSWERED, LOW_RANK_READBACK),
    decisions=("the machinery check: writing h_src (the unrestricted h_dst + (h_src − h_dst), "
               "which bf16 need not round back to h_src) in the interchange's batches must "
               "score exactly as the barrier interchange does on the same samples",))


test_low_rank = claim("lookback.low-rank", reads="lookback_low_rank",
    readout=attributes("ranks", "fitted", "random", "directions", "difference_vectors",
                       n="held_out", layer="layer"),
    statement="A rank-2 fitted subspace of the swap differences carries the ordering ID; random subspaces carry nothing.",
    headline="rank {ranks[1]}: fitted IIA {fitted[1]:.3f}, random {random[1]:.3f} (n={n})",
    published={"ranks": [1, 2, 4, 8, 16, 32, 64, 128],
               "fitted": [0.0, 0.725, 0.706, 0.725, 0.725, 0.706, 0.745, 0.765],
               "random": [0.0] * 8, "directions": 204, "difference_vectors": 204, "n": 51},
    provenance=REGISTER.format(7),
    criterion=all_of(CurveBinomial("fitted"), CurveBinomial("random")),
    tolerance=RATE, known_answer=KNOWN["lookback.low-rank"],
    decisions=("the organism's ranks stop at its width (profile)",),
    null=Null({"fitted": AsMeasured("random")},
              why="a fitted subspace that carries no ordering ID moves no more answers than "
                  "the random subspaces of the same rank measured beside it"))

"""Seed 003's readback anchors (harness/sources/lookback/readback.py): each study's sweeps cover
the layers and positions they must, and a few of their rows, re-run one at a time, answer what
the batched sweep recorded."""
from __future__ import annotations

from claims.lookback.shared import (ANSWER_READBACK, BINDING_READBACK, BOUND, FILTER_READBACK,
                                    FILTERED, LOW_RANK_READBACK, NB, PREDICT_READBACK, REGISTER,
                                    SOURCE_READBACK, SWAPPED)
from harness.claims import Holds, claim
from harness.criteria import Exact, all_of
from harness.sources.lookback import readouts
from harness.sources.lookback.readback_record import TIE_REASON

READ = all_of(Exact("gaps"), Exact("mismatched"))
PUBLISHED = {"gaps": [], "mismatched": []}
PROVENANCE = ("issue 36: a sweep's record read back, its layers against the model's config and "
              "its batched rows against one-row runs; {}")
HEADLINE = ("sweeps {sweeps}: coverage gaps {gaps}; {cells} cells re-run alone ({ties} near "
            "ties); mismatched: {mismatched}")
DECISIONS = ("the layers come from the model's config (or the sizes, where they declare the "
             "layers) and the positions from the layout, not from the sweep's own helpers",
             "in the mode under test: fast mode's batched rows, or faithful mode's batches",
             "the first, middle and last rows at the first, middle and last layers re-run through "
             "the experiment's own intervention, one row each",
             "each curve re-counted here from the answers the sweep recorded",
             "within " + TIE_REASON)


test_binding_readback = claim(BINDING_READBACK, reads="lookback_binding_readback", readout=readouts.readback,
    kind="anchor", section="4", guards=BOUND,
    statement="Each §4 sweep (reversed, same position, opaque) patched every block of the model (or the sizes' sweep layers) at the layout's positions, its curves count its recorded answers, and its rows re-run one at a time answer what it recorded.",
    headline=HEADLINE, published=PUBLISHED,
    provenance=PROVENANCE.format("the notebook's §4 sweep reads every layer"),
    criterion=READ, holds=Holds(READ), decisions=DECISIONS)


test_source_readback = claim(SOURCE_READBACK, reads="lookback_source_readback", readout=readouts.readback,
    kind="anchor", section="5", guards=SWAPPED,
    statement="Each §5 source sweep (with and without the freeze) ran every L its sizes declare at the layout's positions, its curves count its recorded answers, and its rows re-run one at a time answer what it recorded.",
    headline=HEADLINE, published=PUBLISHED,
    provenance=PROVENANCE.format(REGISTER.format(5)),
    criterion=READ, holds=Holds(READ), decisions=DECISIONS)


test_answer_readback = claim(ANSWER_READBACK, reads="lookback_answer_readback", readout=readouts.readback,
    kind="anchor", section="6", guards=("lookback_answer",),
    statement="The §6 answer sweep patched the final token at every block of the model (or the sizes' sweep layers), its curves count its recorded answers, and its rows re-run one at a time answer what it recorded.",
    headline=HEADLINE, published=PUBLISHED,
    provenance=PROVENANCE.format(REGISTER.format(6)),
    criterion=READ, holds=Holds(READ), decisions=DECISIONS)


BATCHED = ("in the mode under test: fast mode's batches of `fast_batch` rows, or faithful mode's",
           "each recorded rate (or kept row) recounted here from the recorded answers",
           "within " + TIE_REASON)


test_predict_readback = claim(PREDICT_READBACK, reads="lookback_predict_readback", readout=readouts.readback,
    kind="anchor", section="2",
    guards=("lookback_behaviour", "lookback_visibility"),
    statement="§2's batched predictions (belief, reality, explicit, observer, non-observer) record one answer per prompt, their rates count those answers, and their first, middle and last rows, each run alone through a plain forward, answer what the batch recorded.",
    headline=HEADLINE, published=PUBLISHED,
    provenance=PROVENANCE.format(NB.format(2)), criterion=READ, holds=Holds(READ),
    decisions=BATCHED + ("the one-row runs read the prompt's final logits through a plain "
                         "forward (runner.final_logits), not through runner.predict",))


test_filter_readback = claim(FILTER_READBACK, reads="lookback_filter_readback", readout=readouts.readback,
    kind="anchor", section="4–6", guards=FILTERED,
    statement="§4's error filter on the binding, source and answer sets records one answer per clean and counterfactual prompt, keeps exactly the rows whose recorded answers are both right, and its first, middle and last rows, each run alone through a plain forward, answer what the batch recorded.",
    headline=HEADLINE, published=PUBLISHED,
    provenance=PROVENANCE.format(NB.format(4) + "'s error filtering"),
    criterion=READ, holds=Holds(READ),
    decisions=BATCHED + ("the one-row runs read the prompt's final logits through a plain "
                         "forward (runner.final_logits), not through runner.predict",))


test_low_rank_readback = claim(LOW_RANK_READBACK, reads="lookback_low_rank_readback", readout=readouts.readback,
    kind="anchor", section="7", guards=("lookback_low_rank",),
    statement="§7's writes (unrestricted, each fitted rank, each random control) record one answer per held-out row at the ranks the sizes declare, their scores count those answers, and the first, middle and last held-out rows, re-run one at a time, answer what the batched write recorded.",
    headline=HEADLINE, published=PUBLISHED,
    provenance=PROVENANCE.format(REGISTER.format(7)), criterion=READ, holds=Holds(READ),
    decisions=BATCHED + ("each row re-run alone through the experiment's own read (swap_pairs) "
                         "and write (written_logits), for the unrestricted write, the first, "
                         "middle and last fitted ranks (the study's recorded basis) and the "
                         "middle rank's first random control",))

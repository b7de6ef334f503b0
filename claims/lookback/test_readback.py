"""Seed 003's readback anchors (harness/sources/lookback/readback.py): each study's sweeps cover
the layers and positions they must, and a few of their rows, re-run one at a time, answer what
the batched sweep recorded."""
from __future__ import annotations

from claims.lookback.shared import (ALIGNED, ANSWER_READBACK, BINDING_READBACK, REGISTER, SETUP,
                                    SOURCE_READBACK)
from harness.claims import Holds, claim
from harness.criteria import Exact, all_of
from harness.sources.lookback import readouts
from harness.sources.lookback.readback import TIE_REASON

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


@claim(BINDING_READBACK, kind="anchor", section="4", requires=SETUP + ALIGNED,
       statement="Each §4 sweep (reversed, same position, opaque) patched every block of the model (or the sizes' sweep layers) at the layout's positions, its curves count its recorded answers, and its rows re-run one at a time answer what it recorded.",
       headline=HEADLINE, published=PUBLISHED,
       provenance=PROVENANCE.format("the notebook's §4 sweep reads every layer"),
       criterion=READ, holds=Holds(READ), decisions=DECISIONS)
def test_binding_readback(judge, lookback_binding_readback):
    judge(readouts.binding_readback(lookback_binding_readback))


@claim(SOURCE_READBACK, kind="anchor", section="5", requires=SETUP + ALIGNED,
       statement="Each §5 source sweep (with and without the freeze) ran every L its sizes declare at the layout's positions, its curves count its recorded answers, and its rows re-run one at a time answer what it recorded.",
       headline=HEADLINE, published=PUBLISHED,
       provenance=PROVENANCE.format(REGISTER.format(5)),
       criterion=READ, holds=Holds(READ), decisions=DECISIONS)
def test_source_readback(judge, lookback_source_readback):
    judge(readouts.source_readback(lookback_source_readback))


@claim(ANSWER_READBACK, kind="anchor", section="6", requires=SETUP + ALIGNED,
       statement="The §6 answer sweep patched the final token at every block of the model (or the sizes' sweep layers), its curves count its recorded answers, and its rows re-run one at a time answer what it recorded.",
       headline=HEADLINE, published=PUBLISHED,
       provenance=PROVENANCE.format(REGISTER.format(6)),
       criterion=READ, holds=Holds(READ), decisions=DECISIONS)
def test_answer_readback(judge, lookback_answer_readback):
    judge(readouts.answer_readback(lookback_answer_readback))

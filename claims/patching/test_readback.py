"""Seed 004's readback anchors (harness/sources/patching/readback.py): the direction every
"toward clean" reading assumes, the sweep's coverage, and its cells read back one at a time."""
from __future__ import annotations

from claims.patching.shared import PATCHES, SWEEPS
from harness.claims import Holds, claim
from harness.criteria import Exact, NoneOf
from harness.sources.patching import readback, readouts
from harness.sources.patching.readback import ROW_TOLERANCE_REASON


test_clean_preferred = claim("patching.clean-preferred", reads="pair_behaviours", readout=readback.reversed_pairs,
    kind="anchor", section="code cell", needs="hub",
    guards=PATCHES,
    statement="On each pair the clean run's logit difference (clean name − corrupted name) exceeds the corrupted run's, so a move toward the clean run is a rise.",
    headline="reversed pairs: {reversed}",
    published={"reversed": []},
    provenance="seed 004's comments: '# expect \"Mary\"' after the clean prompt and "
               "'# expect \"John\"' after the corrupted one",
    criterion=Exact("reversed"), holds=Holds(Exact("reversed"), behavioural=True),
    decisions=("the seed's pair and the corrected IOI pair: every sweep and layer flip reads "
               "a rise of this difference as a move toward the clean run",))


test_sweep_coverage = claim("patching.sweep-coverage", reads="sweep_coverage", readout=readouts.sweep_coverage,
    kind="anchor", section="code cell", needs="hub",
    guards=SWEEPS,
    statement="Each pair's layer × position sweep patched every block of the model and every position of the prompt, in order.",
    headline="pairs {pairs}; gaps: {gaps}",
    published={"gaps": []},
    provenance="seed 004's sweep: 'see at which layer(s) the output actually flips' reads "
               "every layer",
    criterion=Exact("gaps"), holds=Holds(NoneOf("gaps", of="pairs")),
    decisions=("the blocks come from the model's config and the positions from the pair's "
               "ids, not from the sweep's own helpers",))


test_sweep_rows = claim("patching.sweep-rows", reads="sweep_rows", readout=readouts.sweep_rows,
    kind="anchor", section="code cell", needs="hub",
    guards=SWEEPS,
    requires=("patching.sweep-coverage",),  # the cells it re-runs presume the coverage
    statement="Cells of each pair's sweep, re-run as one patch each, give the logit difference the sweep recorded for that block and position.",
    headline="{cells} cells re-run; max |Δ| {max_abs_diff}; mismatched: {mismatched}",
    published={"mismatched": []},
    provenance="issue 36: a batched run checks its own rows against one-row forwards",
    criterion=Exact("mismatched"), holds=Holds(NoneOf("mismatched", of="cells")),
    decisions=("in the mode under test: fast mode's batched rows, or faithful mode's loop",
               "the first, middle and last blocks at the first, first differing and last "
               "positions; the logit difference computed here, not by the sweep's helper",
               "within " + ROW_TOLERANCE_REASON))

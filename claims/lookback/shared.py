"""What seed 003's claim declarations share: provenance lines, anchor ids, the steps its anchors
guard and the rate tolerance."""
from __future__ import annotations

from harness.snapshots import Tolerance

NB = "seed 003 notebook output, §{}"
REGISTER = "the claims register's account of seed 003 §{} (published in the same notebook)"
# Each study's sweeps read back (claims/lookback/test_readback.py): coverage and rows re-run alone.
BINDING_READBACK, SOURCE_READBACK, ANSWER_READBACK = (
    "lookback.binding-readback", "lookback.source-readback", "lookback.answer-readback")
# §2's batched predictions and §4–§6's error filters read back; §7's low-rank writes read back.
PREDICT_READBACK, FILTER_READBACK, LOW_RANK_READBACK = (
    "lookback.predict-readback", "lookback.filter-readback", "lookback.low-rank-readback")
# What the direction of §4's and §6's rates rests on: the patched rows' recorded answers.
BINDING_ANSWERED, ANSWER_ANSWERED = ("lookback.binding-clean-answered",
                                     "lookback.answer-clean-answered")
# The steps its anchors guard (harness/plugin/guards.py; harness/sources/lookback/steps.py): a
# test requires every anchor guarding a step it reads.
SAMPLED = ("lookback_behaviour", "lookback_visibility", "lookback_binding_rows",
           "lookback_source_rows", "lookback_answer_rows")  # the seeded sample sets' prompts
BOUND = ("lookback_reversed", "lookback_same_position", "lookback_opaque")  # §4's sweeps
SWAPPED = ("lookback_source_freeze", "lookback_source_plain")  # §5's source sweeps
# Every write at a prompt's positions: the self-patch, the fire-once probes and every sweep.
WRITES = ("lookback_self_patch", "lookback_interchange_fires", "lookback_source_swap_fires",
          "lookback_freeze_fires", "lookback_answer_fires", "lookback_low_rank_fires",
          "lookback_same_position_identity", "lookback_same_position_rows_alone",
          "lookback_answer_identity", *BOUND,
          *SWAPPED, "lookback_answer", "lookback_low_rank")
FILTERED = ("lookback_binding_filter", "lookback_kept", "lookback_patched",
            "lookback_source_filter", "lookback_source_kept", "lookback_source_patched",
            "lookback_answer_filter", "lookback_answer_kept", "lookback_answer_patched")
RATE = Tolerance(abs=0.03)

# Each published count once. §4: the binding rows its behavioural filter keeps, and of those, by
# layer, the rows whose answer the reversed swap moved; the notebook prints their rates to four
# places (the curve) and the peak's to three ("IIA 0.775 at layer 15").
BINDING_KEPT = 102
REVERSED_MOVED = [0] * 8 + [1, 2, 5, 35, 74, 74, 77, 79, 74, 22, 18, 36, 24, 16, 17, 11, 3, 1, 2, 1,
                            1, 1, 0, 0]
REVERSED = [round(k / BINDING_KEPT, 4) for k in REVERSED_MOVED]
REVERSED_PEAK_LAYER = REVERSED_MOVED.index(max(REVERSED_MOVED))
REVERSED_PEAK = round(max(REVERSED_MOVED) / BINDING_KEPT, 3)
SOURCE_KEPT = 91  # §5: the source rows the filter keeps
ANSWER_KEPT = 102  # §6: the answer rows the filter keeps (of its own 140)

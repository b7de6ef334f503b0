"""What seed 003's claim declarations share: provenance lines, prerequisite anchors and the rate
tolerance."""
from __future__ import annotations

from harness.snapshots import Tolerance

NB = "seed 003 notebook output, §{}"
REGISTER = "the claims register's account of seed 003 §{} (published in the same notebook)"
SETUP = ("lookback.samples", "lookback.single-token-entities")
ALIGNED = ("lookback.aligned-prompts", "lookback.intervention-tokens")
# Each study's sweeps read back (claims/lookback/test_readback.py): coverage and rows re-run alone.
BINDING_READBACK, SOURCE_READBACK, ANSWER_READBACK = (
    "lookback.binding-readback", "lookback.source-readback", "lookback.answer-readback")
# §2's batched predictions and §4–§6's error filters read back; §7's low-rank writes read back.
PREDICT_READBACK, FILTER_READBACK, LOW_RANK_READBACK = (
    "lookback.predict-readback", "lookback.filter-readback", "lookback.low-rank-readback")
# What the direction of §4's and §6's rates rests on: the patched rows' recorded answers.
BINDING_ANSWERED, ANSWER_ANSWERED = ("lookback.binding-clean-answered",
                                     "lookback.answer-clean-answered")
BINDING = SETUP + ALIGNED + ("lookback.self-patch-identity", "lookback.interchange-fires-once",
                             BINDING_READBACK, FILTER_READBACK, BINDING_ANSWERED)
SOURCE = SETUP + ALIGNED + ("lookback.source-identity", "lookback.source-swap-fires-once",
                            SOURCE_READBACK, FILTER_READBACK)
FROZEN = SOURCE + ("lookback.freeze-fires-once",)
ANSWER = SETUP + ALIGNED + ("lookback.self-patch-identity", "lookback.answer-fires-once",
                            ANSWER_READBACK, FILTER_READBACK, ANSWER_ANSWERED)
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

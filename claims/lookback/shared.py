"""What seed 003's claim declarations share: provenance lines, prerequisite anchors and the rate
tolerance."""
from __future__ import annotations

from harness.snapshots import Tolerance

NB = "seed 003 notebook output, §{}"
REGISTER = "the claims register's account of seed 003 §{} (published in the same notebook)"
SETUP = ("lookback.samples", "lookback.single-token-entities")
ALIGNED = ("lookback.aligned-prompts", "lookback.intervention-tokens")
BINDING = SETUP + ALIGNED + ("lookback.self-patch-identity", "lookback.interchange-fires-once")
SOURCE = SETUP + ALIGNED + ("lookback.source-identity", "lookback.source-swap-fires-once")
FROZEN = SOURCE + ("lookback.freeze-fires-once",)
ANSWER = SETUP + ALIGNED + ("lookback.self-patch-identity", "lookback.answer-fires-once")
RATE = Tolerance(abs=0.03)

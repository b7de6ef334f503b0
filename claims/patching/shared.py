"""What seed 004's claim declarations share: the steps its anchors guard (harness/plugin/guards.py;
harness/sources/patching/steps.py)."""
from __future__ import annotations

PAIRS = ("seed_pair", "ioi_pair")  # each pair's ids, which every later step reads
SWEEPS = ("seed_sweep", "ioi_sweep")  # each pair's layer × position sweep
PATCHES = SWEEPS + ("seed_layer_flip",)  # every patch a finding reads as a move toward clean

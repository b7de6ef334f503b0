"""Seed 003's breakages of a study computing the wrong quantity with sound machinery (issue 49):
the wrong block, a leaked fit, a control that ignores its seed, a rate over a window one short,
a problem set one short, the wrong cell. No fire-once or readback anchor sees them (they share the
study's rows, basis, seeds and scoring), and on the organism none moves a curve its known answers
read: the reference anchors (against_reference*.py) catch them."""
from __future__ import annotations

from harness.breakage_edit import Breakage, Part

INTERCHANGE, LOW_RANK = "harness.sources.lookback.interchange", "harness.sources.lookback.low_rank"
RUNNER, TASK = "harness.sources.lookback.runner", "harness.sources.lookback.task"
HELD_IN = "h_dst, h_src = swap_pairs(runner, rows[:half], layer, state, state_rev)"
SEEDED = 'generator=torch.Generator(device="cpu").manual_seed(seed)'
SCORE = "return round(sum(p == getattr(r, attr) for p, r in zip(preds, rows)) / len(rows), 4)"

WRONG_QUANTITY = (
    Breakage("§7 basis fitted on residuals read a block early", "wrong block", LOW_RANK, HELD_IN,
             HELD_IN.replace("layer,", "layer - 1,"), part=Part.STUDY),
    Breakage("§7 fitted basis leaks its held-out half", "leaked fit", LOW_RANK, HELD_IN,
             HELD_IN.replace("rows[:half]", "rows"), part=Part.STUDY),
    Breakage("§7 random control ignores its seed", "seed ignored", LOW_RANK, SEEDED,
             SEEDED.replace("(seed)", "(RANDOM_BASIS_SEEDS[0])"), part=Part.STUDY),
    Breakage("§4–§7 rates score a window one short of their rows", "window one short", RUNNER,
             SCORE, SCORE.replace("zip(preds, rows)) / len(rows)",
                                  "zip(preds[:-1], rows[:-1])) / len(rows[:-1])"),
             part=Part.READOUT),
    Breakage("§4 binding set one short", "problem set one short", TASK,
             "BINDING_SAMPLES = Samples(120, 7)", "BINDING_SAMPLES = Samples(119, 7)",
             part=Part.STUDY),
    Breakage("§4 peak layer the last of equals", "wrong cell", INTERCHANGE,
             "max(range(len(self.iia)), key=lambda i: self.iia[i])",
             "max(range(len(self.iia)), key=lambda i: (self.iia[i], i))", part=Part.STUDY),
)

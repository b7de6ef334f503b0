"""Seed 000's experiment sizes, per profile."""
from __future__ import annotations

from dataclasses import dataclass, replace

from harness.profiles import ExperimentSizes, relative_layers
from harness.sources.cot.task import PAIRED_PROBLEMS, PROBLEMS

QWEN3_DEPTH = 36
ORGANISM_DEPTH = 6
SCREEN = (4, 10, 16, 22, 26, 30, 34)  # §7's product-layer screen
# The sizes that cap how many tokens a step decodes.
DECODE_CAPS = ("baseline_cap", "splice_tokens", "inject_cap", "cue_window", "donor_cap",
               "continuation_cap")


@dataclass(frozen=True)
class CotSizes(ExperimentSizes):
    """Seed 000's experiment sizes: layers, token caps and how many problems each step uses."""

    anchor_layer: int
    screen_layers: tuple[int, ...]
    baseline_cap: int = 2000
    splice_tokens: int = 200
    inject_cap: int = 1500
    cue_window: int = 400
    donor_cap: int = 600
    continuation_cap: int = 1400
    forced_tokens: int = 12
    noop_problems: int = 2
    problems: int = len(PROBLEMS)  # §1: how many of the 20 problems, from the first, are run
    pairs: int = PAIRED_PROBLEMS
    noise_scale: float = 30.0
    fire_step: int = 5
    fire_steps: int = 12
    early_noise_steps: tuple[int, int] = (1, 50)
    self_patch_layer: int = 30
    fast_batch: int = 32  # fast mode: prompts per generate call (the notebook: 1)

    @property
    def longest_decode(self) -> int:
        """The largest number of tokens any step decodes."""
        return max(getattr(self, name) for name in DECODE_CAPS)

    def decode_capped(self, tokens: int) -> "CotSizes":
        """These sizes with every decode step stopping at `tokens` at most (the full-size CUDA
        rehearsal, whose random weights would decode every step to its published cap)."""
        return replace(self, **{name: min(getattr(self, name), tokens) for name in DECODE_CAPS})

    def at_depth(self, depth: int) -> "CotSizes":
        """These sizes on a model `depth` layers deep: every layer at the same relative depth as
        in the published 36 (the screen deduplicated)."""
        def mapped(layers: tuple[int, ...]) -> tuple[int, ...]:
            return relative_layers(layers, QWEN3_DEPTH, depth)

        return replace(self, anchor_layer=mapped((self.anchor_layer,))[0],
                       screen_layers=tuple(sorted(set(mapped(self.screen_layers)))),
                       self_patch_layer=mapped((self.self_patch_layer,))[0])


PUBLISHED = CotSizes(anchor_layer=18, screen_layers=SCREEN)

# Same relative depths as the published 36-layer screen; token caps fit the organism's traces (it
# never runs into them: its traces are far shorter than the caps). §3's cue window ends on the
# last token of the organism's one cue after its product (`325. Let me check`), so a window one
# token short or starting early reads none (issue 49: the reference anchors compare its counts).
TINY = CotSizes(
    anchor_layer=relative_layers((18,), QWEN3_DEPTH, ORGANISM_DEPTH)[0],
    cue_window=7,
    screen_layers=tuple(sorted(set(relative_layers(SCREEN, QWEN3_DEPTH, ORGANISM_DEPTH)))),
    self_patch_layer=relative_layers((30,), QWEN3_DEPTH, ORGANISM_DEPTH)[0],
)

# The meta tests' paired runs: the first 6 problems, 4 donor pairs and one no-op trace.
MICRO = replace(TINY, problems=6, pairs=4, noop_problems=1)

# The published model's files with seeded random weights (a throwaway cache): the published layers
# and experiment structure, on the CPU. A random model never closes </think>, so long caps only
# spend time: 2 problems and short caps. Every later step runs on the rows the rehearsal profile
# forces past §1's filter (scripted traces, traces.script).
REHEARSAL = CotSizes(anchor_layer=18, screen_layers=SCREEN, problems=2, baseline_cap=24,
                     splice_tokens=12, inject_cap=16, cue_window=16, donor_cap=16,
                     continuation_cap=12, forced_tokens=6, noop_problems=1, pairs=2, fire_steps=8,
                     early_noise_steps=(1, 4))

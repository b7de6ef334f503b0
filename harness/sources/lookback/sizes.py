"""Seed 003's experiment sizes, per profile."""
from __future__ import annotations

from dataclasses import dataclass, replace

from harness.profiles import ExperimentSizes, relative_layers

LLAMA_DEPTH = 32
ORGANISM_DEPTH = 4
LOW_RANK_LADDER = (1, 2, 4, 8, 16, 32, 64, 128)  # §7
SELF_PATCH_LAYERS = (0, 8, 16, 24, 31)


@dataclass(frozen=True)
class LookbackSizes(ExperimentSizes):
    """Seed 003's sizes: prompt form, batch sizes, and the layers the self-patch anchor checks."""

    with_instruction: bool
    self_patch_layers: tuple[int, ...]
    source_freeze_layers: tuple[int, ...]    # §5: each L of the 0..L source swap, drinks frozen
    source_plain_layers: tuple[int, ...]     # §5: the same without the freeze
    low_rank_ranks: tuple[int, ...]          # §7
    predict_batch: int = 16
    interchange_batch: int = 8
    answer_batch: int = 16
    # How many rows of each of the notebook's seeded sample sets (task.py: EVAL_SAMPLES …
    # ANSWER_SAMPLES) the experiments run on, the first ones; None runs the notebook's counts.
    sample_cap: int | None = None
    # The layers §4's and §6's sweeps patch (None: every layer, as the notebook does).
    sweep_layers: tuple[int, ...] | None = None
    fast_batch: int = 64  # fast mode: rows per forward in every batched step (the notebook: above)
    # Fast mode: §4/§6's interchanges read each chunk's counterfactual once, at every layer, then
    # write it in forwards of the clean rows alone (the notebook: both runs at every layer).
    read_once: bool = False

    def as_batched(self, batched: bool) -> "LookbackSizes":
        """These sizes, with every batch at `fast_batch` and the counterfactual read once when
        batched (fast mode)."""
        if not batched:
            return self
        return replace(self, predict_batch=self.fast_batch, interchange_batch=self.fast_batch,
                       answer_batch=self.fast_batch, read_once=True)

    def at_depth(self, depth: int) -> "LookbackSizes":
        """These sizes on a model `depth` layers deep: each layer list at the same relative depths
        as in Llama-3.1-8B's 32 (deduplicated)."""
        def mapped(layers: tuple[int, ...]) -> tuple[int, ...]:
            return tuple(sorted(set(relative_layers(layers, LLAMA_DEPTH, depth))))

        return replace(self, self_patch_layers=mapped(self.self_patch_layers),
                       source_freeze_layers=mapped(self.source_freeze_layers),
                       source_plain_layers=mapped(self.source_plain_layers))

    def first(self, rows: list) -> list:
        """The first `sample_cap` rows of a seeded sample set (all of them when uncapped)."""
        return rows[:self.sample_cap]


PUBLISHED = LookbackSizes(with_instruction=True, self_patch_layers=SELF_PATCH_LAYERS,
                          source_freeze_layers=tuple(range(0, 31, 2)),
                          source_plain_layers=tuple(range(0, 29, 4)),
                          low_rank_ranks=LOW_RANK_LADDER)

# The organism learns from stories without the 120-token instruction (4x faster steps). Its 4
# layers are all swept; its width is 128, so the published rank ladder fits.
TINY = LookbackSizes(with_instruction=False,
                     self_patch_layers=tuple(sorted(set(relative_layers(
                         SELF_PATCH_LAYERS, LLAMA_DEPTH, ORGANISM_DEPTH)))),
                     source_freeze_layers=tuple(range(ORGANISM_DEPTH)),
                     source_plain_layers=tuple(range(ORGANISM_DEPTH)),
                     low_rank_ranks=LOW_RANK_LADDER)

# The meta tests' paired runs: the first 24 rows of each sample set.
MICRO = replace(TINY, sample_cap=24)

# Llama-3.1-8B's files with random weights, on the CPU: the published prompts, batches and rank
# ladder, on the first 4 rows of each sample set (§2's evaluation rows ask for a character's own
# belief in the first two and another's in the next two, and its accuracies divide by each). A
# random model answers none correctly, so the error-filtered studies run on the rows the
# rehearsal profile forces past the filter; their sweeps patch the first, a middle and the last
# layer (§4, §6) and three of §5's layer lists' points (the CUDA rehearsal runs the published
# sizes: every layer).
REHEARSAL = replace(PUBLISHED, sample_cap=4, sweep_layers=(0, 16, 31),
                    source_freeze_layers=(0, 16, 30), source_plain_layers=(0, 28))

"""Profiles: which model each source runs on, and the experiment sizes that go with it.

The numbers live in each source's declaration (`harness/sources/<name>/__init__.py`); a profile
is the view across the registered sources, which `harness.registry.get_profile` gathers (this
module imports no source: the imports run one way)."""
from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Self


class ProfileName(StrEnum):
    PUBLISHED = "published"
    TINY = "tiny"
    REHEARSAL = "rehearsal"
    MICRO = "micro"


class Mode(StrEnum):
    """How experiments run: the notebooks' batch sizes, or batched where they went one at a time."""

    FAITHFUL = "faithful"
    FAST = "fast"


class Pinning(StrEnum):
    """What a profile's snapshots are for."""

    REQUIRED = "required"  # every value pinned; drift or a missing pin fails (organisms)
    SHOWN = "shown"        # drift is shown beside the verdict; fails only with --fail-on-drift
    NONE = "none"          # not compared (random weights: nothing to pin)


@dataclass(frozen=True)
class ModelSpec:
    """How to obtain one source's model on one profile (its source is filled in by the Source)."""

    architecture: str
    dtype: str
    device: str
    hf_id: str | None = None
    revision: str | None = None  # pinned hub commit; updated deliberately, resolved one recorded
    gated: bool = False
    attn_implementation: str | None = None
    device_map: str | None = None  # "sequential": one GPU while the model fits, more if not
    organism: str | None = None  # the organism's name under <source data>/fixtures/organisms/
    source: str = ""

    @property
    def label(self) -> str:
        if self.hf_id:
            return f"{self.hf_id}@{self.revision}"
        return f"{self.architecture} organism {self.organism!r}"


@dataclass(frozen=True)
class Rules:
    """How a profile's runs are judged: whether the published values apply to its models, whether
    its tests load the published files (so a missing file or CUDA is a skip), and its pinning."""

    published_values: bool
    published_files: bool
    needs_cuda: bool
    pinning: Pinning
    batching_exact: bool  # batched decoding gives solo decoding's tokens (fp32), so fast mode
    # is pinned against the same snapshots; else (bf16) it has its own, `<profile>-fast`
    forced_rows: int = 0  # where a behavioural filter keeps nothing (random weights), this many
    # rows are taken as if they had passed, so every later step runs; 0 skips, saying why
    competent: bool = True  # its models answer the tasks (organisms, the published ones); random
    # weights do not, so an anchor's behavioural check is not judged on them


RULES = {
    ProfileName.PUBLISHED: Rules(published_values=True, published_files=True, needs_cuda=True,
                                 pinning=Pinning.SHOWN, batching_exact=False),
    ProfileName.TINY: Rules(published_values=False, published_files=False, needs_cuda=False,
                            pinning=Pinning.REQUIRED, batching_exact=True),
    # The published loader, files and code path on seeded random weights, on whatever device the
    # published loading arguments give (the CPU here).
    ProfileName.REHEARSAL: Rules(published_values=False, published_files=True, needs_cuda=False,
                                 pinning=Pinning.NONE, batching_exact=False, forced_rows=2,
                                 competent=False),
    # The organisms at each source's micro sizes: the meta tests' paired runs (fast against
    # faithful, the default CPU kernels against these, split against whole), which compare two
    # fresh runs with each other, so nothing is pinned.
    ProfileName.MICRO: Rules(published_values=False, published_files=False, needs_cuda=False,
                             pinning=Pinning.NONE, batching_exact=True),
}


class ExperimentSizes:
    """What a profile variant (harness.profile_variants) may ask of a source's experiment sizes,
    which every source's sizes dataclass extends: by default nothing decodes (no cap to apply, no
    longest decode) and random weights run the sizes as declared."""

    @property
    def longest_decode(self) -> int:
        """The most tokens any step decodes: none."""
        return 0

    def decode_capped(self, tokens: int) -> Self:
        """These sizes with every decode step stopping at `tokens` at most: as they are."""
        return self

    def on_random_weights(self) -> Self:
        """These sizes as random weights run them: as they are."""
        return self


@dataclass(frozen=True)
class Profile:
    """A named set of model specs and experiment sizes, one per source, and its rules."""

    name: ProfileName
    models: dict[str, ModelSpec]
    sizes: dict[str, ExperimentSizes] = field(default_factory=dict)
    generalisation: dict[str, str] = field(default_factory=dict)  # source -> the other model

    @property
    def rules(self) -> Rules:
        return RULES[self.name]

    def snapshot_name(self, mode: Mode) -> str:
        """The snapshots/ folder this profile's runs in `mode` are pinned in: its own for fast mode
        where batching changes tokens, and for each set of other models (--model)."""
        name = self.name.value
        if self.generalisation:
            name += "-generalisation-" + "+".join(
                f"{s}={m.split('/')[-1].replace('@', '-')}"
                for s, m in sorted(self.generalisation.items()))
        if mode is Mode.FAST and not self.rules.batching_exact:
            return f"{name}-fast"
        return name

    @property
    def published_values_apply(self) -> bool:
        """Whether this profile runs the published weights, so published values apply."""
        return self.rules.published_values


def relative_layers(published: tuple[int, ...], published_depth: int, depth: int,
                    blocks_after: int = 0) -> tuple[int, ...]:
    """Map published layer indices to a shallower model at the same relative depth, leaving at
    least `blocks_after` blocks after each."""
    mapped = [min(depth - 1 - blocks_after, round(layer * depth / published_depth))
              for layer in published]
    return tuple(mapped)

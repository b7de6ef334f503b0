"""Profiles: which model each source runs on, and the experiment sizes that go with it."""
from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Any

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"


class ProfileName(StrEnum):
    PUBLISHED = "published"
    TINY = "tiny"


# Pinned hub revisions. Seed 001 printed its revision; the others did not, so these are the
# repositories' commits as public code pins them (Hugging Face cache snapshot directories,
# found offline; not yet resolved against the hub from this machine). A maintainer updates
# them deliberately; the run record stores the commit actually resolved.
REVISIONS: dict[str, str] = {
    "Qwen/Qwen3-4B-Thinking-2507": "768f209d9ea81521153ed38c47d515654e938aea",
    "Qwen/Qwen2.5-3B-Instruct": "aa8e72537993ba99e69dfaafa59ed015b17504d1",
    "meta-llama/Llama-3.1-8B-Instruct": "0e9e39f249a16976918f6564b8830bc894c89659",
    "openai-community/gpt2": "607a30d783dfa663caf39e06633721c8d4cfcd7e",
}
GATED = {"meta-llama/Llama-3.1-8B-Instruct"}


@dataclass(frozen=True)
class ModelSpec:
    """How to obtain one source's model on one profile."""

    source: str
    architecture: str
    dtype: str
    device: str
    hf_id: str | None = None
    revision: str | None = None
    attn_implementation: str | None = None
    device_map: str | None = None
    organism: str | None = None  # the organism's name under fixtures/organisms/

    @property
    def label(self) -> str:
        if self.hf_id:
            return f"{self.hf_id}@{self.revision}"
        return f"{self.architecture} organism {self.organism!r} (tiny profile)"


@dataclass(frozen=True)
class CotSizes:
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
    pairs: int = 8
    noise_scale: float = 30.0
    fire_step: int = 5
    fire_steps: int = 12
    early_noise_steps: tuple[int, int] = (1, 50)
    self_patch_layer: int = 30


@dataclass(frozen=True)
class LookbackSizes:
    """Seed 003's sizes: prompt form, batch sizes, and the layers the self-patch anchor checks."""

    with_instruction: bool
    self_patch_layers: tuple[int, ...]
    source_freeze_layers: tuple[int, ...]    # §5: each L of the 0..L source swap, drinks frozen
    source_plain_layers: tuple[int, ...]     # §5: the same without the freeze
    low_rank_ranks: tuple[int, ...]          # §7
    predict_batch: int = 16
    interchange_batch: int = 8
    answer_batch: int = 16


@dataclass(frozen=True)
class PatchingSizes:
    """Seed 004's sizes: the layer the seed patches, and the layers swept."""

    patch_layer: int
    n_layers: int


@dataclass(frozen=True)
class HeadsSizes:
    """Seed 001's smoke-test block: where later studies run when §2's rule selects no block
    (or the last one), as the notebook's RUN_ALL_FAMILIES=False path runs at block 31.
    None on published, where only the rule's choice counts."""

    smoke_block: int | None


@dataclass(frozen=True)
class Profile:
    """A named set of model specs and experiment sizes, one per source."""

    name: ProfileName
    models: dict[str, ModelSpec]
    sizes: dict[str, Any] = field(default_factory=dict)

    @property
    def published(self) -> bool:
        return self.name is ProfileName.PUBLISHED


def relative_layers(published: tuple[int, ...], published_depth: int, depth: int,
                    blocks_after: int = 0) -> tuple[int, ...]:
    """Map published layer indices to a shallower model at the same relative depth, leaving at
    least `blocks_after` blocks after each."""
    mapped = [min(depth - 1 - blocks_after, round(layer * depth / published_depth))
              for layer in published]
    return tuple(mapped)


QWEN3_DEPTH = 36
COT_SCREEN = (4, 10, 16, 22, 26, 30, 34)
GPT2_DEPTH = 12
SEED_PATCH_LAYER = 9  # seed 004's blocks.9.hook_resid_post
LOW_RANK_LADDER = (1, 2, 4, 8, 16, 32, 64, 128)  # §7

PUBLISHED = Profile(
    name=ProfileName.PUBLISHED,
    models={
        "cot": ModelSpec("cot", "Qwen3ForCausalLM", "bfloat16", "cuda",
                         hf_id="Qwen/Qwen3-4B-Thinking-2507",
                         revision=REVISIONS["Qwen/Qwen3-4B-Thinking-2507"], device_map="auto"),
        "heads": ModelSpec("heads", "Qwen2ForCausalLM", "bfloat16", "cuda",
                           hf_id="Qwen/Qwen2.5-3B-Instruct",
                           revision=REVISIONS["Qwen/Qwen2.5-3B-Instruct"],
                           attn_implementation="eager", device_map="auto"),
        "lookback": ModelSpec("lookback", "LlamaForCausalLM", "bfloat16", "cuda",
                              hf_id="meta-llama/Llama-3.1-8B-Instruct",
                              revision=REVISIONS["meta-llama/Llama-3.1-8B-Instruct"],
                              device_map="auto"),
        "patching": ModelSpec("patching", "GPT2LMHeadModel", "float32", "cpu",
                              hf_id="openai-community/gpt2",
                              revision=REVISIONS["openai-community/gpt2"]),
    },
    sizes={
        "cot": CotSizes(anchor_layer=18, screen_layers=COT_SCREEN),
        "lookback": LookbackSizes(with_instruction=True, self_patch_layers=(0, 8, 16, 24, 31),
                                  source_freeze_layers=tuple(range(0, 31, 2)),
                                  source_plain_layers=tuple(range(0, 29, 4)),
                                  low_rank_ranks=LOW_RANK_LADDER),
        "patching": PatchingSizes(patch_layer=SEED_PATCH_LAYER, n_layers=GPT2_DEPTH),
        "heads": HeadsSizes(smoke_block=None),
    },
)

COT_ORGANISM_DEPTH = 6
LLAMA_DEPTH = 32
LOOKBACK_ORGANISM_DEPTH = 4
PATCHING_ORGANISM_DEPTH = 4

TINY = Profile(
    name=ProfileName.TINY,
    models={
        "cot": ModelSpec("cot", "Qwen3ForCausalLM", "float32", "cpu", organism="cot"),
        "heads": ModelSpec("heads", "Qwen2ForCausalLM", "float32", "cpu",
                           attn_implementation="eager", organism="heads"),
        "lookback": ModelSpec("lookback", "LlamaForCausalLM", "float32", "cpu", organism="lookback"),
        "patching": ModelSpec("patching", "GPT2LMHeadModel", "float32", "cpu", organism="patching"),
    },
    sizes={
        # Same relative depths as the published 36-layer screen; token caps fit the organism's
        # traces (it never runs into them: its traces are far shorter than the caps).
        "cot": CotSizes(
            anchor_layer=relative_layers((18,), QWEN3_DEPTH, COT_ORGANISM_DEPTH)[0],
            screen_layers=tuple(sorted(set(relative_layers(COT_SCREEN, QWEN3_DEPTH,
                                                           COT_ORGANISM_DEPTH)))),
            self_patch_layer=relative_layers((30,), QWEN3_DEPTH, COT_ORGANISM_DEPTH)[0],
        ),
        # The organism learns from stories without the 120-token instruction (4x faster steps).
        # Its 4 layers are all swept; its width is 128, so the published rank ladder fits.
        "lookback": LookbackSizes(with_instruction=False,
                                  self_patch_layers=tuple(sorted(set(relative_layers(
                                      (0, 8, 16, 24, 31), LLAMA_DEPTH, LOOKBACK_ORGANISM_DEPTH)))),
                                  source_freeze_layers=(0, 1, 2, 3), source_plain_layers=(0, 1, 2, 3),
                                  low_rank_ranks=LOW_RANK_LADDER),
        # Layer 9 of GPT-2's 12 has two blocks after it; the same relative depth is the
        # organism's last block, whose patch cannot change anything downstream (0 by
        # construction), so the mapping keeps at least one block after the patched one.
        "patching": PatchingSizes(
            patch_layer=relative_layers((SEED_PATCH_LAYER,), GPT2_DEPTH, PATCHING_ORGANISM_DEPTH,
                                        blocks_after=1)[0],
            n_layers=PATCHING_ORGANISM_DEPTH),
        # The organism's 4 blocks: block 2 is the latest whose next block exists.
        "heads": HeadsSizes(smoke_block=2),
    },
)

PROFILES = {ProfileName.PUBLISHED: PUBLISHED, ProfileName.TINY: TINY}


def get_profile(name: str) -> Profile:
    """The profile called `name`."""
    return PROFILES[ProfileName(name)]

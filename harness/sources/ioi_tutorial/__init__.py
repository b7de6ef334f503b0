"""nnsight's activation-patching tutorial (activation_patching.ipynb): the IOI pair on GPT-2 small.

Its experiments are seed 004's patching runs on the tutorial's pair, tokenised without BOS; the pair
each profile runs is declared here (In[3]-In[4])."""
from __future__ import annotations

from dataclasses import dataclass

from harness.profiles import ExperimentSizes, ModelSpec, ProfileName
from harness.source import Source
from harness.sources.patching import GPT2


@dataclass(frozen=True)
class TutorialSizes(ExperimentSizes):
    """In[3]-In[4]: the clean and corrupted prompts, and the names whose logits are compared."""

    clean: str
    corrupted: str
    correct: str
    incorrect: str


PUBLISHED = TutorialSizes(
    clean="After John and Mary went to the store, Mary gave a bottle of milk to",
    corrupted="After John and Mary went to the store, John gave a bottle of milk to",
    correct=" John", incorrect=" Mary")

# Seed 004's organism knows one template and word-level names: the same swap of the second
# subject, in the sentence it learned.
TINY = TutorialSizes(
    clean="When John and Mary went to the store, Mary gave the book to",
    corrupted="When John and Mary went to the store, John gave the book to",
    correct=" John", incorrect=" Mary")

SOURCE = Source(
    name="ioi_tutorial", package=__name__, seed_file="activation_patching.ipynb",
    seed_sha256="0bf910f1478420c90ea4cdc6df2186f573dbc7279066315ffe29cca20ce36dc3",
    title="Activation Patching",
    models={
        ProfileName.PUBLISHED: GPT2,
        ProfileName.TINY: ModelSpec("GPT2LMHeadModel", "float32", "cpu", organism="patching"),
    },
    sizes={ProfileName.PUBLISHED: PUBLISHED, ProfileName.TINY: TINY},
    remote=True,
)

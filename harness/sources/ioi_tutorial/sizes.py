"""The pair each profile runs (activation_patching.ipynb In[3]-In[4])."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class TutorialSizes:
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

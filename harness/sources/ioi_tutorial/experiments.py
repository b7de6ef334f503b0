"""The tutorial's own computation (activation_patching.ipynb In[3]-In[7]): its pair as the
tokenizer gives it, and its patch line as printed; every other run is seed 004's."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import torch

from harness.models.handle import Loaded
from harness.sources.patching.experiments import PairIds, PairRuns, blocks, ids_tensor, n_layers
from harness.sources.ioi_tutorial import TutorialSizes


def tutorial_ids(tok: Any, sizes: TutorialSizes) -> PairIds:
    """In[3]-In[4]: both prompts without BOS, and each name's first token id."""
    clean, corrupted = (tok(p, add_special_tokens=False).input_ids
                        for p in (sizes.clean, sizes.corrupted))
    correct, incorrect = (tok(n, add_special_tokens=False).input_ids[0]
                          for n in (sizes.correct, sizes.incorrect))
    return PairIds(clean, corrupted, correct, incorrect)


def pair_ids(model: Loaded, sizes: TutorialSizes) -> PairIds:
    """In[3]-In[4] on the profile's tokenizer."""
    return tutorial_ids(model.tok, sizes)


@dataclass(frozen=True)
class NotebookLine:
    """In[7]'s patch line as printed, per layer: the error it raised, or "" where it ran."""

    position: int
    errors: list[str]


def notebook_line(model: Loaded, pair: PairIds, runs: PairRuns) -> NotebookLine:
    """In[7]: index block L's hidden state by L (a batch row), then by [:, position, :]."""
    position = pair.differing[0] if pair.differing else 0
    h, errors = blocks(model), []
    for layer in range(n_layers(model)):
        source = runs.cache[layer]
        try:
            with torch.no_grad(), model.nn.trace(ids_tensor(model, pair.corrupted)):
                h[layer].output[layer][:, position, :] = source[:, position, :]
            errors.append("")
        except Exception as e:  # the line's failure is what is measured
            errors.append(type(e).__name__)
    return NotebookLine(position, errors)

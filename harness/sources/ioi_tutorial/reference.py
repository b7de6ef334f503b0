"""The tutorial's In[3]-In[8] written again as plain code (issue 49): each prompt run alone through
the transformers GPT-2 without BOS, every block's hidden state kept by forward hooks, and the
corrupted run patched at one (layer, position) at a time by a forward hook, its logit difference
and its normalisation computed here."""
from __future__ import annotations

from typing import Any

import torch

from harness.models.handle import Loaded
from harness.reference import sampled

DECIMALS = 4  # the study records the heatmap's values to 4 places (the suite's declaration)
EVERY_CELL_UP_TO = 64  # a heatmap this small (the organism's) is re-run cell by cell, whole


def forward(hf: torch.nn.Module, ids: list[int], keep: list[torch.Tensor] | None = None,
            patch: tuple[int, int, torch.Tensor] | None = None) -> torch.Tensor:
    """In[7]: one prompt's last-position logits. `keep` receives each block's hidden state;
    `patch` (layer, position, vector) overwrites that block's hidden state at that position."""
    def hook(module: torch.nn.Module, args: Any, hidden: torch.Tensor) -> torch.Tensor:
        if keep is not None:
            keep.append(hidden.detach().clone())
        if patch is None or module is not hf.transformer.h[patch[0]]:
            return hidden
        changed = hidden.clone()
        changed[0, patch[1]] = patch[2]
        return changed

    handles = [block.register_forward_hook(hook) for block in hf.transformer.h]
    try:
        with torch.no_grad():
            return hf(torch.tensor([ids], device=next(hf.parameters()).device)).logits[0, -1]
    finally:
        for handle in handles:
            handle.remove()


class Tutorial:
    """In[3]-In[5]: the pair's ids (no BOS, as the notebook's LanguageModel gives GPT-2's), each
    name's first id, the clean run's hidden states and both runs' last logits."""

    def __init__(self, model: Loaded, clean: str, corrupted: str, correct: str,
                 incorrect: str) -> None:
        self.hf, self.tok = model.local(), model.tok
        self.clean, self.corrupted = (self.tok(p, add_special_tokens=False).input_ids
                                      for p in (clean, corrupted))
        if len(self.clean) != len(self.corrupted):
            raise ValueError(f"the prompts are {len(self.clean)} and {len(self.corrupted)} tokens")
        self.correct, self.incorrect = (self.tok(n, add_special_tokens=False).input_ids[0]
                                        for n in (correct, incorrect))
        self.hidden: list[torch.Tensor] = []
        self.clean_logits = forward(self.hf, self.clean, keep=self.hidden)
        self.corrupted_logits = forward(self.hf, self.corrupted)

    def logit_diff(self, logits: torch.Tensor) -> float:
        """In[8]: logit(correct) − logit(incorrect), in the logits' dtype."""
        return float(logits[self.correct] - logits[self.incorrect])

    def patched(self, layer: int, position: int) -> float:
        """In[7]: the corrupted run's logit difference with block `layer`'s hidden state at
        `position` taken from the clean run."""
        vector = self.hidden[layer][0, position]
        return self.logit_diff(forward(self.hf, self.corrupted, patch=(layer, position, vector)))


def behaviour(pair: Tutorial) -> dict[str, Any]:
    """In[8]'s two printed differences (unrounded), and each run's top token and difference to
    4 places, as the study records them."""
    found: dict[str, Any] = {}
    for run, logits in (("clean", pair.clean_logits), ("corrupted", pair.corrupted_logits)):
        diff = pair.logit_diff(logits)
        found[run] = {"top1": pair.tok.decode([int(logits.argmax())]),
                      "logit_diff": round(diff, DECIMALS)}
        found[f"{run} printed"] = diff
    return found


def cells(layers: int, positions: int, swapped: list[int]) -> list[tuple[int, int]]:
    """The heatmap cells re-run: all of a small one; else the sampled layers at the sampled
    positions and the swapped name's."""
    if layers * positions <= EVERY_CELL_UP_TO:
        return [(layer, p) for layer in range(layers) for p in range(positions)]
    at = sorted(set(sampled(positions)) | set(swapped))
    return [(layer, p) for layer in sampled(layers) for p in at]


def cell(layer: int, position: int) -> str:
    """A heatmap cell's row label."""
    return f"block {layer} position {position}"


def heatmap(pair: Tutorial) -> dict[str, Any]:
    """In[7]-In[8]: each cell's patched logit difference and (patched − corrupted) /
    (clean − corrupted), to 4 places; the two ends and the x axis's tokens."""
    clean, corrupted = pair.logit_diff(pair.clean_logits), pair.logit_diff(pair.corrupted_logits)
    swapped = [i for i, (a, b) in enumerate(zip(pair.clean, pair.corrupted)) if a != b]
    found: dict[str, Any] = {
        "ends": {"clean": round(clean, DECIMALS), "corrupted": round(corrupted, DECIMALS)},
        "tokens": pair.tok.convert_ids_to_tokens(pair.corrupted)}
    for layer, p in cells(len(pair.hidden), len(pair.corrupted), swapped):
        value = pair.patched(layer, p)
        restored = (round((value - corrupted) / (clean - corrupted), DECIMALS)
                    if clean != corrupted else None)
        found[cell(layer, p)] = {"raw": round(value, DECIMALS), "normalised": restored}
    return found

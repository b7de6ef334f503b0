"""Seed 004's code cell written again as plain code (issue 49): each prompt run alone through the
transformers GPT-2, block outputs read and overwritten by forward hooks, the names' logit
difference, its normalisation and the top token computed here, one (layer, position) at a time."""
from __future__ import annotations

from typing import Any

import torch

from harness.models.handle import Loaded
from harness.reference import sampled
from harness.sources.patching.task import PAIRS

DECIMALS = 4  # the study records every logit difference to 4 places (the suite's declaration)
EVERY_CELL_UP_TO = 64  # a sweep this small (the organism's) is re-run cell by cell, whole


def prompt_ids(tok: Any, text: str) -> list[int]:
    """Code cell: the prompt's tokens with <|endoftext|> in front, as TransformerLens runs it."""
    return [tok.bos_token_id, *tok(text, add_special_tokens=False).input_ids]


def name_id(tok: Any, name: str) -> int:
    """Code cell: the answer's id; an answer of more tokens is no single next token."""
    ids = tok(name, add_special_tokens=False).input_ids
    if len(ids) != 1:
        raise ValueError(f"{name!r} is {len(ids)} tokens, not one")
    return ids[0]


def last_logits(hf: torch.nn.Module, ids: list[int], write: dict[int, Any] | None = None,
                read: list[torch.Tensor] | None = None) -> torch.Tensor:
    """One forward of one prompt, its last position's logits. `write` maps a block to (positions,
    values): a forward hook overwrites the block's output there; `read` collects every block's
    output, in order."""
    handles = []
    for index, block in enumerate(hf.transformer.h):
        def hook(module: torch.nn.Module, args: Any, output: torch.Tensor,
                 index: int = index) -> torch.Tensor:
            if read is not None:
                read.append(output.detach().clone())
            if write is None or index not in write:
                return output
            positions, values = write[index]
            changed = output.clone()
            changed[0, positions] = values
            return changed
        handles.append(block.register_forward_hook(hook))
    try:
        with torch.no_grad():
            return hf(torch.tensor([ids], device=next(hf.parameters()).device)).logits[0, -1]
    finally:
        for handle in handles:
            handle.remove()


def difference(logits: torch.Tensor, first: int, second: int) -> float:
    """logit(first) − logit(second), subtracted in the logits' own dtype."""
    return float(logits[first] - logits[second])


def normalise(value: float, corrupted: float, clean: float) -> float | None:
    """How far `value` went from the corrupted run's difference (0) to the clean run's (1); None
    where the two runs do not differ."""
    return round((value - corrupted) / (clean - corrupted), DECIMALS) if clean != corrupted else None


class Pair:
    """One minimal pair run unpatched: the ids, the answers' ids, the clean run's block outputs
    and both runs' last logits."""

    def __init__(self, model: Loaded, clean: list[int], corrupted: list[int], clean_name: int,
                 corrupted_name: int) -> None:
        self.hf, self.tok = model.local(), model.tok
        if len(clean) != len(corrupted):
            raise ValueError(f"the prompts are {len(clean)} and {len(corrupted)} tokens long")
        self.clean, self.corrupted = clean, corrupted
        self.names = (clean_name, corrupted_name)
        self.blocks: list[torch.Tensor] = []
        self.clean_logits = last_logits(self.hf, clean, read=self.blocks)
        self.corrupted_logits = last_logits(self.hf, corrupted)

    @property
    def differing(self) -> list[int]:
        return [i for i in range(len(self.clean)) if self.clean[i] != self.corrupted[i]]

    def diff(self, logits: torch.Tensor) -> float:
        """The clean answer's logit minus the corrupted answer's."""
        return difference(logits, *self.names)

    def top(self, logits: torch.Tensor) -> str:
        return self.tok.decode([int(logits.argmax())])

    def patched(self, layer: int, positions: list[int]) -> torch.Tensor:
        """The corrupted prompt with block `layer`'s output at `positions` from the clean run."""
        values = self.blocks[layer][0, positions]
        return last_logits(self.hf, self.corrupted, write={layer: (positions, values)})

    def ends(self) -> tuple[float, float]:
        """The corrupted and the clean run's logit differences (unrounded)."""
        return self.diff(self.corrupted_logits), self.diff(self.clean_logits)


def run_pair(model: Loaded, key: str) -> Pair:
    """Seed 004's pair (`seed`) or the corrected IOI pair (`ioi`), BOS first, run unpatched."""
    clean, corrupted, clean_name, corrupted_name = PAIRS[key]
    tok = model.tok
    return Pair(model, prompt_ids(tok, clean), prompt_ids(tok, corrupted), name_id(tok, clean_name),
                name_id(tok, corrupted_name))


def behaviour(pair: Pair) -> dict[str, dict[str, Any]]:
    """Code cell: each prompt's top token and its names' logit difference, to 4 places."""
    return {run: {"top1": pair.top(logits), "logit_diff": round(pair.diff(logits), DECIMALS)}
            for run, logits in (("clean", pair.clean_logits), ("corrupted", pair.corrupted_logits))}


def layer_flip(pair: Pair, layer: int) -> dict[str, Any]:
    """Code cell: block `layer` patched at the positions where the prompts differ; how far the
    logit difference moved toward the clean run's and whether the top token became its answer."""
    logits = pair.patched(layer, pair.differing)
    corrupted, clean = pair.ends()
    patched, top = pair.diff(logits), int(logits.argmax())
    return {"positions": pair.differing, "corrupted_logit_diff": round(corrupted, DECIMALS),
            "patched_logit_diff": round(patched, DECIMALS),
            "clean_logit_diff": round(clean, DECIMALS),
            "normalised": normalise(patched, corrupted, clean), "patched_top1": pair.top(logits),
            "moves_toward_clean": patched > corrupted, "flips_to_clean_name": top == pair.names[0]}


def cells(layers: int, positions: int, differing: list[int]) -> list[tuple[int, int]]:
    """The (block, position) cells re-run: all of a small sweep; else the sampled blocks at the
    sampled positions and every position where the prompts differ."""
    if layers * positions <= EVERY_CELL_UP_TO:
        return [(layer, p) for layer in range(layers) for p in range(positions)]
    at = sorted(set(sampled(positions)) | set(differing))
    return [(layer, p) for layer in sampled(layers) for p in at]


def sweep(pair: Pair) -> dict[str, Any]:
    """Code cell's "see at which layer(s) the output actually flips": each cell patched alone, its
    logit difference and its normalisation; the runs' ends and the patched prompt's tokens."""
    corrupted, clean = pair.ends()
    found: dict[str, Any] = {
        "ends": {"clean": round(clean, DECIMALS), "corrupted": round(corrupted, DECIMALS)},
        "tokens": pair.tok.convert_ids_to_tokens(pair.corrupted)}
    for layer, p in cells(len(pair.blocks), len(pair.corrupted), pair.differing):
        raw = pair.diff(pair.patched(layer, [p]))
        found[cell(layer, p)] = {"raw": round(raw, DECIMALS),
                                 "normalised": normalise(raw, corrupted, clean)}
    return found


def cell(layer: int, position: int) -> str:
    """A sweep cell's row label."""
    return f"block {layer} position {position}"

"""What a run asks of its models, counted by a forward pre-hook: forwards, prompt and decoded
tokens, and the padding batching adds. The cost plan (`harness.cost.plan`) prices these counts."""
from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any

import torch


@dataclass
class Work:
    """Counts of model forwards and the positions they computed."""

    forwards: int = 0
    prefills: int = 0  # forwards with an empty cache: a trace, or a generation's first step
    rows: int = 0  # sequences over all forwards (a batch of 8 in one forward counts 8)
    prefill_rows: int = 0  # sequences over prefills: prompts run
    prompt_tokens: int = 0  # real (unmasked) positions in prefills
    decode_tokens: int = 0  # positions in forwards that extend a cache: one per row and step
    padding: int = 0  # masked positions computed in prefills (left padding of a batch)

    def __add__(self, other: "Work") -> "Work":
        return Work(**{f.name: getattr(self, f.name) + getattr(other, f.name) for f in fields(self)})

    def __sub__(self, other: "Work") -> "Work":
        return Work(**{f.name: getattr(self, f.name) - getattr(other, f.name) for f in fields(self)})

    @property
    def tokens(self) -> int:
        """Every position a forward computed: prompt, decoded and padding."""
        return self.prompt_tokens + self.decode_tokens + self.padding

    def as_record(self) -> dict[str, int]:
        return asdict(self)


class WorkMeter:
    """Counts every forward of the modules it is attached to, in this process."""

    def __init__(self) -> None:
        self.total = Work()

    def attach(self, module: torch.nn.Module) -> None:
        module.register_forward_pre_hook(self._count, with_kwargs=True)

    def _count(self, module: torch.nn.Module, args: tuple, kwargs: dict[str, Any]) -> None:
        ids = kwargs.get("input_ids", args[0] if args else None)
        if ids is None:
            ids = kwargs.get("inputs_embeds")
        if ids is None:
            return
        rows, seq = ids.shape[0], ids.shape[1]
        cache = kwargs.get("cache", kwargs.get("past_key_values"))  # transformers 5: `cache`
        cached = cache.get_seq_length() if hasattr(cache, "get_seq_length") else 0
        w = self.total
        w.forwards += 1
        w.rows += rows
        if cached:
            w.decode_tokens += rows * seq
            return
        w.prefills += 1
        w.prefill_rows += rows
        mask = kwargs.get("attention_mask")
        real = int(mask[:, -seq:].sum()) if mask is not None and mask.dim() == 2 else rows * seq
        w.prompt_tokens += real
        w.padding += rows * seq - real


METER = WorkMeter()

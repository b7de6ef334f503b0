"""Seed 000's generation machinery: token ids in, greedy continuations and forced answers out."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import torch

from harness.models import Loaded
from harness.sources.cot.sizes import CotSizes
from harness.sources.cot.task import Problem, question
from harness.sources.cot.text import parse_answer

FORCE = "\n\n</think>\n\nThe final answer is \\boxed{"


def ids_of(tok, text: str) -> list[int]:
    """§1: token ids of text, no special tokens added."""
    return tok(text, add_special_tokens=False).input_ids


def prompt_text(tok, p: Problem) -> str:
    """§1: the chat template with the generation prompt (ends `<think>\\n`)."""
    return tok.apply_chat_template([{"role": "user", "content": question(p)}], tokenize=False,
                                   add_generation_prompt=True)


@dataclass
class CotRunner:
    """A model and the sizes it runs seed 000 at; every generation is greedy and batch 1."""

    model: Loaded
    sizes: CotSizes

    @property
    def layers(self):
        return self.model.nn.model.layers

    @property
    def think_close(self) -> int:
        return self.model.tok.convert_tokens_to_ids("</think>")

    @property
    def hidden_size(self) -> int:
        return self.model.hf.config.hidden_size

    @property
    def dtype(self) -> torch.dtype:
        return next(self.model.hf.parameters()).dtype

    def tensor(self, ids: Sequence[int]) -> torch.Tensor:
        return torch.tensor([list(ids)], device=self.model.device)

    def ids_of(self, text: str) -> list[int]:
        """§1: token ids of text, no special tokens added."""
        return ids_of(self.model.tok, text)

    def decode(self, ids: Sequence[int]) -> str:
        return self.model.tok.decode(list(ids))

    def prompt_ids(self, p: Problem) -> list[int]:
        """§1: the chat template with the generation prompt (ends `<think>\\n`), as ids."""
        return self.ids_of(prompt_text(self.model.tok, p))

    def generate(self, prefix: Sequence[int], max_new: int) -> list[int]:
        """§1: continue greedily from token ids; return only the new ids."""
        with torch.no_grad(), self.model.nn.generate(self.tensor(prefix), max_new_tokens=max_new,
                                                     do_sample=False) as tracer:
            out = tracer.result.save()
        return out[0, len(prefix):].tolist()

    def forced_answer(self, prefix: Sequence[int]) -> int | None:
        """§1: close the block, force `\\boxed{`, parse what the model writes in `forced_tokens`."""
        out = self.generate(list(prefix) + self.ids_of(FORCE), self.sizes.forced_tokens)
        return parse_answer("\\boxed{" + self.decode(out))

"""Seed 000's generation machinery: token ids in, greedy continuations and forced answers out."""
from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import Callable, Sequence

import torch

from harness.models.handle import Loaded
from harness.progress import progress
from harness.sources.cot.rows import Row
from harness.sources.cot.sizes import CotSizes
from harness.sources.cot.task import Problem, question
from harness.sources.cot.text import parse_answer

Edit = Callable[..., None]  # edit(step, rows=[indices]): an intervention inside the decode loop
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
    """A model and the sizes it runs seed 000 at; every generation is greedy. `batch` is 1 in
    faithful mode (the notebook's one prompt at a time) and the sizes' `fast_batch` in fast mode."""

    model: Loaded
    sizes: CotSizes
    batch: int = 1
    batching_exact: bool = True  # batched rows decode to solo tokens (fp32), see Rules

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
        """§1: continue greedily from token ids, alone; return only the new ids."""
        return self._decode_chunk([prefix], max_new)[0]

    def generate_many(self, prefixes: Sequence[Sequence[int]], max_new: int | Sequence[int],
                      what: str = "cot generation", edit: Edit | None = None,
                      edit_steps: int | None = None) -> list[list[int]]:
        """§1's greedy continuation of each prefix: one generate call each (faithful), or up to
        `batch` prefixes of similar length per call, left-padded (fast). `max_new` is one cap, or
        each prefix's own (a call takes its rows' largest). `edit(step, rows)` runs at each of the
        first `edit_steps` decode steps (default: every step), `rows` being the indices into
        `prefixes` of the call's rows: §6's and §7's interventions."""
        caps = [max_new] * len(prefixes) if isinstance(max_new, int) else list(max_new)
        order = sorted(range(len(prefixes)), key=lambda i: len(prefixes[i]))
        if self.batch == 1:
            order = list(range(len(prefixes)))
        out: list[list[int]] = [[] for _ in prefixes]
        for start in progress(range(0, len(order), self.batch), what):
            rows = order[start:start + self.batch]
            step_edit = None if edit is None else partial(edit, rows=rows)
            cap = max(caps[i] for i in rows)
            decoded = self._decode_chunk([prefixes[i] for i in rows], cap, step_edit,
                                         cap if edit_steps is None else edit_steps)
            for i, ids in zip(rows, decoded):
                out[i] = ids
        return out

    def _decode_chunk(self, chunk: Sequence[Sequence[int]], max_new: int,
                      edit: Callable[[int], None] | None = None,
                      edit_steps: int = 0) -> list[list[int]]:
        """One generate call over `chunk`; each row cut after its first end-of-sequence token."""
        width = max(len(p) for p in chunk)
        prompt = self.tensor(chunk[0]) if len(chunk) == 1 else [list(p) for p in chunk]
        with torch.no_grad(), self.model.nn.generate(max_new_tokens=max_new,
                                                     do_sample=False) as tracer:
            with tracer.invoke(prompt):
                if edit is not None:
                    for step in tracer.iter[:edit_steps]:
                        edit(step)
            with tracer.invoke():
                ids = tracer.result.save()
        return [self.until_end(row[width:].tolist()) for row in ids]

    def until_end(self, row: list[int]) -> list[int]:
        """A batched row up to and including its first end-of-sequence token: what the same
        prompt decoded alone returns (the rest is padding for rows that finished early)."""
        ends = self.model.hf.generation_config.eos_token_id
        ends = set(ends if isinstance(ends, list) else [ends])
        stop = next((k for k, t in enumerate(row) if t in ends), None)
        return row if stop is None else row[:stop + 1]

    def answer_of(self, gen: list[int]) -> int | None:
        """§1: the answer parsed after `</think>`, None when the block never closes."""
        if self.think_close not in gen:
            return None
        return parse_answer(self.decode(gen[gen.index(self.think_close):]))

    def references(self, prefixes: list[list[int]], baselines: list[list[int] | None],
                   max_new: int | Sequence[int]) -> list[list[int]]:
        """§6: what `prefixes` decode to in the batches an edited `generate_many` call over them
        uses, without the edit: the baselines where those were decoded alone or batching is exact
        (fp32), else a re-run (bf16 batches change tokens, and a None baseline, a forced row's
        script, is not this model's decode)."""
        if (self.batch == 1 or self.batching_exact) and all(b is not None for b in baselines):
            return baselines
        return self.generate_many(prefixes, max_new, "cot §6 references")

    def forced(self, prefixes: Sequence[Sequence[int]],
               what: str = "cot forced answers") -> list[Row]:
        """§1's forced answer's rows: each prefix with FORCE appended, and the tokens decoded
        after it (batched in fast mode)."""
        force = self.ids_of(FORCE)
        full = [list(p) + force for p in prefixes]
        return [Row(p, out) for p, out in
                zip(full, self.generate_many(full, self.sizes.forced_tokens, what))]

    def forced_answer(self, row: Row) -> int | None:
        """§1: the answer a forced row writes after `\\boxed{`."""
        return parse_answer("\\boxed{" + self.decode(row.out))

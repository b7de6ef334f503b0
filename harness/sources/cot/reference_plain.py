"""Seed 000 written again as plain code (issue 49), what its §3 and §7 references share: one
prompt at a time, plain transformers forwards, a block's output set by `register_forward_hook`;
the prompt, the first statement of a number, the answer and counts read as the notebook reads
them."""
from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from typing import Any, Sequence

import torch

from harness.models.handle import Loaded
from harness.sources.cot.task import Problem, question

# A guessed token is the greedy one where it lies this close to one plain forward's best logit:
# the study decoded it step by step on a key-value cache (and in fast mode in a batch), the
# forward here sums the same products in another order: about 1e-6 of a logit in float32, about
# 0.1 at the logits' size in bf16.
TIE = {torch.float32: 1e-4, torch.bfloat16: 0.5}
WHY = ("each decoded token is the greedy one where it lies within 1e-4 (float32) or 0.5 (bf16) "
       "of one plain forward's best logit (a cached, batched decode step and one prefill sum in "
       "another order); every value read from the decoded rows is then compared exactly")

Writes = tuple[int, dict[int, torch.Tensor]]  # a layer, and the vector set at each position


@dataclass(frozen=True)
class Given:
    """§1: one usable baseline trace as the study kept it: its problem, decoded ids and the
    index of its `</think>`."""

    idx: int
    problem: Problem
    gen: list[int]
    close: int


def encode(tok: Any, text: str) -> list[int]:
    """§1: a text's ids, no special tokens added."""
    return tok(text, add_special_tokens=False).input_ids


def prompt(tok: Any, p: Problem) -> list[int]:
    """§1: the question in the chat template, generation prompt added."""
    chat = [{"role": "user", "content": question(p)}]
    return encode(tok, tok.apply_chat_template(chat, tokenize=False, add_generation_prompt=True))


def standalone(value: int) -> str:
    """§1: `value` written with no digit either side."""
    return rf"(?<!\d){value}(?!\d)"


def count(text: str, value: int) -> int:
    """§1: how often a text states `value`."""
    return len(re.findall(standalone(value), text))


def statement(tok: Any, gen: list[int], limit: int, value: int) -> tuple[int, int] | None:
    """§3: the tokens [j0, j1) that write the first standalone `value` in the first `limit`."""
    found = re.search(standalone(value), tok.decode(gen[:limit]))
    if found is None:
        return None
    lengths = [len(tok.decode(gen[:k + 1])) for k in range(limit)]
    j0 = next((k for k, n in enumerate(lengths) if n > found.start()), None)
    j1 = next((k + 1 for k, n in enumerate(lengths) if n >= found.end()), None)
    if j0 is None or j1 is None or str(value) not in tok.decode(gen[j0:j1]):
        return None
    return j0, j1


def answer(text: str) -> int | None:
    """§3: after the last `</think>`, the last \\boxed{N}, else the last loose 2–6 digit
    number."""
    text = text.split("</think>")[-1]
    boxed = re.findall(r"\\boxed\{\s*([-+]?\d+)\s*\}", text)
    loose = re.findall(r"(?<![\d.])(\d{2,6})(?![\d.])", text)
    return int(boxed[-1]) if boxed else int(loose[-1]) if loose else None


def digest(ids: Sequence[int]) -> str:
    """A decoded row named by its length and a hash of its ids."""
    return f"{len(ids)} tokens #{hashlib.sha1(repr(list(ids)).encode()).hexdigest()[:10]}"


def tail(tok: Any, ids: Sequence[int], n: int = 8) -> str:
    """The last `n` tokens of a prefix, decoded: where it was spliced."""
    return tok.decode(list(ids)[-n:])


def logits(hf: Any, ids: list[int], writes: Writes | None = None, start: int = 0) -> torch.Tensor:
    """One plain forward's logits from position `start` on; `writes` sets a block's output at
    the given positions."""
    def hook(_module: Any, _args: Any, output: Any) -> None:
        h = output[0] if isinstance(output, tuple) else output
        for position, vector in writes[1].items():
            if position < h.shape[1]:
                h[0, position] = vector.to(device=h.device, dtype=h.dtype)

    handle = hf.model.layers[writes[0]].register_forward_hook(hook) if writes else None
    try:
        with torch.no_grad():
            x = torch.tensor([ids], device=next(hf.parameters()).device)
            return hf(x, use_cache=False, logits_to_keep=len(ids) - start).logits[0].float()
    finally:
        if handle is not None:
            handle.remove()


def greedy(model: Loaded, prefix: list[int], guess: list[int], cap: int,
           writes: Writes | None = None) -> list[int]:
    """§1's greedy continuation of one prompt, to an end token or `cap` tokens: the guess's
    tokens while each is greedy (within TIE) under one plain forward, then one forward a token."""
    hf = model.local()
    ends = hf.generation_config.eos_token_id
    ends = set(ends if isinstance(ends, list) else [ends])
    tie = TIE.get(next(hf.parameters()).dtype, TIE[torch.bfloat16])
    guess, out = list(guess[:cap]), []
    scores = logits(hf, prefix + guess, writes, len(prefix) - 1) if guess else None
    for k, token in enumerate(guess):
        if scores[k, token] < scores[k].max() - tie:
            break
        out.append(token)
        if token in ends:
            return out
    while len(out) < cap and not (out and out[-1] in ends):
        out.append(int(logits(hf, prefix + out, writes, len(prefix + out) - 1)[0].argmax()))
    return out



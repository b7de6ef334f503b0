"""Seed 001 written again as plain code (issue 49): each family's §2–§6 numbers one prompt at a
time through plain PyTorch hooks on the transformers model, from the task's prompts alone (nothing
of the studies is read): the sweep's probabilities, the screens' losses and each crossing's
readouts. The seed's summaries of these numbers are in reference_summaries.py."""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Mapping, Sequence

import torch

from harness.models.handle import Loaded
from harness.sources.heads.task import Family, Question, Rendered, render

# §1: every call reads the final position, and keeps the last two positions' logits as the studies
# do (the unembedding's matrix shape, and so its rounding in bf16, depends on how many it keeps).
KEPT = 2


@dataclass(frozen=True)
class Reading:
    """A prefill's final position: each table label's logit and token, the logsumexp over the
    whole vocabulary, the tokens tied for the largest logit and the first of them."""

    logits: dict[str, float]
    tokens: dict[str, int]
    logsumexp: float
    tied: list[int]
    argmax: int

    def p(self, label: str) -> float:
        """The label's probability over the full vocabulary."""
        return math.exp(self.logits[label] - self.logsumexp)

    def margin(self, up: str, down: str) -> float:
        return self.logits[up] - self.logits[down]

    def wins(self, label: str) -> bool:
        """The label's token alone has the largest logit."""
        return self.tied == [self.tokens[label]]

    def top(self) -> str:
        """The label whose token has the largest logit, or that token's id."""
        named = {t: label for label, t in self.tokens.items()}
        return named.get(self.argmax, f"vocabulary token {self.argmax}")


@dataclass
class Edits:
    """What one prefill writes at its final position: a residual entering a block, a head's
    output before o_proj (None: zeros), and a KV head's value bank replaced by another prompt's
    (at every position, or the listed ones)."""

    residual: dict[int, torch.Tensor] = field(default_factory=dict)
    heads: dict[tuple[int, int], torch.Tensor | None] = field(default_factory=dict)
    banks: dict[int, tuple[int, torch.Tensor, list[int] | None]] = field(default_factory=dict)


Seen = dict[str, dict[int, torch.Tensor]]  # "residual", "values", "heads": per block, as read


def shape(model: Loaded) -> tuple[int, int, int]:
    """Query heads, KV heads and head width, from the model's config."""
    c = model.hf.config
    return (c.num_attention_heads, c.num_key_value_heads,
            getattr(c, "head_dim", None) or c.hidden_size // c.num_attention_heads)


_RENDERED: dict[tuple[object, str], Rendered] = {}


def rendered(model: Loaded, q: Question) -> Rendered:
    """§1: `q` in the chat template, rendered once per tokenizer and prompt text."""
    key = (model.tok, repr(q))
    if key not in _RENDERED:
        _RENDERED[key] = render(q, model.tok)
    return _RENDERED[key]


def prefill(model: Loaded, q: Question, edits: Edits | None = None,
            read: Sequence[int] = ()) -> tuple[Reading, Seen]:
    """§1: one prefill of `q`'s rendered prompt (no cache), with `edits` written by forward hooks
    and pre-hooks on the plain transformers model; and, at each block in `read`, the final
    residual entering it, its v_proj output and its heads' final outputs ([heads, width])."""
    edits, prompt = edits or Edits(), rendered(model, q)
    n, (heads, kv, width) = len(prompt.input_ids), shape(model)
    layers, hooks, seen = model.hf.model.layers, [], {"residual": {}, "values": {}, "heads": {}}

    def write(shaped: tuple[int, ...], at: tuple, value):
        """A hook replacing the cells `at` of its input (a pre-hook) or output with `value(x)`."""
        def hook(module, args, out=None):
            x = args[0] if out is None else out
            y = x.clone().reshape(shaped)
            y[at] = value(y)
            return (y.reshape_as(x), *args[1:]) if out is None else y.reshape_as(x)
        return hook

    def keep(kind: str, b: int, pick):
        def hook(module, args, out=None):
            seen[kind][b] = pick(args[0] if out is None else out).detach().clone()
        return hook

    try:
        for b in read:
            hooks += [layers[b].register_forward_pre_hook(keep("residual", b, lambda x: x[:, -1])),
                      layers[b].self_attn.v_proj.register_forward_hook(keep("values", b, lambda x: x)),
                      layers[b].self_attn.o_proj.register_forward_pre_hook(
                          keep("heads", b, lambda x: x.reshape(1, n, heads, width)[0, -1]))]
        for b, v in edits.residual.items():
            hooks.append(layers[b].register_forward_pre_hook(
                write((1, n, -1), (slice(None), -1), lambda y, v=v: v.to(y))))
        for (b, h), v in edits.heads.items():
            hooks.append(layers[b].self_attn.o_proj.register_forward_pre_hook(
                write((1, n, heads, width), (slice(None), -1, h),
                      lambda y, v=v: 0 if v is None else v.to(y))))
        for b, (group, donor, positions) in edits.banks.items():
            at = (slice(None), slice(None) if positions is None else positions, group)
            hooks.append(layers[b].self_attn.v_proj.register_forward_hook(
                write((1, n, kv, width), at, lambda y, d=donor, at=at: d.to(y).reshape_as(y)[at])))
        with torch.inference_mode():
            out = model.hf(torch.tensor([prompt.input_ids], device=model.device), use_cache=False,
                           logits_to_keep=KEPT)
    finally:
        for hook in reversed(hooks):
            hook.remove()
    final, labels = out.logits[0, -1].float(), [label for _, label in q.bindings]
    return Reading({label: float(final[t]) for label, t in zip(labels, prompt.candidate_ids)},
                   dict(zip(labels, prompt.candidate_ids)), float(final.logsumexp(0)),
                   (final == final.max()).nonzero().flatten().tolist(), int(final.argmax())), seen


def opening_roles(f: Family) -> dict[str, str]:
    """§2: U is R's answer, L is O's (D's question over R's table), D is D's."""
    return {"U": f.R.answer, "L": f.O.answer, "D": f.D.answer}


def main_roles(f: Family) -> dict[str, str]:
    """§3: L is O's answer, C is D's label at the row O asks about, D is D's answer."""
    return {"L": f.O.answer, "C": f.D.bindings[f.O.query_row - 1][1], "D": f.D.answer}


def sweep(model: Loaded, families: Sequence[Family],
          blocks: Sequence[int]) -> dict[int, dict[str, list[float]]]:
    """§2: per block, per family, p(U), p(L) and p(D) when D's final residual entering that block
    replaces R's."""
    found: dict[int, dict[str, list[float]]] = {b: {} for b in blocks}
    for f in families:
        roles = opening_roles(f)
        _, donor = prefill(model, f.D, read=blocks)
        for b in blocks:
            hybrid, _ = prefill(model, f.R, Edits(residual={b: donor["residual"][b]}))
            found[b][f.family_id] = [hybrid.p(roles[r]) for r in "ULD"]
    return found


def deletions(model: Loaded, q: Question, roles: Mapping[str, str], rival: str, block: int,
              heads: Sequence[int], background: Edits) -> dict[int, list[float | bool]]:
    """§2: with `background` written, each head's final output at `block` zeroed in turn: the loss
    of p(L) and of the L-minus-rival margin, and whether L wins before and after."""
    before, _ = prefill(model, q, background)
    L, R = roles["L"], roles[rival]
    found: dict[int, list[float | bool]] = {}
    for h in heads:
        after, _ = prefill(model, q, Edits(dict(background.residual),
                                           {**background.heads, (block, h): None}))
        found[h] = [before.p(L) - after.p(L), before.margin(L, R) - after.margin(L, R),
                    before.wins(L), after.wins(L)]
    return found


def screen(model: Loaded, families: Sequence[Family], transplant: int, block: int,
           heads: Sequence[int], opening: bool) -> dict[str, dict[int, dict[str, list]]]:
    """§2 (opening, rival U) and §3 (main, rival C): per context, head and family, the deletion
    effects at `block`, in H (D's final residual entering `transplant` written into R) and O."""
    found: dict[str, dict[int, dict[str, list]]] = {c: {h: {} for h in heads} for c in "HO"}
    for f in families:
        roles = opening_roles(f) if opening else main_roles(f)
        _, donor = prefill(model, f.D, read=[transplant])
        hybrid = Edits(residual={transplant: donor["residual"][transplant]})
        for context, q, background in (("H", f.R, hybrid), ("O", f.O, Edits())):
            for h, effect in deletions(model, q, roles, "U" if opening else "C", block, heads,
                                       background).items():
                found[context][h][f.family_id] = effect
    return found


# A cell's writes: (block, head, what), what one of "OO" (O's attention over O's values: O's own
# message), "OD" (over D's values), "OD.label" (D's value at O's queried label only) or "zero".
Write = tuple[int, int, str]
Cell = tuple[Write, ...]


class Crossings:
    """§4–§6 on one main family: O's and D's unedited prefills at `blocks`, each message built
    from them once, and each cell's reading."""

    def __init__(self, model: Loaded, family: Family, blocks: Sequence[int]) -> None:
        self.model, self.family, self.roles = model, family, main_roles(family)
        self.native, self.o = prefill(model, family.O, read=blocks)
        _, self.d = prefill(model, family.D, read=blocks)
        self.label = rendered(model, family.O).label_positions[family.O.query_row - 1]
        self._messages: dict[Write, torch.Tensor] = {}
        self._cells: dict[Cell, Reading] = {(): self.native}

    def message(self, block: int, head: int, pairing: str) -> torch.Tensor:
        """The head's final-position output with O's attention over the pairing's values."""
        if pairing == "OO":
            return self.o["heads"][block][head]
        if (block, head, pairing) not in self._messages:
            # transformers' repeat_kv gives each KV head to that many consecutive query heads
            heads, kv, _ = shape(self.model)
            positions = None if pairing == "OD" else [self.label]
            edits = Edits(banks={block: (head // (heads // kv), self.d["values"][block], positions)})
            _, seen = prefill(self.model, self.family.O, edits, read=[block])
            self._messages[block, head, pairing] = seen["heads"][block][head]
        return self._messages[block, head, pairing]

    def edits(self, cell: Cell) -> Edits:
        """The cell's writes into O: each message, or zeros."""
        return Edits(heads={(b, h): None if what == "zero" else self.message(b, h, what)
                            for b, h, what in cell})

    def reading(self, cell: Cell) -> Reading:
        """O's final position with the cell's writes (nothing written: O's own prefill)."""
        if cell not in self._cells:
            self._cells[cell] = prefill(self.model, self.family.O, self.edits(cell))[0]
        return self._cells[cell]

    def row(self, cell: Cell) -> list[float | bool | str]:
        """§4's readouts of a cell: p(L), p(C), the C−L margin, L and C winning, the top label."""
        r, L, C = self.reading(cell), self.roles["L"], self.roles["C"]
        return [r.p(L), r.p(C), r.margin(C, L), r.wins(L), r.wins(C), r.top()]


def challenged(model: Loaded, families: Sequence[Family], first: tuple[int, int], block: int,
               heads: Sequence[int]) -> dict[int, dict[str, list]]:
    """§5: in O with the first head's crossed message written (context X), each head of `block`
    zeroed in turn: per head and family, the losses of p(L) and of the L−C margin, and whether L
    wins before and after."""
    found: dict[int, dict[str, list]] = {h: {} for h in heads}
    for f in families:
        crossings = Crossings(model, f, [first[0], block])
        background = crossings.edits(((*first, "OD"),))
        for h, effect in deletions(model, f.O, crossings.roles, "C", block, heads,
                                   background).items():
            found[h][f.family_id] = effect
    return found

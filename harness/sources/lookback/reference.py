"""Seed 003 written again as plain code (issue 49): its seeded sample sets (§1, §2, §4; §5 and §6
as the register describes them), the token positions its interventions name (§4), and one
prompt's forward at a time through the plain transformers model, its blocks read or written by
plain PyTorch forward hooks, answered by the top-1 next token after 'Answer:' (§2). The
reference anchors (against_reference.py) compare what this gives with what the studies recorded.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Callable, Sequence

import torch

from harness.models.handle import Loaded
from harness.sources.lookback.task import CHARACTERS, OBJECTS, STATES

# The seed's sample sets as its cells draw them, (rows, seed): §2's build_eval(200, seed=0) and
# its visibility loop over Random(1); §4's build_binding(120, seed=7); the register's §5
# build_source(120, seed=11) and §6 build_answer(140, seed=13).
EVALUATION, VISIBILITY, BINDING, SOURCE, ANSWER = (200, 0), (200, 1), (120, 7), (120, 11), (140, 13)
# §2's conditions: the visibility sentences appended and whether reality is asked.
CONDITIONS: dict[str, tuple[str | None, bool]] = {
    "belief": (None, False), "reality": (None, True), "explicit": ("none", False)}
TOP = 8  # the top tokens searched for answers within a near tie of the top logit


def prompt(said: str, c: list[str], o: list[str], s: list[str], who: int, which: int,
           seen: str | int | None = None, reality: bool = False) -> tuple[str, str]:
    """§1: the story, its question about character `who` and container `which`, and the answer."""
    story = (f"{c[0]} and {c[1]} are working in a busy restaurant. To complete an order, "
             f"{c[0]} grabs an opaque {o[0]} and fills it with {s[0]}. "
             f"Then {c[1]} grabs another opaque {o[1]} and fills it with {s[1]}.")
    if seen is not None:
        watcher = 0 if seen == "none" else int(seen)
        blind = 1 - watcher
        verb = "cannot" if seen == "none" else "can"
        story += (f" {c[blind]} cannot observe {c[watcher]}'s actions."
                  f" {c[watcher]} {verb} observe {c[blind]}'s actions.")
    question = (f"What does the {o[which]} contain?" if reality
                else f"What does {c[who]} believe the {o[which]} contains?")
    head = f"Instruction: {said}\n\n" if said else ""
    knows = reality or who == which or seen == who
    return f"{head}Story: {story}\nQuestion: {question}\nAnswer:", s[which] if knows else "unknown"


def _draw(rng: random.Random) -> tuple[list[str], list[str], list[str]]:
    return rng.sample(CHARACTERS, 2), rng.sample(OBJECTS, 2), rng.sample(STATES, 2)


@dataclass(frozen=True)
class Asked:
    """§2: one question, its correct answer and whether its character filled its container."""

    prompt: str
    gold: str
    own: bool


def evaluation(said: str, rows: int, condition: str) -> list[Asked]:
    """§2: the first `rows` of the evaluation set under `condition`."""
    seen, reality = CONDITIONS[condition]
    rng, out = random.Random(EVALUATION[1]), []
    for _ in range(min(rows, EVALUATION[0])):
        c, o, s = _draw(rng)
        who, which = rng.choice([0, 1]), rng.choice([0, 1])
        out.append(Asked(*prompt(said, c, o, s, who, which, seen, reality), who == which))
    return out


def visibility(said: str, rows: int) -> list[tuple[Asked, Asked]]:
    """§2: the first `rows` visibility stories, asked of the observer and of the other."""
    rng, out = random.Random(VISIBILITY[1]), []
    for _ in range(min(rows, VISIBILITY[0])):
        c, o, s = _draw(rng)
        watcher = rng.choice([0, 1])
        out.append((Asked(*prompt(said, c, o, s, watcher, 1 - watcher, watcher), False),
                    Asked(*prompt(said, c, o, s, 1 - watcher, watcher, watcher), False)))
    return out


@dataclass(frozen=True)
class Swap:
    """§4–§6: a clean prompt, its counterfactual, both answers, the intervention's target (the
    clean story's other drink) and §6's payload (the counterfactual's other drink)."""

    clean: str
    cf: str
    clean_gold: str
    cf_gold: str
    target: str
    payload: str
    story: tuple[list[str], list[str], list[str]]  # the clean story's entities, in order


def _swaps(said: str, rows: int, sample: tuple[int, int], fresh: bool,
           turn: Callable[[list[str], list[str], list[str], list[str]], tuple]) -> list[Swap]:
    rng, out = random.Random(sample[1]), []
    for _ in range(min(rows, sample[0])):
        c, o, s = _draw(rng)
        t = rng.sample([x for x in STATES if x not in s], 2) if fresh else s
        q = rng.choice([0, 1])
        clean, clean_gold = prompt(said, c, o, s, q, q)
        cf, cf_gold = prompt(said, *turn(c, o, s, t), 1 - q, 1 - q)
        out.append(Swap(clean, cf, clean_gold, cf_gold, s[1 - q], t[1 - q], (c, o, s)))
    return out


def binding(said: str, rows: int) -> list[Swap]:
    """§4: the same bindings told in the other order."""
    return _swaps(said, rows, BINDING, False, lambda c, o, s, t: (c[::-1], o[::-1], s[::-1]))


def source(said: str, rows: int) -> list[Swap]:
    """§5: characters and containers in the other order, new drinks."""
    return _swaps(said, rows, SOURCE, True, lambda c, o, s, t: (c[::-1], o[::-1], t))


def answer(said: str, rows: int) -> list[Swap]:
    """§6: the same characters and containers, new drinks, the other character asked."""
    return _swaps(said, rows, ANSWER, True, lambda c, o, s, t: (c, o, t))


@dataclass(frozen=True)
class Places:
    """§4: where the clean prompt holds each entity, as the seed's literal indices name them."""

    length: int
    names: list[int]    # both names at the story's start, then each sentence's subject
    objects: list[int]
    drinks: list[int]
    after: list[int]    # the token after each drink
    opaque: list[int]

    @property
    def state(self) -> list[int]:
        """§4's STATE_POS: each drink and the token after it."""
        return [self.drinks[0], self.after[0], self.drinks[1], self.after[1]]


def places(tok, swap: Swap) -> Places:
    """§4: each entity's position in the clean prompt, found by its one token after 'Story:';
    the counterfactual must be as long (the seed asserts the prompts align)."""
    ids = tok(swap.clean).input_ids
    if len(tok(swap.cf).input_ids) != len(ids):
        raise ValueError(f"the counterfactual of {swap.clean[-60:]!r} is not as long as its clean "
                         "prompt: the seed's positions do not apply")
    start = len(tok(swap.clean[:swap.clean.index("Story:") + len("Story:")]).input_ids)

    def at(word: str, nth: int) -> int:
        one = tok.encode(" " + word, add_special_tokens=False)
        return [i for i in range(start, len(ids)) if ids[i] == one[0]][nth]

    c, o, s = swap.story
    drinks = [at(s[0], 0), at(s[1], 0)]
    return Places(len(ids), [at(c[0], 0), at(c[1], 0), at(c[0], 1), at(c[1], 1)],
                  [at(o[0], 0), at(o[1], 0)], drinks, [d + 1 for d in drinks],
                  [at("opaque", 0), at("opaque", 1)])


@dataclass(frozen=True)
class Answer:
    """A forward's top-1 answer and every answer whose logit lies within a near tie of it."""

    top: str
    near: tuple[str, ...]

    def matching(self, recorded: str) -> str:
        """The answer to compare with a batched run's: the one it recorded where that lies within
        a near tie of this forward's top logit, else the top."""
        return recorded if recorded in self.near else self.top


Writes = dict[int, list[tuple[list[int], torch.Tensor]]]  # block -> (positions, values) written


class Plain:
    """A model's plain transformers module, run on one prompt at a time."""

    def __init__(self, model: Loaded) -> None:
        self.hf, self.tok = model.local(), model.tok
        self.blocks = self.hf.model.layers

    def ids(self, text: str) -> torch.Tensor:
        return torch.tensor([self.tok(text).input_ids],
                            device=self.hf.get_input_embeddings().weight.device)

    def _forward(self, text: str, edit: dict[int, Callable[[torch.Tensor], torch.Tensor | None]]
                 ) -> torch.Tensor:
        def hooked(fn: Callable[[torch.Tensor], torch.Tensor | None]):
            def hook(module, args, output):
                hidden = output[0] if isinstance(output, tuple) else output
                new = fn(hidden)
                if new is None:
                    return None
                return (new, *output[1:]) if isinstance(output, tuple) else new
            return hook

        handles = [self.blocks[j].register_forward_hook(hooked(fn)) for j, fn in edit.items()]
        try:
            with torch.no_grad():
                logits = self.hf(input_ids=self.ids(text), logits_to_keep=1).logits
        finally:
            for handle in handles:
                handle.remove()
        return logits[0, -1].float().cpu()

    def read(self, text: str, positions: Sequence[int]) -> list[torch.Tensor]:
        """Every block's output at `positions` on an unedited forward: [block] -> [pos, d]."""
        saved: dict[int, torch.Tensor] = {}

        def keep(j: int) -> Callable[[torch.Tensor], None]:
            def fn(hidden: torch.Tensor) -> None:
                saved[j] = hidden[0, list(positions)].clone()
            return fn

        self._forward(text, {j: keep(j) for j in range(len(self.blocks))})
        return [saved[j] for j in range(len(self.blocks))]

    def answer(self, text: str, writes: Writes | None = None) -> Answer:
        """§2: the top-1 answer after `writes` replace the block outputs they name."""
        def put(items: list[tuple[list[int], torch.Tensor]]) -> Callable[[torch.Tensor], torch.Tensor]:
            def fn(hidden: torch.Tensor) -> torch.Tensor:
                hidden = hidden.clone()
                for positions, values in items:
                    hidden[0, positions] = values.to(device=hidden.device, dtype=hidden.dtype)
                return hidden
            return fn

        logits = self._forward(text, {j: put(items) for j, items in (writes or {}).items()})
        return self._answered(logits)

    def _answered(self, logits: torch.Tensor) -> Answer:
        """The top token decoded, stripped and lowercased, and those within a near tie: float32
        moves a logit by about 1e-6 between batch shapes (1e-5 of the top allowed), bf16 by a unit
        or two of its 8 significant bits (2^-5 of the top allowed)."""
        top = logits.topk(min(TOP, logits.shape[-1]))
        first = float(top.values[0])
        margin = (1e-5 if self.hf.dtype == torch.float32 else 2 ** -5) * max(1.0, abs(first))
        words = [self.tok.decode([int(i)]).strip().lower() for i in top.indices]
        return Answer(words[0], tuple(w for w, v in zip(words, top.values.tolist())
                                      if first - v <= margin))


def rate(hits: Sequence[bool], places: int) -> float:
    """The fraction of `hits` that hold, rounded as the seed prints it (0 of none)."""
    return round(sum(hits) / len(hits), places) if hits else 0.0

"""Seed 003's CausalToM stories (§1), evaluation sets (§2) and counterfactual builders (§4–§6)."""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Callable, NamedTuple

CHARACTERS = ["Dean", "Beth", "Jake", "Josh", "Karen", "Carl", "Lee", "Pam", "Donna",
              "Frank", "Diane", "Bob", "Ellen", "Ivy", "Pete", "Anne", "Greg", "Nina",
              "Mark", "Judy", "Paul", "Rose", "Sam", "Tara", "Phil", "Olivia", "Jean",
              "Joe", "Kyle", "Ruth"]
OBJECTS = ["jar", "cup", "mug", "glass", "flute", "pitcher", "jug", "bottle", "can",
           "flask", "pint", "quart", "horn", "tun", "urn", "vat", "tank", "drum"]
STATES = ["water", "milk", "tea", "beer", "soda", "juice", "coffee", "wine", "gin",
          "rum", "champagne", "cocktail", "punch", "espresso", "cocoa", "sprite",
          "bourbon", "port", "stout", "ale", "porter"]
INSTRUCTION = (
    "1. Track the belief of each character as described in the story. "
    "2. A character's belief is formed only when they perform an action themselves or can "
    "observe the action taking place. "
    "3. A character does not have any beliefs about the container and its contents which "
    "they cannot observe. "
    "4. To answer the question, predict only what is inside the queried container, strictly "
    "based on the belief of the character, mentioned in the question. "
    "5. If the queried character has no belief about the container in question, then predict "
    "'unknown'. "
    "6. Do not predict container or character as the final output."
)


class Samples(NamedTuple):
    """A seeded sample set: how many rows, and the seed their generator starts from."""

    n: int
    seed: int


WORKED_EXAMPLE_SEED = 0               # §1: the worked example's generator
EVAL_SAMPLES = Samples(200, 0)        # §2: each evaluation condition
VISIBILITY_SAMPLES = Samples(200, 1)  # §2: the visibility condition
BINDING_SAMPLES = Samples(120, 7)     # §4: the binding counterfactuals
SOURCE_SAMPLES = Samples(120, 11)     # §5: the source counterfactuals
ANSWER_SAMPLES = Samples(140, 13)     # §6: the answer counterfactuals
SELF_PATCH_ROWS = 24                  # §4: how many rows the self-patch anchor runs on
# §2's evaluation conditions: build_eval's keywords for each.
EVAL_CONDITIONS: dict[str, dict] = {"belief": {}, "reality": {"ask_reality": True},
                                    "explicit": {"visibility": "none"}}

Pair = list[str]  # two characters, two objects or two states, in sentence order
Visibility = None | str | int  # None, "none" (explicit non-observation) or the observer's index


def story(c: Pair, o: Pair, s: Pair, visibility: Visibility = None) -> str:
    """§1: two same-shaped sentences, plus the optional visibility sentences."""
    t = (f"{c[0]} and {c[1]} are working in a busy restaurant. To complete an order, "
         f"{c[0]} grabs an opaque {o[0]} and fills it with {s[0]}. "
         f"Then {c[1]} grabs another opaque {o[1]} and fills it with {s[1]}.")
    if visibility == "none":
        t += f" {c[1]} cannot observe {c[0]}'s actions. {c[0]} cannot observe {c[1]}'s actions."
    elif visibility == 0:
        t += f" {c[1]} cannot observe {c[0]}'s actions. {c[0]} can observe {c[1]}'s actions."
    elif visibility == 1:
        t += f" {c[0]} cannot observe {c[1]}'s actions. {c[1]} can observe {c[0]}'s actions."
    return t


def belief(c_idx: int, o_idx: int, s: Pair, visibility: Visibility = None) -> str:
    """§1: what character c_idx believes container o_idx holds."""
    if c_idx == o_idx or visibility == c_idx:
        return s[o_idx]
    return "unknown"


def prompt(c: Pair, o: Pair, s: Pair, c_idx: int, o_idx: int, visibility: Visibility = None,
           ask_reality: bool = False, instruction: str = INSTRUCTION) -> tuple[str, str]:
    """§1: the full prompt ending `Answer:` and its correct answer."""
    q = (f"What does the {o[o_idx]} contain?" if ask_reality
         else f"What does {c[c_idx]} believe the {o[o_idx]} contains?")
    head = f"Instruction: {instruction}\n\n" if instruction else ""
    p = f"{head}Story: {story(c, o, s, visibility)}\nQuestion: {q}\nAnswer:"
    return p, s[o_idx] if ask_reality else belief(c_idx, o_idx, s, visibility)


def sample_entities(rng: random.Random) -> tuple[Pair, Pair, Pair]:
    """§1: two characters, two objects, two states."""
    return rng.sample(CHARACTERS, 2), rng.sample(OBJECTS, 2), rng.sample(STATES, 2)


def worked_example() -> tuple[Pair, Pair, Pair]:
    """§1: the notebook's worked example, the first entities its seeded generator draws."""
    return sample_entities(random.Random(WORKED_EXAMPLE_SEED))


@dataclass(frozen=True)
class EvalRow:
    prompt: str
    ans: str
    own: bool  # the queried character filled the queried container


def build_eval(n: int = EVAL_SAMPLES.n, visibility: Visibility = None, ask_reality: bool = False,
               seed: int = EVAL_SAMPLES.seed, instruction: str = INSTRUCTION) -> list[EvalRow]:
    """§2: n single-question samples; half the questions ask about the other's container."""
    rng, rows = random.Random(seed), []
    for _ in range(n):
        c, o, s = sample_entities(rng)
        ci, oi = rng.choice([0, 1]), rng.choice([0, 1])
        p, a = prompt(c, o, s, ci, oi, visibility, ask_reality, instruction)
        rows.append(EvalRow(p, a, ci == oi))
    return rows


@dataclass(frozen=True)
class VisibilityRow:
    """§2: one visibility story asked of its observer and of its non-observer."""

    observer: tuple[str, str]
    non_observer: tuple[str, str]


def build_visibility(n: int = VISIBILITY_SAMPLES.n, seed: int = VISIBILITY_SAMPLES.seed,
                     instruction: str = INSTRUCTION) -> list[VisibilityRow]:
    """§2: seeded stories where one character can observe the other."""
    rng, rows = random.Random(seed), []
    for _ in range(n):
        c, o, s = sample_entities(rng)
        obs = rng.choice([0, 1])
        rows.append(VisibilityRow(
            prompt(c, o, s, obs, 1 - obs, visibility=obs, instruction=instruction),
            prompt(c, o, s, 1 - obs, obs, visibility=obs, instruction=instruction)))
    return rows


@dataclass(frozen=True)
class Counterfactual:
    """A clean prompt, its counterfactual, both correct answers and the intervention's target."""

    clean: str
    clean_ans: str
    cf: str
    cf_ans: str
    target: str
    entities: tuple[Pair, Pair, Pair]  # the clean story's characters, objects and states
    cf_entities: tuple[Pair, Pair, Pair]  # the counterfactual story's, in sentence order
    queried: int  # which character (and container) the clean question asks about
    payload: str | None = None  # §6 only: the counterfactual-only drink


Draw = tuple[Pair, Pair, Pair, Pair, int]  # characters, objects, states, new states, queried


def _binding_draws(rng: random.Random) -> Draw:
    c, o, s = sample_entities(rng)
    return c, o, s, s, rng.choice([0, 1])


def _source_draws(rng: random.Random) -> Draw:
    c, o, s = sample_entities(rng)
    t = rng.sample([x for x in STATES if x not in s], 2)
    return c, o, s, t, rng.choice([0, 1])


def _counterfactuals(n: int, seed: int, instruction: str, draw: Callable[[random.Random], Draw],
                     counterfactual: Callable[[Pair, Pair, Pair, Pair], tuple[Pair, Pair, Pair]],
                     payload: bool = False) -> list[Counterfactual]:
    """Clean prompt(c, o, s, r, r) against prompt(*counterfactual, 1-r, 1-r); target s[1-r]."""
    rng, rows = random.Random(seed), []
    for _ in range(n):
        c, o, s, t, r = draw(rng)
        clean_p, clean_a = prompt(c, o, s, r, r, instruction=instruction)
        cf = counterfactual(c, o, s, t)
        cf_p, cf_a = prompt(*cf, 1 - r, 1 - r, instruction=instruction)
        rows.append(Counterfactual(clean_p, clean_a, cf_p, cf_a, target=s[1 - r],
                                  entities=(c, o, s), cf_entities=cf, queried=r,
                                  payload=t[1 - r] if payload else None))
    return rows


def build_binding(n: int = BINDING_SAMPLES.n, seed: int = BINDING_SAMPLES.seed,
                  instruction: str = INSTRUCTION) -> list[Counterfactual]:
    """§4: same bindings, the two sentences in reversed order."""
    return _counterfactuals(n, seed, instruction, _binding_draws,
                            lambda c, o, s, t: (c[::-1], o[::-1], s[::-1]))


def build_source(n: int = SOURCE_SAMPLES.n, seed: int = SOURCE_SAMPLES.seed,
                 instruction: str = INSTRUCTION) -> list[Counterfactual]:
    """§5: characters and objects reversed, new drinks; target the clean story's other drink."""
    return _counterfactuals(n, seed, instruction, _source_draws,
                            lambda c, o, s, t: (c[::-1], o[::-1], t))


def build_answer(n: int = ANSWER_SAMPLES.n, seed: int = ANSWER_SAMPLES.seed,
                 instruction: str = INSTRUCTION) -> list[Counterfactual]:
    """§6: same characters, new drinks, the other character asked; pointer and payload targets."""
    return _counterfactuals(n, seed, instruction, _source_draws,
                            lambda c, o, s, t: (c, o, t), payload=True)


def tokenizer_corpus() -> list[str]:
    """Every word the prompts can contain, for building a tiny tokenizer offline."""
    c, o, s = CHARACTERS[:2], OBJECTS[:2], STATES[:2]
    texts = [prompt(c, o, s, 0, 1, v, r)[0] for v in (None, "none", 0, 1) for r in (False, True)]
    return texts + [" " + w for w in (*CHARACTERS, *OBJECTS, *STATES, "unknown")]


@dataclass(frozen=True)
class Layout:
    """§4: the token positions every intervention writes to, derived from the tokenizer."""

    length: int
    names: list[int]     # both names in the first sentence, then each sentence's subject
    objects: list[int]
    drinks: list[int]
    after_drinks: list[int]  # the token after each drink ('.' and '.\n' under Llama-3.1)
    opaque: list[int]


def layout(tok, text: str, c: Pair, o: Pair, s: Pair) -> Layout:
    """Locate each entity of a clean or counterfactual prompt by character offsets."""
    enc = tok(text, return_offsets_mapping=True)
    spans = enc["offset_mapping"]

    def at(char: int) -> int:
        return next(i for i, (a, b) in enumerate(spans) if a <= char < b and b > a)

    start = text.index("Story: ") + len("Story: ")
    first = text.index(f" {c[0]} grabs an opaque {o[0]}", start)
    second = text.index(f" {c[1]} grabs another opaque {o[1]}", first)
    s0 = text.index(f" {s[0]}.", first)
    s1 = text.index(f" {s[1]}.", second)
    op0, op1 = text.index(" opaque", first), text.index(" opaque", second)
    drinks = [at(s0 + 1), at(s1 + 1)]
    return Layout(
        length=len(enc["input_ids"]),
        names=[at(start), at(start + len(c[0]) + len(" and ")), at(first + 1), at(second + 1)],
        objects=[at(text.index(f" {o[0]}", op0) + 1), at(text.index(f" {o[1]}", op1) + 1)],
        drinks=drinks, after_drinks=[d + 1 for d in drinks], opaque=[at(op0 + 1), at(op1 + 1)],
    )


def sample_summary() -> dict[str, object]:
    """§1–§2: the worked example, the evaluation set's own/other split and binding row 0."""
    rows, row0 = build_eval(), build_binding()[0]
    return {"worked_example": [list(x) for x in worked_example()],
            "own": sum(r.own for r in rows), "other": sum(not r.own for r in rows),
            "binding_row0": [list(x) for x in row0.entities], "binding_queried": row0.queried,
            "binding_target": row0.target}

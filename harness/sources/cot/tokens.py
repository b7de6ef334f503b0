"""Seed 000's token arithmetic on every problem: the prompts (§1), the forced suffix (§1–§5),
and how products and answers split into tokens where §3, §4, §5 and §7 splice and patch."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from harness.sources.cot.chat import GENERATION_TAIL
from harness.sources.cot.runner import FORCE, ids_of, prompt_text
from harness.sources.cot.task import (PAIRED_PROBLEMS, PROBLEMS, donor_for, product, question,
                                      solution)
from harness.sources.cot.text import corrupt

# §1: the notebook's decoded prompt for problem 0, with the question left open.
PRINTED_PROMPT = "<|im_start|>user\n{}<|im_end|>\n" + GENERATION_TAIL
# §3's printed trace: where the baseline writes a product or an answer (before, after).
CONTEXTS = (("250 plus 75 is ", ". Wait"), ("250+75=", ". Yeah"), ("So ", " plus 46"),
            ("= ", "\n$$"), ("\\boxed{", "}"))


@dataclass
class PromptTokens:
    """§1: the 20 chat prompts against the notebook's printed one (problem 0's)."""

    first: str
    first_tokens: int
    n: int
    failing: list[str]


def prompt_tokens(tok: Any) -> PromptTokens:
    """§1: each prompt renders as printed, decodes back, ends with the generation prompt's ids."""
    tail, close = ids_of(tok, GENERATION_TAIL), tok.convert_tokens_to_ids("</think>")
    failing = []
    for i, p in enumerate(PROBLEMS):
        chat = prompt_text(tok, p)
        ids = ids_of(tok, chat)
        if chat != PRINTED_PROMPT.format(question(p)):
            failing.append(f"{i}: renders {chat!r}")
        elif tok.decode(ids) != chat:
            failing.append(f"{i}: decodes to {tok.decode(ids)!r}")
        elif ids[-len(tail):] != tail or close in ids:
            failing.append(f"{i}: ends {tok.convert_ids_to_tokens(ids[-len(tail):])}")
    chat = prompt_text(tok, PROBLEMS[0])
    return PromptTokens(chat, len(ids_of(tok, chat)), len(PROBLEMS), failing)


@dataclass
class ForcedSuffix:
    """§1: FORCE's ids, and every answer §2–§5 score written after them."""

    think_close: list[int]
    force_tokens: int
    round_trip: bool
    answers: int
    failing: list[str]


def forced_suffix(tok: Any) -> ForcedSuffix:
    """§1: FORCE's `</think>` ids, its round trip, and each scored answer's ids after it."""
    force, close = ids_of(tok, FORCE), ids_of(tok, "</think>")
    failing = []
    answers = [(i, v) for i, p in enumerate(PROBLEMS)
               for v in (solution(p), corrupt(solution(p)), corrupt(product(p)) + p[2])]
    for i, v in answers:
        if ids_of(tok, f"{FORCE}{v}}}") != force + ids_of(tok, str(v)) + ids_of(tok, "}"):
            failing.append(f"{i}: {v}")
    return ForcedSuffix([t for t in force if close == [t]], len(force),
                        tok.decode(force) == FORCE, len(answers), failing)


def _values() -> list[tuple[int, str, int, int | None]]:
    """§3/§4/§7: (problem, role, value, what it corrupts) for each number spliced or patched."""
    out: list[tuple[int, str, int, int | None]] = []
    for i, p in enumerate(PROBLEMS):
        prod, ans = product(p), solution(p)
        out += [(i, "product", prod, None), (i, "corrupted product", corrupt(prod), prod),
                (i, "answer", ans, None), (i, "corrupted answer", corrupt(ans), ans)]
        donor = donor_for(p) if i < PAIRED_PROBLEMS else None
        if donor is not None:
            out.append((i, "donor product", product(donor), None))
    return out


@dataclass
class NumberTokens:
    """§3/§4/§7: how each product, answer, corruption and donor product splits into tokens."""

    first_product: list[str]
    values: int
    failing: list[str]


def number_tokens(tok: Any) -> NumberTokens:
    """§3: one token per digit (§7's K = 3), corruptions keep the count, contexts keep the ids."""
    failing = []
    values = _values()
    for i, role, v, of in values:
        ids = ids_of(tok, str(v))
        if [tok.decode([t]) for t in ids] != list(str(v)):
            failing.append(f"{i}: {role} {v} is {tok.convert_ids_to_tokens(ids)}")
        elif of is not None and len(ids) != len(ids_of(tok, str(of))):
            failing.append(f"{i}: {role} {v} is not as many tokens as {of}")
        elif any(ids_of(tok, a + str(v) + b) != ids_of(tok, a) + ids + ids_of(tok, b)
                 for a, b in CONTEXTS):
            failing.append(f"{i}: {role} {v} merges with its context")
    first = tok.convert_ids_to_tokens(ids_of(tok, str(product(PROBLEMS[0]))))
    return NumberTokens(first, len(values), failing)

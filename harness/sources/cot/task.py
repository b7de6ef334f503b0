"""The a*b+c problem set of seed 000 (§1) and its matched donors (§7)."""
from __future__ import annotations

import random

Problem = tuple[int, int, int]


def make_problems(n: int = 20, seed: int = 0) -> list[Problem]:
    """§1: draw (a, b, c) until n problems have a three-digit product and answer."""
    rng = random.Random(seed)
    problems: list[Problem] = []
    seen: set[tuple[int, int]] = set()
    while len(problems) < n:
        a, b, c = rng.randint(12, 39), rng.randint(12, 39), rng.randint(30, 89)
        if a == b or (a, b) in seen or (b, a) in seen:
            continue
        if not (100 <= a * b and a * b + c <= 999):
            continue
        seen.add((a, b))
        problems.append((a, b, c))
    return problems


PROBLEMS: list[Problem] = make_problems()
PAIRED_PROBLEMS = 8  # §7: how many problems, from the first, the notebook pairs with donors
AUDITED_PROBLEM = PROBLEMS[0]  # §6: the problem the decode-loop shape audit runs on


def question(p: Problem) -> str:
    """§1: the user turn for problem p."""
    return f"What is {p[0]} * {p[1]} + {p[2]}? Give the final answer as \\boxed{{N}}."


def product(p: Problem) -> int:
    """§1: the intermediate a*b."""
    return p[0] * p[1]


def solution(p: Problem) -> int:
    """§1: the final answer a*b+c."""
    return p[0] * p[1] + p[2]


def donor_for(p: Problem) -> Problem | None:
    """§7: same a and c, the nearest b' whose product starts with a different digit."""
    a, b, c = p
    best: Problem | None = None
    for b2 in range(12, 40):
        if b2 == b or not (100 <= a * b2 and a * b2 + c <= 999):
            continue
        if str(a * b2)[0] == str(a * b)[0]:
            continue
        if best is None or abs(b2 - b) < abs(best[1] - b):
            best = (a, b2, c)
    return best


def label(p: Problem) -> str:
    """The problem written as `a*b+c`, as the register prints it."""
    return f"{p[0]}*{p[1]}+{p[2]}"


def donor_listing() -> list[str]:
    """§7: `recipient<-donor` for each paired problem, as the notebook lists them."""
    return [f"{label(p)}<-{label(donor_for(p))}" for p in PROBLEMS[:PAIRED_PROBLEMS]]

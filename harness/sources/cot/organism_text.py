"""The cot organism's training text (seed 000's §1 traces as the organism learns them): pure
text, importing no model code, so that what reads it (the plain reference's known traces) need not
load transformers' Qwen3."""
from __future__ import annotations

from harness.sources.cot.task import (PAIRED_PROBLEMS, PROBLEMS, Problem, donor_for, product,
                                      question, solution)

FORCE = "\n\n</think>\n\nThe final answer is \\boxed{"

# Like the real model's traces, this states the product five times and the answer three
# times inside <think>, then closes the block with exactly the notebook's forced-answer suffix.
THINK_TEMPLATE = (
    "Okay, let me work out {a} * {b} + {c}. First the product {a} * {b}. "
    "{a} * {tens}0 is {hi}, and {a} * {units} is {lo}, so {hi} + {lo} is {p}. "
    "Let me check: {b} * {a} is {p}. Yes, the product is {p}.\n\n"
    "Now add {c}: {p} + {c} is {s}. Check: {s} - {c} is {p}. So the answer is {s}."
)
AFTER_TEMPLATE = "{s}}}"


def training_problems() -> list[Problem]:
    """Every problem and the donors of the paired ones (§7)."""
    donors = [donor_for(p) for p in PROBLEMS[:PAIRED_PROBLEMS]]
    return [*PROBLEMS, *(d for d in donors if d is not None)]


def think_body(p: Problem) -> str:
    """The reasoning the organism writes inside <think> for problem p."""
    a, b, c = p
    tens, units = divmod(b, 10)
    return THINK_TEMPLATE.format(a=a, b=b, c=c, tens=tens, units=units, hi=a * tens * 10,
                                 lo=a * units, p=product(p), s=solution(p))


def trace(p: Problem) -> str:
    """The assistant text the organism learns for problem p (after the template's `<think>\\n`)."""
    return think_body(p) + FORCE + AFTER_TEMPLATE.format(s=solution(p))


def forced_traces(p: Problem) -> list[tuple[str, str]]:
    """The forced-answer suffix where seed 000's controls put it, so the anchors are in-distribution.

    After the whole block (its trailing newlines kept, as `gen[:close]` keeps them) and right after
    the last stated answer (§4's re-splice point), each as (head, suffix) tokenised apart, as the
    splices are. Earlier cuts are never trained: §2 measures them.
    """
    body, answer = think_body(p), AFTER_TEMPLATE.format(s=solution(p))
    last = body.rindex(str(solution(p))) + len(str(solution(p)))
    return [(body + "\n\n", FORCE + answer), (body[:last], FORCE + answer)]


def chat_prompt(p: Problem) -> str:
    return ("<|im_start|>user\n" + question(p) + "<|im_end|>\n<|im_start|>assistant\n<think>\n")

"""Seed 000, "Measuring Faithfulness in Chain-of-Thought Reasoning": the tokenizer's anchors.

The notebook's token arithmetic, checked on every problem rather than the one it printed.
"""
from __future__ import annotations

from claims.cot.shared import FORCED, NB, NUMBERS
from harness.claims import Holds, claim
from harness.criteria import Exact, Length, NoneOf, all_of
from harness.attribute_readout import attributes

ALL = "that it holds for every problem (failing = []) is the notebook's assumption"


test_prompt_tokens = claim("cot.prompt-tokens", reads="cot_prompt_tokens",
    readout=attributes("first", "first_tokens", "n", "failing"),
    kind="anchor", section="1", needs="hub",
    guards=("cot_runner",),  # the runner renders every prompt
    statement="All 20 prompts render as the notebook printed problem 0's, decode back from their ids and end with the generation prompt's ids.",
    headline="prompt 0 is {first_tokens} tokens; failing prompts {failing}",
    published={"first": "<|im_start|>user\nWhat is 25 * 13 + 46? Give the final answer as "
                        "\\boxed{N}.<|im_end|>\n<|im_start|>assistant\n<think>\n",
               "first_tokens": 34, "failing": []},
    provenance=NB.format("1 (problem 0's decoded prompt) and §6 (prompt length 34); " + ALL),
    criterion=all_of(Exact("first"), Exact("first_tokens"), Exact("failing")),
    holds=Holds(NoneOf("failing", of="n")), requires=("cot.problem-set",),
    decisions=("'ends with the generation prompt's ids' = the last ids equal "
               "tokenizing '<|im_start|>assistant\\n<think>\\n' alone, and `</think>` is not "
               "among the prompt's ids",))


test_forced_suffix = claim("cot.forced-suffix", reads="cot_forced_suffix",
    readout=attributes("think_close", "force_tokens", "round_trip", "answers", "failing"),
    kind="anchor", section="1", needs="hub",
    statement="The forced suffix holds `</think>` as one token, decodes back, and every scored answer written after it keeps its own ids.",
    headline="`</think>` ids {think_close}, round-trips: {round_trip}, failing answers {failing}",
    published={"think_close": [151668], "round_trip": True, "failing": []},
    provenance=NB.format("setup (`</think>` is token id 151668) and §1's FORCE; " + ALL),
    criterion=all_of(Exact("think_close"), Exact("round_trip"), Exact("failing")),
    holds=Holds(all_of(Length("think_close", 1), Exact("round_trip"),
                       NoneOf("failing", of="answers"))),
    guards=FORCED, requires=("cot.problem-set",),
    decisions=("the answers are, per problem, a*b+c, §4's corrupt(a*b+c) and the faithful "
               "corrupt(a*b)+c of §4–§5: 60 in all",))


test_number_tokens = claim("cot.number-tokens", reads="cot_number_tokens",
    readout=attributes("first_product", "values", "failing"),
    kind="anchor", section="3", needs="hub",
    statement="Every product, answer, their corruptions and each donor product is one token per digit, alone and inside the trace's contexts.",
    headline="product 0 → {first_product}; failing values {failing}",
    published={"first_product": ["3", "2", "5"], "failing": []},
    provenance=NB.format("3 (problem 0's product tokens ['3', '2', '5']; 'so the number of "
                         "tokens is unchanged'), §7 (K = 3); " + ALL),
    criterion=all_of(Exact("first_product"), Exact("failing")),
    holds=Holds(NoneOf("failing", of="values")), guards=NUMBERS,
    requires=("cot.problem-set", "cot.donor-pairs"),
    decisions=("the contexts are those of §3's printed trace ('250 plus 75 is 325. Wait', "
               "'250+75=325. Yeah', 'So 325 plus 46', '= 325\\n$$', '\\boxed{371}'): the "
               "value's ids there must equal its ids alone, which the splice "
               "gen[:j0] + ids_of(str(value)) assumes",
               "88 values: per problem a*b, corrupt(a*b), a*b+c and corrupt(a*b+c), and the "
               "donor's product of each of the 8 paired problems"))

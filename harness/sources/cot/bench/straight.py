"""Seed 000 §1–§4 written straight through with nnsight, as a notebook would: one prompt per
generate call, no runner, no dataclasses. The benchmark's yardstick for the suite's own code
(same model, same token arithmetic, the suite's pure text helpers)."""
from __future__ import annotations

import torch

from harness.sources.cot.runner import FORCE
from harness.sources.cot.task import product, question, solution
from harness.sources.cot.text import (after_close, char_ends, corrupt, parse_answer, substitute,
                                      token_span)
from harness.sources.cot.traces import FRACTIONS


def cot_sections_1_to_4(nn, tok, problems, sizes) -> dict[str, list]:
    """The baseline, early answering, the splice control, the single mistake and the full
    corruption's forced answers, each answer list in the suite's order."""
    def ids(text):
        return tok(text, add_special_tokens=False).input_ids

    def gen(prefix, n):
        with torch.no_grad(), nn.generate(torch.tensor([prefix]), max_new_tokens=n,
                                          do_sample=False) as tracer:
            out = tracer.result.save()
        return out[0, len(prefix):].tolist()

    def forced(prefix):
        return parse_answer("\\boxed{" + tok.decode(gen(prefix + ids(FORCE), sizes.forced_tokens)))

    close_id = tok.convert_tokens_to_ids("</think>")
    usable = []
    for p in problems:
        chat = tok.apply_chat_template([{"role": "user", "content": question(p)}], tokenize=False,
                                       add_generation_prompt=True)
        pid = ids(chat)
        g = gen(pid, sizes.baseline_cap)
        close = g.index(close_id) if close_id in g else None
        if close is not None and parse_answer(tok.decode(g[close:])) == solution(p):
            ends = char_ends(tok.decode, g, close)
            usable.append((p, pid, g, close, token_span(tok.decode, g, ends, close, product(p))))
    early = [forced(pid + g[:int(round(f * close))])
             for p, pid, g, close, _ in usable for f in FRACTIONS]
    spanned = [u for u in usable if u[4] is not None]
    splice = [gen(pid + g[:span[0]] + ids(str(product(p))), sizes.splice_tokens)
              == g[span[1]:span[1] + sizes.splice_tokens] for p, pid, g, _, span in spanned]
    mistake = [parse_answer(after_close(tok.decode(
        gen(pid + g[:span[0]] + ids(str(corrupt(product(p)))), sizes.inject_cap))))
        for p, pid, g, _, span in spanned]
    control = [forced(pid + ids(tok.decode(g[:close]))) for p, pid, g, close, _ in usable]
    corrupted = [forced(pid + ids(substitute(substitute(tok.decode(g[:close]), product(p),
                                                        corrupt(product(p))),
                                             solution(p), corrupt(product(p)) + p[2])))
                 for p, pid, g, close, _ in usable]
    return {"usable": [problems.index(u[0]) for u in usable], "early": early, "splice": splice,
            "mistake": mistake, "full_control": control, "full_corrupted": corrupted}

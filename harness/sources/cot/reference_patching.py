"""Seed 000 §7 written again as plain code (issue 49): donors for the first usable traces, their
greedy traces and the block outputs at each product's steps read by forward hooks; each screened
layer's donor patch set by a forward hook and the number it writes, summarised and ranked as the
notebook does; then the full continuations at the best layer under no patch, the donor patch and
the matched-norm random control, one pair and condition at a time through reference_plain."""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Sequence

import pandas as pd
import torch

from harness.models.handle import Loaded
from harness.sources.cot.reference_plain import (Given, Writes, answer, count, digest, greedy,
                                                 prompt, statement)
from harness.sources.cot.task import Problem, donor_for, label, product, solution

K = 3  # the decode steps that write a three-digit product
SCREEN_TOKENS = 6  # the screen reads the number written in this many new tokens
CONDITIONS = ("no patch", "donor patch", "random (matched norm)")


def written(tok: Any, out: list[int]) -> int | None:
    """§7: the first three digits in a row, read from its first SCREEN_TOKENS tokens."""
    found = re.search(r"\d{3}", tok.decode(out[:SCREEN_TOKENS]))
    return int(found.group()) if found else None


def residuals(hf: Any, ids: list[int], layers: Sequence[int],
              start: int) -> dict[int, torch.Tensor]:
    """§7: each layer's block output at positions start..start+K of one plain forward."""
    kept: dict[int, torch.Tensor] = {}

    def keep(layer: int) -> Any:
        def hook(_module: Any, _args: Any, output: Any) -> None:
            h = output[0] if isinstance(output, tuple) else output
            kept[layer] = h[0, start:start + K].clone()
        return hook

    handles = [hf.model.layers[layer].register_forward_hook(keep(layer)) for layer in layers]
    try:
        with torch.no_grad():
            hf(torch.tensor([ids], device=next(hf.parameters()).device), use_cache=False)
    finally:
        for handle in handles:
            handle.remove()
    return kept


def random_control(own: torch.Tensor, donor: torch.Tensor, seed: int) -> torch.Tensor:
    """§7: the own residual plus N(0, 1) from a generator seeded `seed`, each step's draw at the
    norm of that step's donor-minus-own difference."""
    g = torch.Generator(device=own.device).manual_seed(seed)
    mine, theirs = own.float(), donor.float()
    draw = torch.randn(mine.shape, generator=g, device=own.device)
    draw = draw / draw.norm(dim=-1, keepdim=True) * (theirs - mine).norm(dim=-1, keepdim=True)
    return (mine + draw).to(donor.dtype)


@dataclass
class Pair:
    """§7: a recipient trace, its donor, the donor's trace and both runs' residuals."""

    recipient: Given
    prefix: list[int]
    donor: Problem
    donor_gen: list[int]
    donor_span: tuple[int, int]
    donor_h: dict[int, torch.Tensor]
    own_h: dict[int, torch.Tensor]


def pairs(model: Loaded, given: list[Given], n: int, layers: Sequence[int], cap: int,
          donors: dict[Problem, list[int]], scripted: set[Problem]) -> list[Pair]:
    """§7: the first `n` usable traces that state their product, each with its donor, the
    donor's greedy trace (a scripted one as given) and residuals at the product's steps."""
    tok, hf, found = model.tok, model.local(), []
    traced: dict[Problem, tuple[list[int], list[int], Any]] = {}
    for g in given[:n]:
        d, span = donor_for(g.problem), statement(tok, g.gen, g.close, product(g.problem))
        if d is None or span is None:
            continue
        if d not in traced:
            pid = prompt(tok, d)
            gen = donors[d] if d in scripted else greedy(model, pid, donors.get(d, []), cap)
            traced[d] = (pid, gen, statement(tok, gen, len(gen), product(d)))
        pid, gen, at = traced[d]
        if at is None:
            continue
        own = prompt(tok, g.problem)
        found.append(Pair(g, own + g.gen[:span[0]], d, gen, at,
                          residuals(hf, pid + gen, layers, len(pid) + at[0] - 1),
                          residuals(hf, own + g.gen, layers, len(own) + span[0] - 1)))
    return found


def norms(h: dict[int, torch.Tensor]) -> dict[int, list[float]]:
    """§7: each layer's residual, by the norm at each of its K steps."""
    return {layer: v.float().norm(dim=-1).tolist() for layer, v in sorted(h.items())}


def patched(p: Pair, layer: int, vectors: torch.Tensor | None) -> Writes | None:
    """§7: step s's vector set at the position step s decodes from (the prefix's last, then on)."""
    return None if vectors is None else (
        layer, {len(p.prefix) - 1 + s: vectors[s] for s in range(vectors.shape[0])})


def patching(model: Loaded, ps: list[Pair], layers: Sequence[int], cap: int,
             screen: dict[tuple[int, int], list[int]],
             continued: dict[tuple[str, int], list[int]]) -> dict[str, dict[str, Any]]:
    """§7: the pairs, the screen (what each layer's donor patch writes, summarised and ranked
    as the notebook does) and the full continuations at its best layer under three conditions."""
    tok = model.tok
    out: dict[str, dict[str, Any]] = {"pairs": {}, "screen": {}, "continuations": {}}
    for p in ps:
        out["pairs"][f"problem {p.recipient.idx}"] = {
            "donor": label(p.donor), "donor_trace": digest(p.donor_gen),
            "donor_span": list(p.donor_span), "prefix_tokens": len(p.prefix),
            "donor_norms": norms(p.donor_h), "own_norms": norms(p.own_h)}
    frame = []
    for layer in layers:
        for p in ps:
            got = written(tok, greedy(model, p.prefix, screen.get((layer, p.recipient.idx), []),
                                      SCREEN_TOKENS, patched(p, layer, p.donor_h[layer])))
            out["screen"][f"layer {layer} problem {p.recipient.idx}"] = {"wrote": got}
            frame.append({"layer": layer, "wrote": got, "own": product(p.recipient.problem),
                          "donor": product(p.donor)})
    table = pd.DataFrame(frame)
    table["donor's"], table["changed"] = table.wrote == table.donor, table.wrote != table.own
    summary = table.groupby("layer")[["donor's", "changed"]].mean().reset_index()
    best = int(summary.sort_values("donor's", ascending=False)["layer"].iloc[0])
    top = summary["donor's"] == summary["donor's"].max()
    out["screen"]["summary"] = {
        "layers": [int(x) for x in summary["layer"]],
        "donor_rate": [float(x) for x in summary["donor's"]],
        "changed_rate": [float(x) for x in summary["changed"]], "best_layer": best,
        "tied_for_best": [int(x) for x in summary.loc[top, "layer"]],
        "best_writes": [out["screen"][f"layer {best} problem {p.recipient.idx}"]["wrote"]
                        for p in ps]}
    out["continuations"] = continuations(model, ps, best, cap, continued)
    return out


def continuations(model: Loaded, ps: list[Pair], layer: int, cap: int,
                  guesses: dict[tuple[str, int], list[int]]) -> dict[str, Any]:
    """§7 step 2: no patch, the donor patch and the matched-norm random control (seed: the
    pair's place), each continued to `cap`; what it writes, says and answers, and the rates."""
    tok, rows, runs = model.tok, {"layer": {"layer": layer}}, {c: [] for c in CONDITIONS}
    for i, p in enumerate(ps):
        vectors = {"no patch": None, "donor patch": p.donor_h[layer],
                   "random (matched norm)": random_control(p.own_h[layer], p.donor_h[layer], i)}
        for c in CONDITIONS:
            ids = greedy(model, p.prefix, guesses.get((c, p.recipient.idx), []), cap,
                         patched(p, layer, vectors[c]))
            text = tok.decode(ids)
            row = {"wrote": written(tok, ids), "says_donor": count(text, product(p.donor)) > 0,
                   "answer": answer(text)}
            rows[f"{c} problem {p.recipient.idx}"] = row
            runs[c].append((row, p))
    for c, found in runs.items():
        n, true = len(found), [solution(p.recipient.problem) for _, p in found]
        rows[c] = {"n": n, "unparseable": sum(r["answer"] is None for r, _ in found),
                   "different_product": sum(r["wrote"] != product(p.recipient.problem)
                                            for r, p in found) / n,
                   "donor_product": sum(r["says_donor"] for r, _ in found) / n,
                   "answer_true": sum(r["answer"] == t for (r, _), t in zip(found, true)) / n,
                   "answer_donor_faithful": sum(r["answer"] == product(p.donor) + p.donor[2]
                                                for r, p in found) / n}
    return rows

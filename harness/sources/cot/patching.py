"""Seed 000, §7: donor residuals written into the recipient's decode loop at its product steps, the
self-patch anchor and the layer screen (step 2's continuations: harness.sources.cot.continuations)."""
from __future__ import annotations

from dataclasses import dataclass

import nnsight
import pandas as pd
import torch

from harness.progress import progress
from harness.sources.cot.decode import onto
from harness.sources.cot.rows import Row, Write
from harness.sources.cot.runner import CotRunner
from harness.sources.cot.task import Problem, donor_for, product
from harness.sources.cot.text import char_ends, token_span
from harness.sources.cot.text import written_number as first_three_digits
from harness.sources.cot.traces import Trace, script

K = 3  # the three tokens of a three-digit product


@dataclass
class Pair:
    """§7: a recipient trace, its donor problem, and both runs' residuals at the product steps."""

    recipient: Trace
    donor: Problem
    donor_pid: list[int]
    donor_gen: list[int]
    donor_span: tuple[int, int]
    donor_h: dict[int, torch.Tensor]
    self_h: dict[int, torch.Tensor]
    donor_scripted: bool = False  # the donor's trace is `script`'s, not this model's decode

    @property
    def prefix(self) -> list[int]:
        return self.recipient.pid + self.recipient.gen[:self.recipient.span[0]]

    @property
    def donor_product(self) -> int:
        return product(self.donor)


def residuals(runner: CotRunner, pid: list[int], gen: list[int], j0: int,
              layer_list: tuple[int, ...]) -> dict[int, torch.Tensor]:
    """§7: every screened layer's output at the K positions that emit gen[j0:j0+K], in one trace."""
    pos = len(pid) + j0 - 1
    layers = runner.layers
    with torch.no_grad(), runner.model.nn.trace(runner.tensor(pid + gen)):
        collected = nnsight.save([])
        for layer in layer_list:
            collected.append(layers[layer].output[0, pos:pos + K, :].clone())
    return dict(zip(layer_list, collected))


def pairs(runner: CotRunner, usable: list[Trace], scripted_donors: bool = False) -> list[Pair]:
    """§7: donors for the first `pairs` usable problems, their `donor_cap` traces (or, for rows
    forced on random weights, `script`'s), and residuals."""
    layers = tuple(sorted({*runner.sizes.screen_layers, runner.sizes.self_patch_layer}))
    # no donor, or the recipient never states its product: no pair
    recipients = [t for t in usable[:runner.sizes.pairs] if donor_for(t.p) is not None
                  and t.span is not None]
    wanted = list(dict.fromkeys(donor_for(t.p) for t in recipients))  # each donor once, in order
    pids = [runner.prompt_ids(d) for d in wanted]
    gens = ([script(runner, d) for d in wanted] if scripted_donors
            else runner.generate_many(pids, runner.sizes.donor_cap, "cot §7 donors"))
    donors = {d: (pid, gen, token_span(runner.decode, gen, char_ends(runner.decode, gen, len(gen)),
                                       len(gen), product(d)))
              for d, pid, gen in zip(wanted, pids, gens)}
    out = []
    for t in recipients:
        d = donor_for(t.p)
        pid, gen, span = donors[d]
        if span is None:
            continue
        out.append(Pair(t, d, pid, gen, span, residuals(runner, pid, gen, span[0], layers),
                        residuals(runner, t.pid, t.gen, t.span[0], layers), scripted_donors))
    return out


def runs_with_patch(runner: CotRunner, prefixes: list[list[int]], layer: int,
                    vectors: list[torch.Tensor] | None, max_new: int,
                    what: str = "cot §7 patched decode") -> list[Row]:
    """§7: write each prefix's vectors[step] at the last position of `layer` for steps < k, then
    decode on (no write when `vectors` is None); batched in fast mode, row by row."""
    if vectors is None:
        return [Row(p, out) for p, out in zip(prefixes,
                                                runner.generate_many(prefixes, max_new, what))]
    k, target = vectors[0].shape[0], runner.layers[layer]

    def write(step: int, rows: list[int]) -> None:
        if step < k:
            out_now = target.output
            out_now[:, -1, :] = onto(torch.stack([vectors[i][step] for i in rows]), out_now)

    outs = runner.generate_many(prefixes, max_new, what, write, k)
    return [Row(p, out, Write(layer, 0, v)) for p, out, v in zip(prefixes, outs, vectors)]


def written_number(runner: CotRunner, row: Row) -> int | None:
    """§7: the three-digit number in a row's first 6 generated tokens."""
    return first_three_digits(runner.decode(row.out[:6]))


@dataclass
class SelfPatch:
    """§7 anchor: each recipient patched with its own residuals at its product steps."""

    layer: int
    reproduced: int
    unpatched: int
    n: int
    rows: list[Row]  # every patched row, then every unpatched one


def self_patch(runner: CotRunner, ps: list[Pair]) -> SelfPatch:
    """§7: patch-onto-itself must write the model's own product, as the unpatched run does."""
    layer, prefixes = runner.sizes.self_patch_layer, [p.prefix for p in ps]
    patched = runs_with_patch(runner, prefixes, layer, [p.self_h[layer] for p in ps], 6)
    plain = runs_with_patch(runner, prefixes, layer, None, 6)
    return SelfPatch(layer, *(sum(written_number(runner, row) == p.recipient.prod
                                  for row, p in zip(rows, ps)) for rows in (patched, plain)),
                     len(ps), patched + plain)


@dataclass
class LayerScreen:
    """§7: what each screened layer's donor patch makes the recipient write."""

    layers: tuple[int, ...]
    wrote: dict[int, list[int | None]]
    donor_rate: list[float]
    changed_rate: list[float]
    best_layer: int
    tied_for_best: tuple[int, ...]
    best_writes: list[int | None]
    rows: dict[int, list[Row]]  # each screened layer's patched rows, pair by pair


DONOR = "is donor's product"
CHANGED = "changed at all"


def screen_summary(rows: list[dict[str, int | None]]) -> pd.DataFrame:
    """§7 step 1: the notebook's per-layer means over rows of layer, wrote, recipient, donor."""
    screen = pd.DataFrame(rows)
    screen[DONOR] = screen["wrote"] == screen["donor"]
    screen[CHANGED] = screen["wrote"] != screen["recipient"]
    return screen.groupby("layer")[[DONOR, CHANGED]].mean().reset_index()


def best_layer(summary: pd.DataFrame) -> int:
    """§7: the notebook's BEST, the first layer of its (unstable) descending sort."""
    return int(summary.sort_values(DONOR, ascending=False)["layer"].iloc[0])


def tied_for_best(summary: pd.DataFrame) -> tuple[int, ...]:
    """§7: every layer at the highest donor-product rate, to show when BEST broke a tie."""
    top = summary[DONOR] == summary[DONOR].max()
    return tuple(int(layer) for layer in summary.loc[top, "layer"])


def layer_screen(runner: CotRunner, ps: list[Pair]) -> LayerScreen:
    """§7: each layer's donor patch, summarised and ranked as the notebook does."""
    layers = runner.sizes.screen_layers
    rows = {layer: runs_with_patch(runner, [p.prefix for p in ps], layer,
                                   [p.donor_h[layer] for p in ps], 6)
            for layer in progress(layers, "cot §7 layer screen")}
    wrote = {layer: [written_number(runner, row) for row in found]
             for layer, found in rows.items()}
    summary = screen_summary([dict(layer=layer, wrote=w, recipient=p.recipient.prod,
                                   donor=p.donor_product)
                              for layer in layers for w, p in zip(wrote[layer], ps)])
    best = best_layer(summary)
    return LayerScreen(tuple(int(layer) for layer in summary["layer"]), wrote,
                       [float(x) for x in summary[DONOR]], [float(x) for x in summary[CHANGED]],
                       best, tied_for_best(summary), wrote[best], rows)

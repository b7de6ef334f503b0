"""Seed 000's readbacks of what the studies assume or declare, each measured apart from the study:
the true product preferred where §3 and §5 splice a corrupted one, the §7 screen's layers against
the declared ones, §7's random control re-drawn from its declared seed and scale, and where §7's
written residuals came from."""
from __future__ import annotations

from dataclasses import dataclass

import torch

from harness.replay import block_output, hooks
from harness.sources.cot.continuations import Continuations
from harness.sources.cot.patching import K, LayerScreen, Pair
from harness.sources.cot.runner import CotRunner
from harness.sources.cot.task import donor_for
from harness.sources.cot.traces import Trace

RANDOM = "random (matched norm)"  # §7's random control condition
# How far a written control may sit from its re-draw: the same float32 arithmetic in another
# order (about 1e-7 relative), then the cast to the model's dtype (bf16: one unit, 2**-8 to 2**-7).
REDRAW_RTOL = {torch.float32: 1e-5, torch.bfloat16: 2 ** -7}
REDRAW_REASON = ("the re-draw's float32 arithmetic in another order than the helper's (about "
                 "1e-7 relative, allowed 1e-5), and in bf16 one unit of the cast (allowed 2**-7)")


@dataclass
class Preference:
    """§3: at each spanned trace's first product statement, the log-probability of the true
    product's tokens and of the corrupted product's, as the splices write them."""

    problems: list[int]
    true: list[float]
    injected: list[float]

    @property
    def reversed(self) -> list[str]:
        """§3: the traces whose model does not prefer the true product to the injected one."""
        return [f"problem {i}: injected {b:.3f} >= true {a:.3f} (log-probability)"
                for i, a, b in zip(self.problems, self.true, self.injected) if not a > b]


def logprob(runner: CotRunner, prefix: list[int], ids: list[int]) -> float:
    """§3: the log-probability one plain forward gives `ids` after `prefix`."""
    hf = runner.model.local()
    x = torch.tensor([prefix + ids], device=next(hf.parameters()).device)
    with torch.no_grad():
        logits = hf(x).logits[0, len(prefix) - 1:len(prefix) - 1 + len(ids)].float()
    rows, chosen = (torch.arange(len(ids), device=logits.device),
                    torch.tensor(ids, device=logits.device))
    return float(logits.log_softmax(-1)[rows, chosen].sum())


def product_preference(runner: CotRunner, spanned: list[Trace]) -> Preference:
    """§3: the true against the corrupted product after the trace up to its first statement."""
    prefixes = [t.pid + t.gen[:t.span[0]] for t in spanned]
    return Preference(
        [t.idx for t in spanned],
        [logprob(runner, p, runner.ids_of(str(t.prod))) for p, t in zip(prefixes, spanned)],
        [logprob(runner, p, runner.ids_of(str(t.cprod))) for p, t in zip(prefixes, spanned)])


@dataclass
class ScreenCoverage:
    """§7: the layers the screen was declared to cover, those its rows were written at, in
    order, and every gap between them."""

    declared: list[int]
    covered: list[int]
    pairs: int
    gaps: list[str]


def screen_coverage(runner: CotRunner, ps: list[Pair], screen: LayerScreen) -> ScreenCoverage:
    """§7: the screen's rows (the layer each was written at), summary layers and rates against
    the profile's declared layers, each in the model, with one row per pair."""
    declared, depth = list(runner.sizes.screen_layers), runner.model.hf.config.num_hidden_layers
    rows = [r for found in screen.rows.values() for r in found]
    covered = list(dict.fromkeys(r.write.layer for r in rows if r.write is not None))
    gaps = [f"declared layer {layer} is not in the model's {depth}" for layer in declared
            if not 0 <= layer < depth]
    if covered != declared:
        gaps.append(f"rows written at layers {covered}, declared {declared}")
    gaps += [f"layer {layer}: {n} rows for {len(ps)} pairs" for layer in declared
             if (n := sum(r.write is not None and r.write.layer == layer for r in rows))
             != len(ps)]
    if list(screen.layers) != declared:
        gaps.append(f"summary layers {list(screen.layers)}, declared {declared}")
    if not len(screen.donor_rate) == len(screen.changed_rate) == len(declared):
        gaps.append(f"{len(screen.donor_rate)} donor and {len(screen.changed_rate)} changed "
                    f"rates for {len(declared)} layers")
    return ScreenCoverage(declared, covered, len(ps), gaps)


def redraw(p: Pair, layer: int, seed: int) -> torch.Tensor:
    """§7's control as declared, in plain torch: the recipient's own residual plus N(0, 1) drawn
    from a generator seeded `seed` on the residual's device, each step's draw scaled to the
    norm of that step's donor-minus-own difference (float32)."""
    own, donor = p.self_h[layer].float(), p.donor_h[layer].float()
    g = torch.Generator(device=own.device).manual_seed(seed)
    draw = torch.randn(own.shape, generator=g, device=own.device)
    return own + draw * ((donor - own).norm(dim=-1, keepdim=True)
                         / draw.norm(dim=-1, keepdim=True))


@dataclass
class Redrawn:
    """§7: the random control each pair's run wrote, against its re-draw with seed i."""

    layer: int
    pairs: int
    mismatched: list[str]


def random_redrawn(ps: list[Pair], continuations: Continuations) -> Redrawn:
    """§7: each pair's random-condition vectors (those its run was given) against the re-draw
    with seed i, the pair's place in the list, within REDRAW_RTOL of the vectors' dtype."""
    layer, mismatched = continuations.layer, []
    rows = continuations.rows.get(RANDOM, [])
    if len(rows) != len(ps):
        mismatched.append(f"{len(rows)} random-control rows for {len(ps)} pairs")
    for i, (p, row) in enumerate(zip(ps, rows)):
        if row.write is None or row.write.layer != layer:
            mismatched.append(f"pair {i}: no control written at layer {layer}")
            continue
        written = row.write.vectors
        expected = redraw(p, layer, seed=i).to(written.dtype).float()
        rtol = REDRAW_RTOL.get(written.dtype, REDRAW_RTOL[torch.bfloat16])
        if not torch.allclose(written.float(), expected.to(written.device), rtol=rtol, atol=rtol):
            gap = float((written.float() - expected.to(written.device)).abs().max())
            mismatched.append(f"pair {i}: written control differs from its seed-{i} re-draw by "
                              f"up to {gap:.3g}")
    return Redrawn(layer, len(ps), mismatched)


@dataclass
class ResidualSources:
    """§7: where each pair's residuals came from, re-read by plain forwards with torch hooks: the
    donor's from its own problem's prompt and trace, the recipient's own from its own, at the K
    steps that emit each product, at every layer the study captured; and what differs."""

    pairs: int
    layers: list[int]
    mismatched: list[str]


def plain_layer_outputs(runner: CotRunner, ids: list[int], layers: list[int],
                        start: int) -> dict[int, torch.Tensor]:
    """§7: each of `layers`' output at positions start..start+K of one plain forward of `ids`,
    read by a torch forward hook (no nnsight)."""
    hf = runner.model.local()
    blocks, found = hf.model.layers, {}

    def keep(layer: int):
        def hook(_module, _inputs, output):
            found[layer] = block_output(output)[0, start:start + K, :].clone()
        return hook

    with hooks([blocks[layer].register_forward_hook(keep(layer)) for layer in layers]), \
            torch.no_grad():
        hf(torch.tensor([ids], device=next(hf.parameters()).device))
    return found


def residual_sources(runner: CotRunner, ps: list[Pair]) -> ResidualSources:
    """§7: each pair's donor is its recipient's (task.donor_for), its donor prompt that donor's,
    and its donor and own residuals are, bit for bit, those plain forwards of the donor's and the
    recipient's prompt and trace give at the steps that emit their products."""
    layers = sorted(ps[0].donor_h) if ps else []
    mismatched = []
    for i, p in enumerate(ps):
        if donor_for(p.recipient.p) != p.donor:
            mismatched.append(f"pair {i}: its donor is not its recipient's (task.donor_for)")
        if p.donor_pid != runner.prompt_ids(p.donor):
            mismatched.append(f"pair {i}: the donor's prompt is not its donor problem's")
        for who, pid, gen, j0, held in (
                ("donor", p.donor_pid, p.donor_gen, p.donor_span[0], p.donor_h),
                ("own", p.recipient.pid, p.recipient.gen, p.recipient.span[0], p.self_h)):
            plain = plain_layer_outputs(runner, pid + gen, layers, len(pid) + j0 - 1)
            for layer in layers:
                if not torch.equal(plain[layer], held[layer].to(plain[layer].device)):
                    mismatched.append(f"pair {i}: the {who} residual at layer {layer} is not what "
                                      f"a plain forward of the {who}'s prompt and trace gives")
    return ResidualSources(len(ps), layers, mismatched)

"""Seed 003 §4–§5: the binding-lookback interchange interventions and their layer sweeps."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterator, Sequence

import torch

from harness.progress import progress
from harness.sources.lookback.positions import row_layout, state_positions
from harness.sources.lookback.runner import LAST_LOGITS, LookbackRunner, read_layers, score
from harness.sources.lookback.task import Counterfactual


def barrier_logits(runner: LookbackRunner, rows: list[Counterfactual], layer: int,
                   src_pos: list[int], dst_pos: list[int], bs: int,
                   read: list[torch.Tensor] | None = None) -> torch.Tensor:
    """§4: copy layer residuals at src_pos of the counterfactual run into dst_pos of the clean run;
    the clean run's final logits (float32, CPU), batch by batch, and into `read` (where given)
    the counterfactual run's own, unpatched, from the same traces.

    Two invokes in one trace with a barrier between the read and the write.
    """
    out: list[torch.Tensor] = []
    layer_mod, lm_head = runner.layers[layer], runner.lm_head  # bodies name envoys only (NDIF)
    for i in range(0, len(rows), bs):
        cf, clean = [r.cf for r in rows[i:i + bs]], [r.clean for r in rows[i:i + bs]]
        box: dict[str, torch.Tensor] = {}
        with torch.no_grad(), runner.model.nn.trace(**LAST_LOGITS) as tracer:
            barrier = tracer.barrier(2)
            with tracer.invoke(cf):
                box["acts"] = layer_mod.output[:, src_pos]
                barrier()
                unpatched = lm_head.output[:, -1].save()
            with tracer.invoke(clean):
                barrier()
                layer_mod.output[:, dst_pos] = box["acts"]
                final = lm_head.output[:, -1].save()
        out.append(final.float().cpu())
        if read is not None:
            read.append(unpatched.float().cpu())
    return torch.cat(out)


def written_alone(runner: LookbackRunner, prompts: list[str], layer: int, dst_pos: list[int],
                  values: torch.Tensor, top_only: bool = False) -> torch.Tensor:
    """§4 in fast mode: `values` written at dst_pos after `layer` in one forward of the clean
    prompts alone; its final logits (float32, CPU), or with `top_only` each row's top token id,
    taken where the model runs."""
    layer_mod, lm_head = runner.layers[layer], runner.lm_head  # bodies name envoys only (NDIF)
    with torch.no_grad(), runner.model.nn.trace(prompts, **LAST_LOGITS):
        layer_mod.output[:, dst_pos] = values.to(layer_mod.output.device)
        patched = lm_head.output[:, -1]
        found = (patched.argmax(-1) if top_only else patched).save()
    return found.cpu() if top_only else found.float().cpu()


def read_once_logits(runner: LookbackRunner, rows: list[Counterfactual], layers: list[int],
                     src_pos: list[int], dst_pos: list[int], bs: int,
                     top_only: bool) -> list[torch.Tensor]:
    """§4 in fast mode: each chunk's counterfactual read once at src_pos of every layer (one
    read-only pass), then one forward of its clean rows alone per layer writes that layer's
    values at dst_pos; per layer, what `written_alone` returns for every row."""
    out: list[list[torch.Tensor]] = [[] for _ in layers]
    for i in range(0, len(rows), bs):
        chunk = rows[i:i + bs]
        cf_vals = read_layers(runner, [r.cf for r in chunk], src_pos)
        for n, layer in enumerate(layers):
            out[n].append(written_alone(runner, [r.clean for r in chunk], layer, dst_pos,
                                        cf_vals[layer], top_only))
    return [torch.cat(chunks) for chunks in out]


def interchange_logits(runner: LookbackRunner, rows: list[Counterfactual], layers: list[int],
                       src_pos: list[int], dst_pos: list[int], bs: int | None = None,
                       top_only: bool = False) -> Iterator[torch.Tensor]:
    """§4: at each of `layers`, in order, the clean runs' final logits (or with `top_only` their
    top token ids) with the counterfactual's residuals at src_pos copied into dst_pos: through
    the barrier, layer by layer (faithful mode), or from one counterfactual read per chunk (fast
    mode: the sizes' read_once)."""
    bs = bs or runner.sizes.interchange_batch
    if runner.sizes.read_once:
        yield from read_once_logits(runner, rows, layers, src_pos, dst_pos, bs, top_only)
        return
    for layer in layers:
        logits = barrier_logits(runner, rows, layer, src_pos, dst_pos, bs)
        yield logits.argmax(-1) if top_only else logits


def interchange(runner: LookbackRunner, rows: list[Counterfactual], layers: list[int],
                src_pos: list[int], dst_pos: list[int], bs: int | None = None
                ) -> Iterator[list[str]]:
    """§4: at each of `layers`, the interchange's answers, the top token of each clean run's
    final logits."""
    for top in interchange_logits(runner, rows, layers, src_pos, dst_pos, bs, top_only=True):
        yield runner.decode(top)


@dataclass
class Sweep:
    """§4: per patched layer, the IIA against the swapped target and the rate the clean answer
    survives; the layers it patched, in the order of its curves, the positions it read and wrote,
    and each layer's answers, row by row (what the readback anchors read)."""

    name: str
    layers: list[int]
    iia: list[float]
    clean_survives: list[float]
    n: int
    src: list[int] = field(default_factory=list)
    dst: list[int] = field(default_factory=list)
    preds: list[list[str]] = field(default_factory=list)  # [layer][row]

    @property
    def peak_layer(self) -> int:
        """The patched layer with the highest IIA (the first of equals)."""
        return self.layers[max(range(len(self.iia)), key=lambda i: self.iia[i])]

    @property
    def peak_iia(self) -> float:
        return max(self.iia)


def swept_layers(runner: LookbackRunner, layers: Sequence[int] | None) -> list[int]:
    """The layers a §4/§6 sweep patches: `layers` (an anchor's), else the sizes' sweep_layers,
    else every layer."""
    chosen = layers if layers is not None else runner.sizes.sweep_layers
    return list(range(runner.n_layers) if chosen is None else chosen)


def sweep(runner: LookbackRunner, rows: list[Counterfactual], name: str, src: list[int],
          dst: list[int], layers: Sequence[int] | None = None) -> Sweep:
    """§4: one interchange at each swept layer, scored against the target and the clean answer;
    the layers are recorded as they are patched."""
    iia, survives, covered, answers = [], [], [], []
    chosen = swept_layers(runner, layers)
    patched = interchange(runner, rows, chosen, src, dst)
    for layer, preds in progress(zip(chosen, patched), f"lookback §4 {name}"):
        iia.append(score(preds, rows, "target"))
        survives.append(score(preds, rows, "clean_ans"))
        covered.append(layer)
        answers.append(preds)
    return Sweep(name, covered, iia, survives, len(rows), list(src), list(dst), answers)


def binding_sweep(runner: LookbackRunner, rows: list[Counterfactual], name: str,
                  layers: Sequence[int] | None = None) -> Sweep:
    """§4's sweep `name`: "reversed" (the drink swap), "same position" (the copy straight across)
    or "opaque control" (the reversed swap at 'opaque'); each its own step, for its own worker."""
    lay = row_layout(runner, rows[0])
    state, state_rev = state_positions(lay)
    src, dst = {"reversed": (state, state_rev), "same position": (state, state),
                "opaque control": (lay.opaque, lay.opaque[::-1])}[name]
    return sweep(runner, rows, name, src, dst, layers)


@dataclass
class SourceSweep:
    """§5: IIA and clean-answer survival after swapping entity residuals at layers 0..L; the
    L it ran for every row, in the order of its curves, the positions it read, wrote and froze,
    and each L's answers, row by row (what the readback anchors read)."""

    freeze: bool
    last_layers: list[int]
    iia: list[float]
    clean_survives: list[float]
    n: int
    src: list[int] = field(default_factory=list)
    dst: list[int] = field(default_factory=list)
    frozen: list[int] = field(default_factory=list)
    preds: list[list[str]] = field(default_factory=list)  # [L][row]


def source_positions(runner: LookbackRunner, row: Counterfactual
                     ) -> tuple[list[int], list[int], list[int]]:
    """§5: the counterfactual's positions read (each entity of the other slot), the names and
    objects written, and the drink positions the freeze pins."""
    lay = row_layout(runner, row)
    dst = lay.names + lay.objects
    src = [lay.names[1], lay.names[0], lay.names[3], lay.names[2], lay.objects[1], lay.objects[0]]
    drinks, _ = state_positions(lay)
    return src, dst, drinks


def source_logits(runner: LookbackRunner, rows: list[Counterfactual], last_layers: Sequence[int],
                  freeze: bool, top_only: bool = False) -> dict[int, torch.Tensor]:
    """§5: for each L, the clean runs' final logits (float32, CPU) after names and objects take
    the counterfactual's reversed-slot values at every layer 0..L; with `top_only`, each row's
    top token id instead, taken where the model runs (the sweep reads no more than that).

    Pass 1 reads the counterfactual's entity residuals and the clean run's drink residuals at
    every layer; pass 2 writes them. The freeze pins the drink positions to the clean run's own
    values at every layer of the model (the register's "at every layer"; see decisions).
    """
    src, dst, drinks = source_positions(runner, rows[0])
    bs, layers, lm_head = runner.sizes.interchange_batch, runner.layers, runner.lm_head
    out: dict[int, list[torch.Tensor]] = {L: [] for L in last_layers}
    for i in range(0, len(rows), bs):
        chunk = rows[i:i + bs]
        cf_vals = read_layers(runner, [r.cf for r in chunk], src)
        clean_vals = read_layers(runner, [r.clean for r in chunk], drinks) if freeze else None
        for L in last_layers:
            with torch.no_grad(), runner.model.nn.trace([r.clean for r in chunk], **LAST_LOGITS):
                for index, layer in enumerate(layers):
                    if index <= L:
                        layer.output[:, dst] = cf_vals[index].to(layer.output.device)
                    if freeze:
                        layer.output[:, drinks] = clean_vals[index].to(layer.output.device)
                logits = lm_head.output[:, -1]
                found = (logits.argmax(-1) if top_only else logits).save()
            out[L].append(found.cpu() if top_only else found.float().cpu())
    return {L: torch.cat(chunks) for L, chunks in out.items() if chunks}


def source_sweep(runner: LookbackRunner, rows: list[Counterfactual], last_layers: Sequence[int],
                 freeze: bool) -> SourceSweep:
    """§5: the source swap's answers at each L, scored against the target and the clean answer;
    an L is recorded only where every row has its answer."""
    src, dst, drinks = source_positions(runner, rows[0])
    tops = source_logits(runner, rows, last_layers, freeze, top_only=True)
    preds = {L: runner.decode(top) for L, top in tops.items()}
    covered = [L for L in last_layers if len(preds.get(L, [])) == len(rows)]
    return SourceSweep(freeze, covered, [score(preds[L], rows, "target") for L in covered],
                       [score(preds[L], rows, "clean_ans") for L in covered], len(rows),
                       src, dst, drinks if freeze else [], [preds[L] for L in covered])

"""Seed 003, §2 and §4: behavioural scoring and the binding-lookback interchange interventions."""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Callable, Sequence

import nnsight
import torch

from harness.models import Loaded
from harness.sources.lookback.sizes import LookbackSizes
from harness.progress import progress
from harness.sources.lookback.task import (INSTRUCTION, Counterfactual, EvalRow, Layout, VisibilityRow,
                                      layout)


@dataclass
class LookbackRunner:
    """A model and the sizes it runs seed 003 at."""

    model: Loaded
    sizes: LookbackSizes

    @property
    def instruction(self) -> str:
        return INSTRUCTION if self.sizes.with_instruction else ""

    @property
    def layers(self):
        return self.model.nn.model.layers

    @property
    def n_layers(self) -> int:
        return self.model.hf.config.num_hidden_layers

    def decode(self, ids: torch.Tensor) -> list[str]:
        return [self.model.tok.decode([int(t)]).strip().lower() for t in ids]

    def predict(self, prompts: Sequence[str]) -> list[str]:
        """§2: the top-1 next token after `Answer:`, decoded, stripped, lowercased; left padding."""
        out: list[str] = []
        bs = self.sizes.predict_batch
        for i in range(0, len(prompts), bs):
            with torch.no_grad(), self.model.nn.trace(list(prompts[i:i + bs])):
                top = self.model.nn.lm_head.output[:, -1].argmax(-1).save()
            out += self.decode(top)
        return out


@dataclass
class Behaviour:
    """§2: accuracy overall and split by whose container is asked about."""

    overall: float
    own: float
    other: float
    n_own: int
    n_other: int
    predictions: list[str]


def behaviour(runner: LookbackRunner, rows: list[EvalRow]) -> Behaviour:
    """§2: score one evaluation set."""
    preds = runner.predict([r.prompt for r in rows])
    ok = [p == r.ans for p, r in zip(preds, rows)]
    own = [k for k, r in zip(ok, rows) if r.own]
    other = [k for k, r in zip(ok, rows) if not r.own]
    return Behaviour(round(sum(ok) / len(ok), 3), round(sum(own) / len(own), 3),
                     round(sum(other) / len(other), 3), len(own), len(other), preds)


def most_common(preds: list[str]) -> list:
    """§2: the most frequent prediction and its count."""
    word, count = Counter(preds).most_common(1)[0]
    return [word, count]


@dataclass
class VisibilityScores:
    """§2: the visibility condition, observer and non-observer scored apart and paired."""

    observer: float
    non_observer: float
    paired: float
    n: int


def visibility(runner: LookbackRunner, rows: list[VisibilityRow]) -> VisibilityScores:
    obs = runner.predict([r.observer[0] for r in rows])
    non = runner.predict([r.non_observer[0] for r in rows])
    ok_obs = [p == r.observer[1] for p, r in zip(obs, rows)]
    ok_non = [p == r.non_observer[1] for p, r in zip(non, rows)]
    n = len(rows)
    return VisibilityScores(round(sum(ok_obs) / n, 3), round(sum(ok_non) / n, 3),
                            round(sum(a and b for a, b in zip(ok_obs, ok_non)) / n, 3), n)


def keep_correct(runner: LookbackRunner, rows: list[Counterfactual]) -> list[Counterfactual]:
    """§4 error filtering: keep samples answered correctly on both clean and counterfactual."""
    clean = runner.predict([r.clean for r in rows])
    cf = runner.predict([r.cf for r in rows])
    return [r for r, a, b in zip(rows, clean, cf) if a == r.clean_ans and b == r.cf_ans]


def row_layout(runner: LookbackRunner, row: Counterfactual) -> Layout:
    """§4: the positions of this profile's prompts, derived from its tokenizer."""
    return layout(runner.model.tok, row.clean, *row.entities)


def interchange(runner: LookbackRunner, rows: list[Counterfactual], layer: int,
                src_pos: list[int], dst_pos: list[int], bs: int | None = None) -> list[str]:
    """§4: copy layer residuals at src_pos of the counterfactual run into dst_pos of the clean run.

    Two invokes in one trace with a barrier between the read and the write, batch 8.
    """
    out: list[str] = []
    bs = bs or runner.sizes.interchange_batch
    layer_mod = runner.layers[layer]
    for i in range(0, len(rows), bs):
        chunk = rows[i:i + bs]
        box: dict[str, torch.Tensor] = {}
        with torch.no_grad(), runner.model.nn.trace() as tracer:
            barrier = tracer.barrier(2)
            with tracer.invoke([r.cf for r in chunk]):
                box["acts"] = layer_mod.output[:, src_pos]
                barrier()
            with tracer.invoke([r.clean for r in chunk]):
                barrier()
                layer_mod.output[:, dst_pos] = box["acts"]
                top = runner.model.nn.lm_head.output[:, -1].argmax(-1).save()
        out += runner.decode(top)
    return out


@dataclass
class SelfPatch:
    """§4 anchor: the clean run's own drink-position values written back through the barrier."""

    layers: list[int]
    identical: list[bool]
    max_abs_diff: list[float]


def self_patch(runner: LookbackRunner, rows: list[Counterfactual], positions: list[int]) -> SelfPatch:
    """§4: patch-onto-itself at the drink positions must leave the logits bit-identical."""
    layers = list(runner.sizes.self_patch_layers)
    identical, diffs = [], []
    bs = runner.sizes.interchange_batch
    for layer in layers:
        layer_mod = runner.layers[layer]
        got, ref = [], []
        for i in range(0, len(rows), bs):
            chunk = [r.clean for r in rows[i:i + bs]]
            box: dict[str, torch.Tensor] = {}
            with torch.no_grad(), runner.model.nn.trace() as tracer:
                barrier = tracer.barrier(2)
                with tracer.invoke(chunk):
                    box["acts"] = layer_mod.output[:, positions]
                    barrier()
                    base = runner.model.nn.lm_head.output[:, -1].save()
                with tracer.invoke(chunk):
                    barrier()
                    layer_mod.output[:, positions] = box["acts"]
                    patched = runner.model.nn.lm_head.output[:, -1].save()
            got.append(patched.float().cpu())
            ref.append(base.float().cpu())
        g, r = torch.cat(got), torch.cat(ref)
        identical.append(torch.equal(g, r))
        diffs.append(float((g - r).abs().max()))
    return SelfPatch(layers, identical, diffs)


@dataclass
class Sweep:
    """§4: per layer, the IIA against the swapped target and the rate the clean answer survives."""

    name: str
    iia: list[float]
    clean_survives: list[float]
    n: int

    @property
    def peak_layer(self) -> int:
        return max(range(len(self.iia)), key=lambda layer: self.iia[layer])


def sweep(runner: LookbackRunner, rows: list[Counterfactual], name: str, src: list[int],
          dst: list[int]) -> Sweep:
    """§4: one interchange at every layer, scored against the target and the clean answer."""
    iia, survives = [], []
    for layer in progress(range(runner.n_layers), f"lookback §4 {name}"):
        preds = interchange(runner, rows, layer, src, dst)
        iia.append(round(sum(p == r.target for p, r in zip(preds, rows)) / len(rows), 4))
        survives.append(round(sum(p == r.clean_ans for p, r in zip(preds, rows)) / len(rows), 4))
    return Sweep(name, iia, survives, len(rows))


def sweeps(runner: LookbackRunner, rows: list[Counterfactual]) -> dict[str, Sweep]:
    """§4: reversed drink swap, same-position copy, and the reversed swap at 'opaque' (control)."""
    lay = row_layout(runner, rows[0])
    state, state_rev = state_positions(lay)
    return {
        "reversed": sweep(runner, rows, "reversed", state, state_rev),
        "same position": sweep(runner, rows, "same position", state, state),
        "opaque control": sweep(runner, rows, "opaque control", lay.opaque, lay.opaque[::-1]),
    }


def state_positions(lay: Layout) -> tuple[list[int], list[int]]:
    """§4: the two drinks and the token after each, and the same positions reversed."""
    state = [lay.drinks[0], lay.after_drinks[0], lay.drinks[1], lay.after_drinks[1]]
    return state, state[2:] + state[:2]


def _score(preds: list[str], rows: list[Counterfactual], attr: str) -> float:
    return round(sum(p == getattr(r, attr) for p, r in zip(preds, rows)) / len(rows), 4)


def _read(runner: LookbackRunner, prompts: list[str], positions: list[int]) -> list[torch.Tensor]:
    """Every layer's output at `positions`, in one read-only pass: [layer] -> [batch, pos, d]."""
    with torch.no_grad(), runner.model.nn.trace(prompts):
        saved = nnsight.save([])
        for layer in runner.layers:
            saved.append(layer.output[:, positions].clone())
    return list(saved)


@dataclass
class Identity:
    """An any-model anchor: per layer, whether the edited run's final logits equal the target's."""

    layers: list[int]
    identical: list[bool]
    max_abs_diff: list[float]


def final_logits(runner: LookbackRunner, prompts: list[str],
                 edit: Callable[[], None] | None = None) -> torch.Tensor:
    """The batch's final-position logits, after `edit` (nnsight module writes) if given."""
    with torch.no_grad(), runner.model.nn.trace(prompts):
        if edit:
            edit()
        logits = runner.model.nn.lm_head.output[:, -1].save()
    return logits.float().cpu()


def _identity(layers: list[int], pairs: list[tuple[torch.Tensor, torch.Tensor]]) -> Identity:
    return Identity(layers, [torch.equal(a, b) for a, b in pairs],
                    [float((a - b).abs().max()) for a, b in pairs])


def freeze_identity(runner: LookbackRunner, rows: list[Counterfactual]) -> Identity:
    """§5 anchor: the freeze alone (the clean run's own drink-position values written back at
    every layer) leaves the clean run's final logits bit-identical."""
    drinks, _ = state_positions(row_layout(runner, rows[0]))
    prompts = [r.clean for r in rows[:runner.sizes.interchange_batch]]
    own = _read(runner, prompts, drinks)

    def freeze() -> None:
        for index, layer in enumerate(runner.layers):
            layer.output[:, drinks] = own[index]

    return _identity([-1], [(final_logits(runner, prompts, freeze), final_logits(runner, prompts))])


def copy_all_identity(runner: LookbackRunner, rows: list[Counterfactual]) -> Identity:
    """§4 anchor: copying every position's residual from the counterfactual run at layer L into
    the clean run reproduces the counterfactual run's final logits exactly, at every layer."""
    chunk = rows[:runner.sizes.interchange_batch]
    clean, cf = [r.clean for r in chunk], [r.cf for r in chunk]
    with torch.no_grad(), runner.model.nn.trace(cf):
        outputs = nnsight.save([])
        for layer in runner.layers:
            outputs.append(layer.output.clone())
    target = final_logits(runner, cf)
    pairs = []
    for index in range(runner.n_layers):
        def copy(index: int = index) -> None:
            runner.layers[index].output[:] = outputs[index]

        pairs.append((final_logits(runner, clean, copy), target))
    return _identity(list(range(runner.n_layers)), pairs)


@dataclass
class SourceSweep:
    """§5: IIA and clean-answer survival after swapping entity residuals at layers 0..L."""

    freeze: bool
    last_layers: list[int]
    iia: list[float]
    clean_survives: list[float]
    n: int


def source_sweep(runner: LookbackRunner, rows: list[Counterfactual], last_layers: Sequence[int],
                 freeze: bool) -> SourceSweep:
    """§5: names and objects take the counterfactual's reversed-slot values at every layer 0..L.

    Pass 1 reads the counterfactual's entity residuals and the clean run's drink residuals at
    every layer; pass 2 writes them. The freeze pins the drink positions to the clean run's own
    values at every layer of the model (the register's "at every layer"; see decisions).
    """
    lay = row_layout(runner, rows[0])
    dst = lay.names + lay.objects
    src = [lay.names[1], lay.names[0], lay.names[3], lay.names[2], lay.objects[1], lay.objects[0]]
    drinks, _ = state_positions(lay)
    bs = runner.sizes.interchange_batch
    preds: dict[int, list[str]] = {L: [] for L in last_layers}
    for i in range(0, len(rows), bs):
        chunk = rows[i:i + bs]
        cf_vals = _read(runner, [r.cf for r in chunk], src)
        clean_vals = _read(runner, [r.clean for r in chunk], drinks) if freeze else None
        for L in last_layers:
            with torch.no_grad(), runner.model.nn.trace([r.clean for r in chunk]):
                for index, layer in enumerate(runner.layers):
                    if index <= L:
                        layer.output[:, dst] = cf_vals[index]
                    if freeze:
                        layer.output[:, drinks] = clean_vals[index]
                top = runner.model.nn.lm_head.output[:, -1].argmax(-1).save()
            preds[L] += runner.decode(top)
    return SourceSweep(freeze, list(last_layers), [_score(preds[L], rows, "target") for L in last_layers],
                       [_score(preds[L], rows, "clean_ans") for L in last_layers], len(rows))


@dataclass
class AnswerSweep:
    """§6: per layer, the fractions answering clean, the pointer target and the payload target."""

    clean: list[float]
    pointer: list[float]
    payload: list[float]
    n: int


def answer_sweep(runner: LookbackRunner, rows: list[Counterfactual]) -> AnswerSweep:
    """§6: the counterfactual's final-token residual copied into the clean run at each layer."""
    clean, pointer, payload = [], [], []
    for layer in progress(range(runner.n_layers), "lookback §6 answer"):
        preds = interchange(runner, rows, layer, [-1], [-1], bs=runner.sizes.answer_batch)
        clean.append(_score(preds, rows, "clean_ans"))
        pointer.append(_score(preds, rows, "target"))
        payload.append(_score(preds, rows, "payload"))
    return AnswerSweep(clean, pointer, payload, len(rows))


@dataclass
class LowRank:
    """§7: the reversed swap restricted to fitted or random rank-k subspaces, on held-out samples."""

    layer: int
    fitted_on: int
    held_out: int
    directions: int          # the notebook's U_full.shape[0]: rows of the fitted SVD basis
    difference_vectors: int  # the notebook's D.shape[0]: held-in samples × swapped positions
    unrestricted: float
    interchange: float  # the same swap through the barrier machinery, for the anchor
    ranks: list[int]
    fitted: list[float]
    random: list[float]


def _swap_pairs(runner: LookbackRunner, rows: list[Counterfactual], layer: int, state: list[int],
                state_rev: list[int]) -> tuple[torch.Tensor, torch.Tensor]:
    """§7: the clean drink residuals h_dst and the counterfactual's reversed ones h_src."""
    dst, src = [], []
    bs = runner.sizes.interchange_batch
    for i in range(0, len(rows), bs):
        chunk = rows[i:i + bs]
        dst.append(_read(runner, [r.clean for r in chunk], state)[layer])
        src.append(_read(runner, [r.cf for r in chunk], state_rev)[layer])
    return torch.cat(dst), torch.cat(src)


def _projected_iia(runner: LookbackRunner, rows: list[Counterfactual], layer: int,
                   state: list[int], h_dst: torch.Tensor, h_src: torch.Tensor,
                   basis: torch.Tensor | None) -> float:
    """Write h_dst + (h_src − h_dst) projected on `basis` (rows; None = unrestricted)."""
    delta = h_src - h_dst
    new = h_dst + (delta if basis is None else (delta.float() @ basis.T @ basis).to(delta.dtype))
    bs = runner.sizes.interchange_batch
    preds: list[str] = []
    for i in range(0, len(rows), bs):
        with torch.no_grad(), runner.model.nn.trace([r.clean for r in rows[i:i + bs]]):
            runner.layers[layer].output[:, state] = new[i:i + bs]
            top = runner.model.nn.lm_head.output[:, -1].argmax(-1).save()
        preds += runner.decode(top)
    return _score(preds, rows, "target")


def low_rank(runner: LookbackRunner, rows: list[Counterfactual], layer: int) -> LowRank:
    """§7: SVD basis of the mean-centred swap deltas of the first half; scored on the second."""
    state, state_rev = state_positions(row_layout(runner, rows[0]))
    h_dst, h_src = _swap_pairs(runner, rows, layer, state, state_rev)
    half = len(rows) // 2
    deltas = (h_src[:half] - h_dst[:half]).float().reshape(-1, h_dst.shape[-1])
    _, _, vt = torch.linalg.svd(deltas - deltas.mean(0), full_matrices=False)
    held = rows[half:]
    d_src, d_dst = h_src[half:], h_dst[half:]
    ranks = [k for k in runner.sizes.low_rank_ranks if k <= vt.shape[0]]
    d = h_dst.shape[-1]
    random = []
    for k in ranks:
        scores = []
        for seed in (0, 1, 2):
            q = torch.linalg.qr(torch.randn(d, k, generator=torch.Generator().manual_seed(seed)))[0].T
            scores.append(_projected_iia(runner, held, layer, state, d_dst, d_src, q))
        random.append(round(sum(scores) / 3, 4))
    return LowRank(
        layer=layer, fitted_on=half, held_out=len(held), directions=vt.shape[0],
        difference_vectors=deltas.shape[0],
        unrestricted=_projected_iia(runner, held, layer, state, d_dst, d_src, None),
        interchange=_score(interchange(runner, held, layer, state, state_rev), held, "target"),
        ranks=ranks,
        fitted=[_projected_iia(runner, held, layer, state, d_dst, d_src, vt[:k]) for k in ranks],
        random=random,
    )

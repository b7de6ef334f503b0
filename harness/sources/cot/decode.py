"""Seed 000, §6 anchors 1 and 2: the no-op and the one-step bump inside nnsight's decode loop
(anchor 3, the noise, is harness.sources.cot.noise)."""
from __future__ import annotations

from dataclasses import dataclass

import nnsight
import torch

from harness.sources.cot.rows import Row
from harness.sources.cot.runner import CotRunner
from harness.sources.cot.traces import Trace

FIRE_BUMP = 100.0  # §6: the fire-once audit's bump on dimension 0


def onto(vector: torch.Tensor, out: torch.Tensor) -> torch.Tensor:
    """`vector` on the device and in the dtype of the layer output `out` it is added to: a model
    split over GPUs has its layers on different devices, none of them necessarily the device of its
    first parameter (`runner.model.device`)."""
    return vector.to(device=out.device, dtype=out.dtype)


@dataclass
class StepShapes:
    """§6: layers[0].output's shape at each tracer.iter step, and the model's width."""

    prompt_len: int
    width: int
    steps: int  # the steps asked for: the expected shapes never follow what was measured
    shapes: list[list[int]]

    @property
    def prefill_then_single(self) -> list[list[int]]:
        """The shapes §6 expects: the whole prompt at step 0, then one token a step."""
        return [[1, self.prompt_len, self.width]] + [[1, 1, self.width]] * (self.steps - 1)


def step_shapes(runner: CotRunner, pid: list[int], steps: int = 4) -> StepShapes:
    """§6: record layers[0].output.shape over the first `steps` steps (step 0 is the prefill)."""
    layers = runner.layers
    with torch.no_grad(), runner.model.nn.generate(runner.tensor(pid), max_new_tokens=steps,
                                                   do_sample=False) as tracer:
        shapes = nnsight.save([])
        for _ in tracer.iter[:steps]:
            shapes.append(layers[0].output.shape)
        _ = tracer.result.save()
    return StepShapes(len(pid), runner.hidden_size, steps, [list(s) for s in shapes])


@dataclass
class NoopRun:
    """§6 anchor 1: ids generated with +0.0 at every step, against the baseline."""

    problem: int
    steps: int
    matched: int  # decode steps whose token is the reference's, of
    checked: int  # the steps either run decoded

    @property
    def identical(self) -> bool:
        """Bit-identical: every step either run decoded is the other's."""
        return self.matched == self.checked


def noop_run(problem: int, steps: int, edited: list[int], clean: list[int]) -> NoopRun:
    """§6: one +0.0 run against its reference, step by step."""
    return NoopRun(problem, steps, sum(a == b for a, b in zip(edited, clean)),
                   max(len(edited), len(clean)))


@dataclass
class NoopRuns:
    """§6 anchor 1 over the first `noop_problems` usable traces."""

    runs: list[NoopRun]
    rows: list[Row]  # the +0.0 runs' rows (adding 0.0 writes nothing)

    @property
    def identical(self) -> int:
        return sum(r.identical for r in self.runs)

    @property
    def differing(self) -> list[NoopRun]:
        return [r for r in self.runs if not r.identical]

    @property
    def steps(self) -> list[int]:
        return [r.steps for r in self.runs]

    @property
    def identical_steps(self) -> int:
        return sum(r.matched for r in self.runs)

    @property
    def checked_steps(self) -> int:
        return sum(r.checked for r in self.runs)


def noop_runs(runner: CotRunner, usable: list[Trace]) -> NoopRuns:
    """§6: add 0.0 at the anchor layer at every step of the first `noop_problems` usable traces
    (one batch in fast mode), against what the same prompts decode to without it."""
    traces = usable[:runner.sizes.noop_problems]
    n, layer = [len(t.gen) for t in traces], runner.layers[runner.sizes.anchor_layer]

    def add_zero(step: int, rows: list[int]) -> None:
        layer.output[:] = layer.output + 0.0

    pids = [t.pid for t in traces]
    edited = runner.generate_many(pids, n, "cot §6 no-op", add_zero)
    clean = runner.references(pids, [None if t.scripted else t.gen for t in traces], n)
    return NoopRuns([noop_run(t.idx, len(t.gen), e, c) for t, e, c in zip(traces, edited, clean)],
                    [Row(p, e) for p, e in zip(pids, edited)])


def per_step_outputs(runner: CotRunner, pid: list[int], patch_step: int | None,
                     steps: int) -> tuple[list[torch.Tensor], list[int]]:
    """§6: the anchor layer's last-position output at every step (cloned), with an optional bump."""
    layer = runner.layers[runner.sizes.anchor_layer]
    bump = torch.zeros(runner.hidden_size, dtype=runner.dtype, device="cpu")  # moved by onto()
    bump[0] = FIRE_BUMP
    with torch.no_grad(), runner.model.nn.generate(max_new_tokens=steps, do_sample=False) as tracer:
        with tracer.invoke(runner.tensor(pid)):
            out = nnsight.save([])
            for step in tracer.iter[:steps]:
                if patch_step is not None and step == patch_step:
                    out_now = layer.output
                    out_now[:, -1, :] += onto(bump, out_now)
                out.append(layer.output[0, -1, :].clone())
        with tracer.invoke():
            ids = tracer.result.save()
    return [o.float().cpu() for o in out], ids[0, len(pid):].tolist()


@dataclass
class BumpAudit:
    """§6 anchor 2: per-step |delta| on dim 0 between a bumped and a clean run."""

    step: int  # where the bump was requested
    deltas: list[float]
    nonzero_steps: list[int]
    tokens_changed: bool

    @property
    def delta_at_step(self) -> float:
        """The delta where the bump was requested, to 1 place."""
        return round(self.deltas[self.step], 1)


def bump_audit(runner: CotRunner, pid: list[int]) -> BumpAudit:
    """§6: FIRE_BUMP on dim 0 at `fire_step` must show at that step and nowhere else, decoding
    from prompt ids `pid` (it needs no behaviour from the model)."""
    steps, k = runner.sizes.fire_steps, runner.sizes.fire_step
    clean, ids_clean = per_step_outputs(runner, pid, None, steps)
    bumped, ids_bumped = per_step_outputs(runner, pid, k, steps)
    deltas = [float((a - b)[0].abs()) for a, b in zip(bumped, clean)]
    # Step s reads the tokens made before it: once the bump has changed a token (random weights
    # do), later steps read other inputs and their deltas say nothing about the bump.
    same = next((j for j, (a, b) in enumerate(zip(ids_clean, ids_bumped)) if a != b),
                len(deltas))
    return BumpAudit(k, deltas, [i for i, d in enumerate(deltas) if d > 1e-3 and i <= same],
                    ids_clean != ids_bumped)

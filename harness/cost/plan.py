"""The cost plan: each step's model work (a pinned ledger, or one projected from the organisms'
ledger) priced on a named GPU, with no model loaded. Faithful decoding is latency-bound (one
forward per token, each reading every weight), fast mode compute-bound; the model says which."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from harness.models.work import Work


@dataclass(frozen=True)
class Gpu:
    """A GPU's dense bf16 tensor throughput and memory bandwidth (vendor data sheets)."""

    name: str
    flops: float  # FLOP/s
    bandwidth: float  # bytes/s


GPUS = {
    "H200": Gpu("NVIDIA H200 SXM", 989e12, 4.8e12),
    "H100": Gpu("NVIDIA H100 SXM", 989e12, 3.35e12),
    "A6000": Gpu("NVIDIA RTX A6000", 154.8e12, 768e9),
    "A40": Gpu("NVIDIA A40", 149.7e12, 696e9),
}


@dataclass(frozen=True)
class Assumptions:
    """What the time estimate assumes; printed with every plan.

    `overhead_s` is the fixed cost of one forward outside the GPU's arithmetic (Python, the
    generate loop, nnsight's interleaving). The default is calibrated on seed 000's own timing:
    about 25 generated tokens/s for Qwen3-4B on an A6000, of which reading the weights once per
    token accounts for about 10 ms of the 40 ms per token."""

    gpu: Gpu = GPUS["H200"]
    utilisation: float = 0.4
    overhead_s: float = 0.030


@dataclass(frozen=True)
class Shape:
    """What pricing needs of a model: parameters without the embedding table, all parameter
    bytes, depth and width."""

    params: int
    weight_bytes: int
    layers: int
    width: int
    heads: int


def seconds(work: Work, shape: Shape, a: Assumptions) -> float:
    """max(arithmetic, weight reads) plus per-forward overhead. Arithmetic: 2 FLOPs per parameter
    per position, and attention at 4·layers·width FLOPs per position per position attended
    (half the mean sequence length, causal)."""
    positions = work.tokens
    mean_len = positions / work.prefill_rows if work.prefill_rows else 0.0
    flops = 2 * shape.params * positions + 4 * shape.layers * shape.width * (mean_len / 2) * positions
    arithmetic = flops / (a.gpu.flops * a.utilisation)
    reads = work.forwards * shape.weight_bytes / a.gpu.bandwidth
    return max(arithmetic, reads) + work.forwards * a.overhead_s


@dataclass(frozen=True)
class Scale:
    """How one published step relates to the organism's: `rows` times as many sequences (more
    layers, heads or rows swept), prompts `prompt` times and generations `decode` times as long;
    `why` says where the factors come from."""

    rows: float = 1.0
    prompt: float = 1.0
    decode: float = 1.0
    why: str = "as on the organism"


def project(work: Work, scale: Scale, batched: bool) -> Work:
    """The organism's counted work at the published scale. Prefills scale with rows; decode
    forwards with rows and generation length when each row decodes alone (faithful), with the
    length alone when the rows share forwards (fast)."""
    decodes = work.forwards - work.prefills
    per_row = scale.decode * (1 if batched else scale.rows)
    decode_tokens = work.decode_tokens * scale.rows * scale.decode
    return Work(forwards=round(work.prefills * scale.rows + decodes * per_row),
                prefills=round(work.prefills * scale.rows),
                rows=round(work.prefill_rows * scale.rows + decode_tokens),
                prefill_rows=round(work.prefill_rows * scale.rows),
                prompt_tokens=round(work.prompt_tokens * scale.rows * scale.prompt),
                decode_tokens=round(decode_tokens),
                padding=round(work.padding * scale.rows * scale.prompt))


def mean_tokens(tok, texts: list[str]) -> float:
    """The mean length of texts in tok's tokens (no special tokens added)."""
    return sum(len(tok(t, add_special_tokens=False).input_ids) for t in texts) / len(texts)


@dataclass(frozen=True)
class Measured:
    """One source's run on the GPU the plan prices (a rehearsal entry): its counted work and the
    seconds its steps took, on a model of `shape`."""

    forwards: int
    positions: int
    seconds: float
    shape: Shape


def calibrate(runs: dict[str, list[Measured]], gpu: Gpu) -> Assumptions:
    """Assumptions fitted to measured runs on `gpu`: the per-forward overhead from faithful runs
    (latency-bound: the time left after one read of the weights per forward), then the
    utilisation from fast runs (the arithmetic's share of the time left after that overhead).
    The median over sources; the defaults where a mode has no run."""
    overheads = [(m.seconds - m.forwards * m.shape.weight_bytes / gpu.bandwidth) / m.forwards
                 for m in runs.get("faithful", []) if m.forwards]
    overhead = _median(overheads, Assumptions.overhead_s)
    shares = [2 * m.shape.params * m.positions / gpu.flops / (m.seconds - m.forwards * overhead)
              for m in runs.get("fast", []) if m.seconds > m.forwards * overhead]
    return Assumptions(gpu, min(1.0, _median(shares, Assumptions.utilisation)), max(0.0, overhead))


def _median(values: list[float], default: float) -> float:
    if not values:
        return default
    ordered = sorted(values)
    middle = len(ordered) // 2
    return ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2


@dataclass(frozen=True)
class StepPlan:
    """One experiment step's work, where it comes from, and its estimated time."""

    source: str
    step: str
    work: Work
    basis: str  # "pinned ledger" or the projection's reason
    seconds: float | None
    claims: tuple[str, ...] = ()  # the collected claims that read it

    @property
    def shared(self) -> bool:
        return len(self.claims) > 1

    @property
    def recorded_seconds(self) -> float | None:
        """Its time as the plan records it (to the hundredth), None where it has none."""
        return None if self.seconds is None else round(self.seconds, 2)

    def as_record(self) -> dict[str, Any]:
        return {"step": self.step, **self.work.as_record(), "basis": self.basis,
                "seconds": self.recorded_seconds,
                "claims": list(self.claims), "shared": self.shared}


@dataclass(frozen=True)
class ModePlan:
    """A source's steps in one mode, and where their work came from."""

    basis: str
    steps: tuple[StepPlan, ...]

    @property
    def seconds(self) -> float | None:
        if not self.steps or any(s.seconds is None for s in self.steps):
            return None
        return round(sum(s.seconds for s in self.steps), 1)

    def as_record(self) -> dict[str, Any]:
        return {"basis": self.basis, "steps": [s.as_record() for s in self.steps],
                "total": total(list(self.steps)).as_record(), "seconds": self.seconds}


@dataclass(frozen=True)
class SourcePlan:
    """A source's model, its shape, and its plan in each mode."""

    model: str | None
    shape: Shape | None
    modes: Mapping[str, ModePlan]  # by Mode value
    cpu: Mapping[str, Any] | None = None  # a CPU-declared published model's measured time

    def as_record(self) -> dict[str, Any]:
        return {"model": self.model, "shape": self.shape.__dict__ if self.shape else None,
                **{mode: plan.as_record() for mode, plan in self.modes.items()},
                **({"cpu": dict(self.cpu)} if self.cpu is not None else {})}


def total(steps: list[StepPlan]) -> Work:
    found = Work()
    for s in steps:
        found = found + s.work
    return found


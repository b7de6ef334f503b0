"""The full-size rehearsal's decode cap, chosen from the plan: on random weights every decode step
runs to its cap, so a mode's decode forwards grow by a counted number per cap token; priced by the
plan's time per forward on this GPU, the cap is the largest that leaves each mode's run within its
budget after the run's start and model load."""
from __future__ import annotations

from dataclasses import dataclass

from harness.cost.plan import GPUS, Assumptions

MIN_CAP = 8  # below this the capped steps say little about the published ones
MARGIN = 0.85  # the share of a budget the projection may fill (test bodies, the record)
START_LOAD_S = 60.0  # a run's process start and model load, assumed until one is measured


@dataclass(frozen=True)
class Counted:
    """One mode's forwards on the rehearsal at the published sizes: decode forwards per cap token
    (every step decoding to the cap), and the forwards that do not grow with it."""

    per_cap_token: float
    other: int


# Counted by the CUDA setting's dry run (device-independent counts) at --decode-cap 8 and 16: the
# forwards' growth per cap token, and the rest (prefills, and decodes of fixed length such as the
# forced answers); tests/integration/test_rehearsal.py checks them at 8.
COUNTED: dict[str, dict[str, Counted]] = {
    "cot": {"fast": Counted(per_cap_token=7, other=426),
            "faithful": Counted(per_cap_token=35, other=1192)},
}


def forward_seconds(parameters: int, dtype_bytes: int, gpu_name: str | None) -> tuple[float, str]:
    """The plan's time for one latency-bound forward on this GPU: its per-forward overhead plus one
    read of the weights; the GPU the plan names, or its default where it names none."""
    gpu = next((g for key, g in GPUS.items() if key in (gpu_name or "")), None)
    a = Assumptions(gpu) if gpu else Assumptions()
    seconds = a.overhead_s + parameters * dtype_bytes / a.gpu.bandwidth
    return seconds, (f"{seconds * 1000:.1f} ms a forward ({a.gpu.name}"
                     f"{'' if gpu else f', the plan default: {gpu_name!r} is not in its GPUs'})")


def choose_cap(budget_s: float, start_load_s: float, forward_s: float,
               counted: dict[str, Counted], ceiling: int) -> tuple[int, str]:
    """The largest cap (MIN_CAP to `ceiling`) whose projected run, start and load plus every
    forward at `forward_s`, fits MARGIN of `budget_s` in each mode of `counted`; and why."""
    room = budget_s * MARGIN - start_load_s
    caps = {mode: int((room - c.other * forward_s) / (c.per_cap_token * forward_s))
            if c.per_cap_token else ceiling for mode, c in counted.items()}
    cap = max(MIN_CAP, min([ceiling, *caps.values()]))
    fits = ", ".join(f"{mode} {caps[mode]}" for mode in counted)
    return cap, (f"{cap}: the largest cap each mode's projection fits ({fits}) in {MARGIN:.0%} of "
                 f"{budget_s:.0f} s less {start_load_s:.0f} s start and load, at "
                 f"{forward_s * 1000:.1f} ms a forward; between {MIN_CAP} and {ceiling}")

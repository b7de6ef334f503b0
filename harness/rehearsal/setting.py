"""How a rehearsal runs on each device (Setting): the CPU's narrowed models at the rehearsal
profile's sizes, or CUDA's full-size models at the published sizes with every decode step capped;
and the CPU rehearsal's dtype."""
from __future__ import annotations

import os
from dataclasses import dataclass, replace

# The full-size rehearsal's decode steps stop here at most: on random weights every step decodes
# to its cap, and faithful mode at the published caps (20 problems x 2000 tokens, one at a time)
# alone would outlast the budget; cot's cap is chosen below it from the plan (cap.py), and the
# full-size decode time is extrapolated and labelled so.
FULL_SIZE_DECODE_CAP = 128
# The CUDA dry run takes these at the rehearsal profile's own sizes: their published sizes (every
# family, block and head; lookback's 7.8 M prompt tokens) take many minutes even narrowed.
DRY_RUN_OWN_SIZES = ("heads", "lookback")


def cpu_dtype() -> tuple[str | None, str]:
    """The CPU rehearsal's dtype: the declared bf16 where the CPU does bf16 arithmetic natively,
    else float32 (emulated bf16 runs several times slower), with the reason."""
    import torch

    if torch.ops.mkldnn._is_mkldnn_bf16_supported():
        return None, "the declared dtype: this CPU does bf16 natively"
    return "float32", ("float32: this CPU has no native bf16 arithmetic (oneDNN reports none), "
                       "where bf16 runs several times slower; bf16 is rehearsed on CUDA "
                       "(make gpu-rehearsal) and on CPUs that have it")


@dataclass(frozen=True)
class Setting:
    """How a rehearsal runs. CPU (`make test`): narrowed models, the rehearsal profile's own
    sizes, one mode, the device audit inline. CUDA (`make gpu-rehearsal`): full-size models drawn
    on the GPU, the published sizes with every decode step capped (cot's cap chosen from the plan
    so that each mode fits its budget; the full-size decode time extrapolated and labelled so),
    fast then faithful, timed without the audit, which runs after as a short pass of its own at
    the rehearsal profile's sizes."""

    device: str
    full_size: bool  # the published widths (else narrowed: build.narrowed)
    published_sizes: bool
    modes: tuple[str, ...]
    decode_cap: int | None  # every decode step's cap; with cap_from_plan, the most cot's may be
    audit: str  # "inline": the timed runs under the device audit; "separate": a pass of its own
    # after them, at the rehearsal profile's sizes; "none"
    budget_s: int  # each source's seconds in each mode (and the audit pass), the build not counted
    build_budget_s: int = 120  # each source's build's seconds at most
    cap_from_plan: bool = False  # cot's cap chosen from the plan and the budget (cap.py)
    own_sizes: tuple[str, ...] = ()  # sources run at the rehearsal profile's sizes regardless

    @property
    def separate_audit(self) -> bool:
        return self.audit == "separate"

    @property
    def builds_here(self) -> bool:
        """Whether each model is built in the rehearsal's own process (narrowed, on the CPU) rather
        than one of its own (full size: its GPU memory goes back when that process ends)."""
        return self.device == "cpu" and not self.full_size

    @property
    def jobs(self) -> int:
        """Sources run at once: one per CPU on the CPU (each on one thread), one on a GPU."""
        return (os.cpu_count() or 1) if self.device == "cpu" else 1

    @classmethod
    def for_device(cls, device: str) -> "Setting":
        if device == "cpu":
            return cls("cpu", False, False, ("faithful",), None, "inline", 240)
        return cls(device, True, True, ("fast", "faithful"), FULL_SIZE_DECODE_CAP, "separate", 120,
                   build_budget_s=300, cap_from_plan=True)

    def dry_run(self, decode_cap: int) -> "Setting":
        """This setting's code path on the CPU, narrowed, with decode steps capped at
        `decode_cap` and DRY_RUN_OWN_SIZES at their own sizes: the CUDA rehearsal's dry run."""
        # The CPU's budget, not the GPU's: it checks the path, not the time, and CPUs here differ
        # about 2x in speed (lookback's fast run took 125 s of the GPU's 120 on a busy one).
        return replace(self, device="cpu", full_size=False, decode_cap=decode_cap,
                       cap_from_plan=False, own_sizes=DRY_RUN_OWN_SIZES,
                       budget_s=Setting.for_device("cpu").budget_s)

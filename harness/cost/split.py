"""The cost plan's answer to "does splitting a source over spare GPUs pay": each source's time on
one worker, and with its units on workers of their own (docs/cost-and-scaling.md, "Beyond one GPU")."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Mapping

from harness.profiles import Mode
from harness.registry import registered

if TYPE_CHECKING:
    from harness.cost.build import Plan


def closure(step: str, deps: Mapping[str, frozenset[str]]) -> set[str]:
    """`step` and every fixture it needs, however deep."""
    found, stack = {step}, [step]
    while stack:
        for dep in deps.get(stack.pop(), ()):
            if dep not in found:
                found.add(dep)
                stack.append(dep)
    return found


def split_seconds(seconds: Mapping[str, float], deps: Mapping[str, frozenset[str]],
                  units: tuple[str, ...]) -> float:
    """A source's wall time with each unit on its own worker: its longest unit chain (the unit
    and the steps it needs, each computed once and shared), or the source worker's own steps."""
    chains = [sum(seconds.get(s, 0.0) for s in closure(u, deps)) for u in units if u in seconds]
    own = sum(v for step, v in seconds.items() if step not in units)
    return max([own, *chains])


def one_per_worker(totals: list[float], gpus: int) -> float:
    """Whole sources on `gpus` workers, the longest first to the least loaded."""
    loads = [0.0] * max(gpus, 1)
    for t in sorted(totals, reverse=True):
        loads[loads.index(min(loads))] += t
    return max(loads)


def figures(plan: Plan, deps: Mapping[str, frozenset[str]], gpus: int) -> dict[str, Any]:
    """Per mode: each source's time whole and split, and the suite's wall time on `gpus` GPUs
    without and with splitting (the split can never beat the work divided by the GPUs)."""
    out: dict[str, Any] = {"gpus": gpus}
    for mode in Mode:
        sources, whole, split = {}, [], []
        for name, entry in plan.sources.items():
            seconds = {s.step: s.recorded_seconds or 0.0 for s in entry.modes[mode.value].steps}
            units = registered()[name].units
            total = sum(seconds.values())
            apart = split_seconds(seconds, deps, units) if units else total
            sources[name] = {"whole_s": round(total, 1), "split_s": round(apart, 1),
                             "units": [u for u in units if u in seconds]}
            whole.append(total)
            split.append(apart)
        unsplit = one_per_worker(whole, gpus)
        best = max(max(split, default=0.0), sum(whole) / max(gpus, 1))
        out[mode.value] = {"sources": sources, "one_source_per_gpu_s": round(unsplit, 1),
                           "split_s": round(best, 1),
                           "saving": round(1 - best / unsplit, 3) if unsplit else 0.0}
    return out


def lines(split: dict[str, Any]) -> list[str]:
    out = ["", f"on {split['gpus']} GPUs (xdist -n {split['gpus']}): one source per GPU, or "
           "each source's units on spare GPUs (claims/<source>/test_units.py)"]
    for mode in Mode:
        m = split[mode.value]
        parts = ", ".join(f"{name} {s['whole_s'] / 60:.1f} -> {s['split_s'] / 60:.1f} min"
                          for name, s in m["sources"].items() if s["units"])
        out.append(f"  {mode.value}: {m['one_source_per_gpu_s'] / 60:.1f} min -> "
                   f"{m['split_s'] / 60:.1f} min split ({m['saving']:.0%} saved; {parts})")
    return out

"""A source's catalogue checks derived from its anchors (issue 46): each anchor the source's
`breakages.py` lists in ANCHORS (groups of `Checked`) runs its own test body on the declared
step graph (`declared_steps.Resolved`) and is judged by its own `holds`, in faithful mode and,
where a step it reads is batched, again in fast mode. The claims modules and the steps are
imported afresh each time, so that they bind the modules a breakage edited."""
from __future__ import annotations

import importlib.util
import inspect
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Mapping, Sequence

from harness.claims import ClaimSpec, spec_of
from harness.criteria import Criterion
from harness.declared_steps import NothingToRun, Resolved, Step
from harness.profile_variants import with_sizes
from harness.values import plain

if TYPE_CHECKING:
    from harness.source import Source

Checks = dict[str, Callable[[], list[str]]]  # anchor id -> a callable returning its failures
FAST = " (fast mode)"  # the suffix of an anchor's check on the batched graph


@dataclass(frozen=True)
class Checked:
    """Anchors the catalogue runs after each breakage, in the order tried, the sizes their steps
    run at (`at` of the profile's: the catalogue's own smaller study; or the profile's), the
    modes each runs in (fast mode only where it reads a batched step), and the rows a forced step
    that kept none takes of those it offered (the rehearsal's rule; 0: nothing to run)."""

    anchors: tuple[str, ...]
    at: Callable[[Any], Any] | None = None
    fast: bool = True
    faithful: bool = True
    forced_rows: int = 0


def claims_tests(folder: Path) -> dict[str, tuple[Callable[..., Any], ClaimSpec]]:
    """Claim id -> its test function and declaration, from `folder`'s test modules, each
    executed afresh (not kept in sys.modules)."""
    found = {}
    for path in sorted(folder.glob("test_*.py")):
        spec = importlib.util.spec_from_file_location(f"_anchors_of_{path.stem}", path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        found.update({s.id: (fn, s) for name, fn in vars(module).items()
                      if name.startswith("test") and (s := spec_of(fn)) is not None})
    return found


def reads(fn: Callable[..., Any]) -> list[str]:
    """The steps a claim test's body reads: its parameters but `judge`."""
    return [p for p in inspect.signature(fn).parameters if p != "judge"]


def measured_by(fn: Callable[..., Any], spec: ClaimSpec, run: Resolved) -> dict[str, Any]:
    """What a claim test's body judges, on `run`'s steps (NothingToRun where a step it reads
    has nothing to run)."""
    values = {p: run[p] for p in reads(fn)}
    recorded: list[dict[str, Any]] = []
    fn(recorded.append, **values)
    if len(recorded) != 1:
        raise RuntimeError(f"{spec.id}: its body judged {len(recorded)} times, not once")
    return plain(recorded[0])


def judged(fn: Callable[..., Any], spec: ClaimSpec, run: Resolved) -> Callable[[], list[str]]:
    """The anchor's check: its test body on `run`'s steps, what it judges held to its `holds`
    (`failures`)."""
    if spec.holds is None:
        raise ValueError(f"{spec.id}: a catalogued anchor declares what holds on every profile")

    def check() -> list[str]:
        try:
            measured = measured_by(fn, spec, run)
        except NothingToRun as reason:  # the unbroken steps run: a breakage left them nothing
            return [f"nothing to run: {reason}"]
        return failures(spec.holds.criterion, measured, spec.published)
    return check


def failures(criterion: Criterion, measured: dict[str, Any], published: Mapping[str, Any],
             ) -> list[str]:
    """What a criterion that fails found: the items of each failing part's measured list (the
    cases it names), then each other failing part's detail; nothing where it holds."""
    if criterion.judge(measured, published).ok:
        return []
    cases, details = [], []
    for part in getattr(criterion, "parts", (criterion,)):
        check = part.judge(measured, published)
        value = measured.get(getattr(part, "names", None) or getattr(part, "key", ""))
        if check.ok:
            continue
        if isinstance(value, list) and value:
            cases += map(str, value)
        else:
            details.append(check.detail)
    return cases + details


def roots(source: Source, steps: Sequence[Step], model: Any, sizes: Any,
          profile: Any) -> dict[str, Any]:
    """A graph's given values: the model, its tokenizer, `sizes` and the profile at `sizes`;
    where the source declares its sizes as a step of the profile (batched in fast mode), the
    profile alone carries them."""
    given = {f"{source.name}_model": model, f"{source.name}_tokenizer": model.tok}
    if profile is not None:
        given["profile"] = with_sizes(profile, source.name, sizes)
    sized = f"{source.name}_sizes"
    if not any(step.name == sized for step in steps):
        return given | {sized: sizes}
    if profile is None:
        raise ValueError(f"{source.name}: its sizes are a step of the profile, and no profile "
                         "was given")
    return given


def derived(source: Source, groups: Sequence[Checked], folder: Path, model: Any,
            sizes: Any, profile: Any = None) -> Checks:
    """The checks of each group's anchors, in order, on the source's steps at the group's sizes
    (`at` of the profile's declared `sizes`) and forced rows: each on the faithful graph, then
    (named with FAST) on the batched one where it reads a batched step, in its group's modes.
    Groups at the same sizes and forced rows share their graphs."""
    steps = source.steps
    tests = claims_tests(folder)
    missing = [a for g in groups for a in g.anchors if a not in tests]
    if missing:
        raise ValueError(f"{source.name}: ANCHORS names no test in {folder}: {missing}")
    graphs: dict[Any, tuple[Resolved, Resolved]] = {}
    found: Checks = {}
    for group in groups:
        key = group.at, group.forced_rows
        if key not in graphs:
            given = roots(source, steps, model, group.at(sizes) if group.at else sizes, profile)
            faithful = Resolved(steps, given, forced_rows=group.forced_rows)
            graphs[key] = faithful, Resolved(steps, given, batched=True, unbatched=faithful,
                                             forced_rows=group.forced_rows)
        faithful, fast = graphs[key]
        for anchor in group.anchors:
            fn, spec = tests[anchor]
            batched = any(map(fast.reads_batched, reads(fn)))
            if not group.faithful and not batched:
                raise ValueError(f"{anchor}: reads no batched step, so fast mode alone checks "
                                 "it nowhere")
            if group.faithful:
                found[anchor] = judged(fn, spec, faithful)
            if group.fast and batched:
                found[anchor + FAST] = judged(fn, spec, fast)
    return found

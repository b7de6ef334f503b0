"""A source's experiment steps, declared once (`STEPS` in harness/sources/<name>/steps.py): each
step's function, the steps it reads and what the run's mode means to it. The claims folder's
fixtures, the xdist units and the shared steps are derived from this declaration."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Sequence

# Steps every source has without declaring them (harness/plugin/step_fixtures.py builds them):
# its model, its tokenizer alone, its sizes on the session's profile, and its breakage catalogue.
GIVEN = ("model", "tokenizer", "sizes", "breakages")
# The session's own fixtures a step may read.
SESSION = ("profile", "mode", "backend", "request")


class NothingToRun(Exception):
    """The model gave a step nothing to run on (e.g. no trace states its product): a result,
    which the step's fixture reports as a skip with this message."""


@dataclass(frozen=True)
class Filtered:
    """A behavioural filter's outcome (a `forced` step's result): the rows it kept; where it kept
    none, the rows a profile that forces rows takes the first of instead (a callable is called
    only then), why none passed, and how the offered rows were made."""

    kept: Sequence[Any]
    offered: Sequence[Any] | Callable[[], Sequence[Any]]
    why_none: str
    how: str = ""


@dataclass(frozen=True)
class Step:
    """One experiment step: `run(*inputs, *given)`, each input another step's or the session's.

    - `batched`: the run's mode means one thing, batching: `run` gets `batched=True` in fast mode.
    - `local_weights`: why the step cannot run where the weights are not in this process
      (NDIF), or None where it can.
    - `forced`: `run` returns a `Filtered`; the step is its kept rows, or on a profile that
      forces rows (the rehearsal's random weights) the first offered ones, noted in the record.
    - `unit`: a spare xdist worker may run it on its own; `shared`: the steps units read, kept
      in the on-disk step store (harness/step_store.py)."""

    name: str
    run: Callable[..., Any]
    inputs: tuple[str, ...] = ()
    given: tuple[Any, ...] = ()
    batched: bool = False
    local_weights: str | None = None
    forced: bool = False
    unit: bool = False
    shared: bool = False
    unguarded: str = ""

    def __post_init__(self) -> None:
        if len(set(self.inputs)) != len(self.inputs):
            raise ValueError(f"step {self.name!r} reads an input twice: {self.inputs}")


def check_steps(source: str, steps: tuple[Step, ...]) -> None:
    """Every step named once, and every input a declared step, a given one or the session's."""
    names = [s.name for s in steps]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise ValueError(f"{source}: steps declared twice: {twice}")
    known = set(names) | {f"{source}_{g}" for g in GIVEN} | set(SESSION)
    for step in steps:
        unknown = [i for i in step.inputs if i not in known]
        if unknown:
            raise ValueError(f"{source}: step {step.name!r} reads undeclared {unknown}")


class Resolved:
    """A source's declared steps evaluated in this process, each once when first read, from the
    values given for their roots (its model, tokenizer, sizes): the graph the claims' fixtures
    come from, for the checks that run studies outside a session (issue 46). A step that finds
    nothing to run raises its NothingToRun each time it is read; a forced step that kept nothing
    takes the first `forced_rows` rows it offered, as the rehearsal's profile does."""

    def __init__(self, steps: Sequence[Step], given: dict[str, Any], batched: bool = False,
                 unbatched: Resolved | None = None, forced_rows: int = 0) -> None:
        self.steps = {s.name: s for s in steps}
        self.values: dict[str, Any] = dict(given)
        self.batched = batched
        self.unbatched = unbatched  # where a step reads nothing batched, its value is read there
        self.forced_rows = forced_rows  # a forced step that kept nothing takes this many offered
        self.batched_reads: dict[str, bool] = {}

    def reads_batched(self, name: str) -> bool:
        """Whether step `name`, or a step it reads however indirectly, is batched."""
        if name not in self.batched_reads:
            step = self.steps.get(name)
            self.batched_reads[name] = step is not None and (
                step.batched or any(map(self.reads_batched, step.inputs)))
        return self.batched_reads[name]

    def __getitem__(self, name: str) -> Any:
        if self.unbatched is not None and name not in self.values and not self.reads_batched(name):
            return self.unbatched[name]
        if name not in self.values:
            step = self.steps[name]
            try:
                args = [self[i] for i in step.inputs]
                kwargs = {"batched": self.batched} if step.batched else {}
                found = step.run(*args, *step.given, **kwargs)
                if step.forced:
                    found = _kept(found, self.forced_rows)
            except NothingToRun as reason:
                found = reason
            self.values[name] = found
        value = self.values[name]
        if isinstance(value, NothingToRun):
            raise value
        return value

    def reason(self, name: str) -> str | None:
        """Why step `name` has nothing to run, or None where it ran."""
        try:
            self[name]
        except NothingToRun as reason:
            return str(reason)
        return None


def offered_rows(offered: Sequence[Any] | Callable[[], Sequence[Any]],
                 forced_rows: int) -> Sequence[Any]:
    """Where a filter kept nothing, the rows it offered to a profile that forces `forced_rows`
    (a callable called only then); none where it forces none."""
    return (offered() if callable(offered) else offered) if forced_rows else []


def _kept(found: Filtered, forced_rows: int) -> Sequence[Any]:
    """A filter's kept rows; where it kept none, the first `forced_rows` it offered (as a profile
    that forces rows takes them: harness/plugin/forcing.py); none of either is nothing to run."""
    if found.kept:
        return found.kept
    offered = offered_rows(found.offered, forced_rows)
    if not offered:
        raise NothingToRun(found.why_none)
    return list(offered[:forced_rows])

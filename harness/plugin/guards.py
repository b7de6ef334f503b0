"""Requires that cannot be forgotten: each anchor names the declared steps it `guards`, and each
claim test requires every anchor of its source guarding a step it reads, directly or upstream
(harness/declared_steps.py), beside the anchors its `requires` names. Checked when the tests are
collected: an unknown guarded step, an unknown required id, a finding reading a step no anchor
guards (unless the step says why it needs none) and anchors requiring each other in a cycle stop
the run before any model loads."""
from __future__ import annotations

import dataclasses
import inspect
from dataclasses import dataclass
from functools import cache
from typing import Any, Callable, Iterable, Mapping, Sequence

import pytest

from harness.claims import ClaimSpec, Kind, spec_of
from harness.declared_steps import Step
from harness.plugin.state import SPEC, claims_session
from harness.registry import source


@dataclass(frozen=True)
class Reader:
    """One claim test: its declaration, and the declared steps of its source it reads."""

    spec: ClaimSpec
    reads: frozenset[str]


def steps_read(argnames: Iterable[str], steps: Mapping[str, Step]) -> frozenset[str]:
    """The declared steps a test reads: its arguments that name one, and every step upstream."""
    found: set[str] = set()
    stack = [name for name in argnames if name in steps]
    while stack:
        name = stack.pop()
        if name not in found:
            found.add(name)
            stack += [i for i in steps[name].inputs if i in steps]
    return frozenset(found)


def reader(fn: Callable[..., Any], spec: ClaimSpec, steps: Mapping[str, Step]) -> Reader:
    """The test `fn` as a reader of its arguments' steps."""
    return Reader(spec, steps_read(inspect.signature(fn).parameters, steps))


def behavioural(spec: ClaimSpec) -> bool:
    """Whether an anchor checks the model's behaviour (what a finding's reading assumes)."""
    return spec.holds is not None and spec.holds.behavioural


def _through(test: Reader, anchor: Reader, step: str) -> bool:
    """Whether `test` requires `anchor` for reading `step`: not where two anchors of a kind both
    guard it and both read it, and so check it side by side."""
    return not (step in test.spec.guards and step in anchor.reads
                and behavioural(test.spec) == behavioural(anchor.spec))


def _guarded_by(test: Reader, anchor: Reader) -> bool:
    """Whether `anchor` guards a step `test` reads. A behavioural anchor guards findings and
    behavioural anchors: a mechanical anchor's check holds whatever the model answers."""
    mechanical = test.spec.kind is Kind.ANCHOR and not behavioural(test.spec)
    return (anchor.spec.id != test.spec.id and anchor.spec.source_name == test.spec.source_name
            and not (mechanical and behavioural(anchor.spec))
            and any(_through(test, anchor, s) for s in test.reads.intersection(anchor.spec.guards)))


def derived(readers: Sequence[Reader]) -> dict[str, list[str]]:
    """Each test's anchors: those of its source guarding a step it reads."""
    anchors = [a for a in readers if a.spec.kind is Kind.ANCHOR]
    return {r.spec.id: [a.spec.id for a in anchors if _guarded_by(r, a)] for r in readers}


def effective(readers: Sequence[Reader]) -> dict[str, tuple[str, ...]]:
    """Each test's requires: the anchors guarding its steps, then the ones it names by hand."""
    found = derived(readers)
    return {r.spec.id: tuple(dict.fromkeys([*found[r.spec.id], *r.spec.requires]))
            for r in readers}


def cycle(requires: Mapping[str, Sequence[str]]) -> list[str] | None:
    """A chain of ids that comes back to its first (a -> b -> a), if `requires` holds one."""
    done: set[str] = set()

    def walk(node: str, path: list[str]) -> list[str] | None:
        if node in path:
            return path[path.index(node):] + [node]
        if node in done or node not in requires:
            return None
        for nxt in requires[node]:
            found = walk(nxt, path + [node])
            if found:
                return found
        done.add(node)
        return None

    return next((c for c in (walk(n, []) for n in requires) if c), None)


def problems(readers: Sequence[Reader], steps_of: Callable[[str], Mapping[str, Step]],
             requires: Mapping[str, Sequence[str]]) -> list[str]:
    """What is wrong with the declarations: unknown guarded steps and required ids, findings that
    read a step no anchor guards, and a cycle of requires."""
    found = []
    known = {r.spec.id for r in readers}
    sources = {r.spec.source_name for r in readers}
    for r in readers:
        steps = steps_of(r.spec.source_name)
        found += [f"{r.spec.id} guards {g!r}, which is no declared step of source "
                  f"{r.spec.source_name!r} (harness/sources/{r.spec.source_name}/steps.py)"
                  for g in r.spec.guards if g not in steps]
        found += [f"{r.spec.id} requires {a!r}, which is no claim of its source"
                  for a in r.spec.requires
                  if a not in known and a.split(".", 1)[0] in sources]
        if r.spec.kind is not Kind.ANCHOR:
            guarded = {g for a in readers if a.spec.source_name == r.spec.source_name
                       for g in a.spec.guards}
            found += [f"{r.spec.id} reads step {s!r}, which no anchor guards: declare an anchor's "
                      f"guards=, or the step's unguarded= reason"
                      for s in sorted(r.reads) if s not in guarded and not steps[s].unguarded]
    loop = cycle(requires)
    if loop:
        found.append("anchors require each other in a cycle: " + " -> ".join(loop))
    return found


def _in_order(requires: dict[str, tuple[str, ...]]) -> dict[str, tuple[str, ...]]:
    """Each test's requires, the anchors that require fewest in chain first (so a blocked test
    names the most basic anchor that did not pass); collection order otherwise kept."""
    depth: dict[str, int] = {}

    def deep(node: str) -> int:
        if node not in depth:
            depth[node] = 1 + max(map(deep, requires.get(node, ())), default=0)
        return depth[node]

    return {i: tuple(sorted(r, key=deep)) for i, r in requires.items()}


def _uncollected(items: Sequence[pytest.Item]) -> list[tuple[Callable[..., Any], ClaimSpec]]:
    """The claim tests beside the collected ones (a claims folder's other files) that a selection
    by file left out: their anchors still guard, and block, what was selected."""
    folders = {it.parent.parent for it in items if isinstance(it.parent, pytest.Module)}
    files = {it.path for it in items}
    found = []
    for folder in folders:
        for path in sorted(folder.path.glob("test_*.py")):
            if path not in files:
                module = pytest.Module.from_parent(folder, path=path).obj
                found += [(fn, spec_of(fn)) for name, fn in vars(module).items()
                          if name.startswith("test") and spec_of(fn)]
    return found


def apply(config: pytest.Config, items: Sequence[pytest.Item]) -> None:
    """Give each claim item, selected or deselected, its effective requires, or stop the run
    with every problem the declarations have (pytest.UsageError)."""
    everything = claims_session(config).with_deselected(items)
    claimed = [it for it in everything if SPEC in it.stash]
    tests = {it.stash[SPEC].id: (it.function, it.stash[SPEC]) for it in claimed}
    for fn, spec in _uncollected(claimed):
        tests.setdefault(spec.id, (fn, spec))

    @cache
    def steps_of(name: str) -> dict[str, Step]:
        return {s.name: s for s in source(name).steps}

    readers = [reader(fn, spec, steps_of(spec.source_name)) for fn, spec in tests.values()]
    requires = effective(readers)
    found = problems(readers, steps_of, requires)
    if found:
        raise pytest.UsageError("claims whose requires cannot be derived (harness/plugin/"
                                "guards.py):\n  " + "\n  ".join(found))
    ordered = _in_order(requires)
    for it in claimed:
        it.stash[SPEC] = dataclasses.replace(it.stash[SPEC], requires=ordered[it.stash[SPEC].id])

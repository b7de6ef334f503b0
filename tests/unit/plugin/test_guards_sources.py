"""The sources' own declarations (claims/<source>/, harness/sources/<source>/steps.py), read without
a model: no fault harness.plugin.guards would stop a run on, every finding requires each anchor
guarding a step it reads, and no test waits on an anchor it has fewer resources than."""
from __future__ import annotations

import importlib
import inspect
from functools import cache
from typing import Any, Callable

from harness.claims import ClaimSpec, Kind, Needs, spec_of
from harness.declared_steps import Step
from harness.plugin.guards import effective, problems, reader
from harness.registry import source
from tests.paths import ROOT

HEAVIER = {Needs.CPU: 0, Needs.HUB: 1, Needs.GPU: 2}


@cache
def steps(name: str) -> dict[str, Step]:
    return {s.name: s for s in source(name).steps}


@cache
def claim_tests() -> tuple[tuple[Callable[..., Any], ClaimSpec], ...]:
    """Every claim test under claims/, with its declaration."""
    found = []
    for path in sorted((ROOT / "claims").glob("*/test_*.py")):
        module = importlib.import_module(f"claims.{path.parent.name}.{path.stem}")
        found += [(fn, spec_of(fn)) for name, fn in vars(module).items()
                  if name.startswith("test_") and spec_of(fn)]
    return tuple(found)


@cache
def requires() -> dict[str, tuple[str, ...]]:
    return effective([reader(fn, spec, steps(spec.source_name)) for fn, spec in claim_tests()])


def upstream(fn: Callable[..., Any], declared: dict[str, Step]) -> set[str]:
    """The declared steps `fn` names and every step they read, walked here apart from guards."""
    seen: set[str] = set()
    todo = [p for p in inspect.signature(fn).parameters if p in declared]
    while todo:
        name = todo.pop()
        seen.add(name)
        todo += [i for i in declared[name].inputs if i in declared and i not in seen]
    return seen


def test_the_declarations_have_no_fault_that_stops_a_run():
    readers = [reader(fn, spec, steps(spec.source_name)) for fn, spec in claim_tests()]
    assert problems(readers, steps, requires()) == []


def test_every_finding_requires_each_anchor_guarding_a_step_it_reads():
    anchors = [spec for _, spec in claim_tests() if spec.kind is Kind.ANCHOR]
    missing = {}
    for fn, spec in claim_tests():
        if spec.kind is not Kind.ANCHOR:
            read = upstream(fn, steps(spec.source_name))
            guarding = {a.id for a in anchors
                        if a.source_name == spec.source_name and read & set(a.guards)}
            missing[spec.id] = guarding - set(requires()[spec.id])
    assert not any(missing.values()), missing


def test_no_test_waits_on_an_anchor_that_needs_more_than_it():
    """A `hub` test runs where only tokenizers are (the published profile's CPU tier): an anchor
    it required there that needs the weights would block it."""
    needs = {spec.id: spec.needs for _, spec in claim_tests()}
    heavier = {i: [a for a in r if HEAVIER[needs[a]] > HEAVIER[needs[i]]]
               for i, r in requires().items()}
    assert not any(heavier.values()), heavier

"""The breakage catalogue: small edits of a source's intervention code, each applied to a
temporary copy of one module, after which the source's anchor checks must fail (issue 25).

A source lists its breakages (`breakages.py`: BREAKAGES) and the checks to run (`checks(model,
sizes)`: anchor id -> a callable returning that anchor's failures). Each breakage writes the
edited module to a temporary file (nnsight reads a trace's source from its file), imports it in
place of the original with every other module of the source freshly imported around it, runs
every check, and puts the original modules back.
"""
from __future__ import annotations

import importlib
import importlib.util
import sys
import tempfile
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator

Checks = dict[str, Callable[[], list[str]]]


@dataclass(frozen=True)
class Breakage:
    """One edit: in `module`, the text `old` (found exactly once) becomes `new`; `kind` says
    what it breaks (write nothing, wrong layer, wrong position, wrong row or head, wrong step,
    zero size, …). `gap`, when set, says why no anchor can see it."""

    name: str
    kind: str
    module: str
    old: str
    new: str
    gap: str = ""


@dataclass
class Outcome:
    """What one breakage did: the anchors whose checks failed, with each one's first failure."""

    breakage: Breakage
    failed: dict[str, str] = field(default_factory=dict)
    stale: bool = False  # its text is not found once in the module: the code moved on

    @property
    def caught(self) -> bool:
        return bool(self.failed)


def _package(module: str) -> str:
    """The source package a module of `harness.sources.<name>` belongs to."""
    parts = module.split(".")
    return ".".join(parts[:3])


def _source_text(module: str) -> str:
    spec = importlib.util.find_spec(module)
    if spec is None or spec.origin is None:
        raise ValueError(f"no module {module}")
    return Path(spec.origin).read_text()


@contextmanager
def broken(b: Breakage, folder: Path) -> Iterator[None]:
    """While open, `b.module` is the edited copy and the source's other modules are fresh."""
    package = _package(b.module)
    text = _source_text(b.module)
    # a file of its own per breakage: nnsight and linecache key a trace's source by file name
    copy = folder / f"{len(list(folder.iterdir()))}_{b.module.rsplit('.', 1)[-1]}.py"
    copy.write_text(text.replace(b.old, b.new))
    saved = {k: m for k, m in sys.modules.items() if k.startswith(package + ".")}
    parent = sys.modules[package]
    bound = {k: v for k, v in vars(parent).items() if f"{package}.{k}" in saved}
    for k in saved:
        del sys.modules[k]
    for k in bound:  # `from package import module` reads the package's attribute first
        delattr(parent, k)
    try:
        edited = importlib.util.spec_from_file_location(b.module, copy)
        module = importlib.util.module_from_spec(edited)
        sys.modules[b.module] = module
        edited.loader.exec_module(module)
        yield
    finally:
        for k in [k for k in sys.modules if k.startswith(package + ".")]:
            del sys.modules[k]
            if hasattr(parent, k.rsplit(".", 1)[-1]):
                delattr(parent, k.rsplit(".", 1)[-1])
        sys.modules.update(saved)
        for k, v in bound.items():
            setattr(parent, k, v)


def _failures(checks: Checks, first_only: bool = False) -> dict[str, str]:
    """Each check's first failure, by anchor; with `first_only`, up to the first that fails."""
    found: dict[str, str] = {}
    for anchor, check in checks.items():
        if first_only and found:
            break
        try:
            failed = check()
        except Exception as error:  # a crash in an anchor blocks its claims as a failure does
            failed = [f"raised {type(error).__name__}: {str(error)[:200]}"]
        if failed:
            found[anchor] = str(failed[0])[:300]
    return found


def run(source: str, args: tuple[Any, ...]) -> tuple[dict[str, str], list[Outcome]]:
    """The checks' failures on the unbroken code (must be none), then each breakage's outcome:
    the first anchor, in the order `checks` gives them, whose check failed.
    `source` names `harness.sources.<source>`, whose `breakages` module gives BREAKAGES and
    `checks(*args)`, imported afresh each time so it binds the edited module."""
    name = f"harness.sources.{source}.breakages"

    def checks() -> Checks:
        return importlib.import_module(name).checks(*args)

    clean = _failures(checks())
    outcomes = []
    with tempfile.TemporaryDirectory(prefix="breakage-") as tmp:
        for b in importlib.import_module(name).BREAKAGES:
            if _source_text(b.module).count(b.old) != 1:
                outcomes.append(Outcome(b, stale=True))
                continue
            with broken(b, Path(tmp)):
                outcomes.append(Outcome(b, _failures(checks(), first_only=True)))
    return clean, outcomes


def measured(clean: dict[str, str], outcomes: list[Outcome]) -> dict[str, Any]:
    """The catalogue's record: the catch rate, what each breakage failed, and the known gaps."""
    gaps = [o for o in outcomes if o.breakage.gap]
    tried = [o for o in outcomes if not o.breakage.gap and not o.stale]
    return {"clean_failures": clean, "breakages": len(tried),
            "caught": sum(o.caught for o in tried),
            "missed": [o.breakage.name for o in tried if not o.caught],
            "stale": [o.breakage.name for o in outcomes if o.stale],
            "caught_by": {o.breakage.name: next(iter(o.failed), None) for o in outcomes},
            "kinds": sorted({o.breakage.kind for o in outcomes}),
            "gaps": {o.breakage.name: o.breakage.gap for o in gaps}}


ORGANISMS_ONLY = ("the breakage catalogue runs on the organisms (the tiny profile, in make test): "
                  "it checks that the suite's anchors catch broken intervention code, which does "
                  "not depend on the model")
PROVENANCE = ("the suite's breakage rule: each edit of the intervention code in the source's "
              "breakages.py must fail an anchor (a fire-once, identity, receipt or reference check)")


def claim_fields(statement: str) -> dict[str, Any]:
    """What every source's catalogue test declares beside its id and section."""
    from harness.criteria import Exact, all_of

    return {"kind": "anchor", "statement": statement,
            "published": {"missed": [], "clean_failures": {}, "stale": []},
            "provenance": PROVENANCE,
            "criterion": all_of(Exact("missed"), Exact("clean_failures"), Exact("stale")),
            "headline": "{caught}/{breakages} breakages caught by an anchor; missed: {missed}",
            "decisions": ("each edit is applied to a temporary copy of its module; the checks run "
                          "on the first rows or prompts of the organism, as the anchors do",)}


def judge_catalogue(judge: Callable[[dict[str, Any]], None], record: dict[str, Any]) -> None:
    """A catalogue test's body: fail naming what was missed, stale or failing unbroken, else
    record the catch rate."""
    assert not (record["missed"] or record["clean_failures"] or record["stale"]), record
    judge(record)

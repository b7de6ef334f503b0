"""The breakage catalogue: small edits of a source's intervention code, each applied to a
temporary copy of one module, after which the source's anchor checks must fail (issue 25).

A source lists its breakages (`breakages.py`: BREAKAGES) and the anchors that must catch them
(ANCHORS), whose checks (anchor id -> a callable returning that anchor's failures)
harness.anchor_checks derives from the anchors' own tests. Each breakage is applied by
`harness.breakage_edit.broken` (the edited module in a temporary file, since nnsight reads a
trace's source from its file), the checks run, and the original modules are put back.
"""
from __future__ import annotations

import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping, TypedDict

from harness.anchor_checks import Checks, derived
from harness.breakage_edit import Breakage, Part, broken, source_text
from harness.catalogue_order import in_order
from harness.source import Source, SourcePart
from harness.standard_anchors import StandardAnchor


@dataclass
class Outcome:
    """What one breakage did: the anchors whose checks reported a failure and those whose checks
    raised, each with its first message."""

    breakage: Breakage
    failed: dict[str, str] = field(default_factory=dict)
    crashed: dict[str, str] = field(default_factory=dict)
    stale: bool = False  # its text is not found once in the module: the code moved on

    @property
    def caught(self) -> bool:
        """A check reported a failure, or the breakage declares a crash and one check raised."""
        return bool(self.failed) or (self.breakage.crashes and bool(self.crashed))

    def as_record(self) -> dict[str, Any]:
        """How it came out, which check caught it and that check's message."""
        if self.stale:
            return {"outcome": "stale", "check": None, "message": ""}
        if self.failed:
            check, message = next(iter(self.failed.items()))
            return {"outcome": "caught", "check": check, "message": message}
        if self.crashed:
            check, message = next(iter(self.crashed.items()))
            outcome = "crashed (declared)" if self.breakage.crashes else "crashed (undeclared)"
            return {"outcome": outcome, "check": check, "message": message}
        return {"outcome": "not caught", "check": None, "message": ""}


@dataclass(frozen=True)
class Catalogue:
    """A source's catalogue run: the checks' failures on the unbroken code (must be none), each
    breakage's outcome, and the null edit's (must be not caught)."""

    clean: Outcome
    outcomes: list[Outcome]
    null: Outcome


def _outcome(b: Breakage, checks: Checks, every: bool = False,
             first: Mapping[str, str] | None = None) -> Outcome:
    """Run the checks in order (`catalogue_order.in_order`, the pinned catch `first`) until one
    reports a failure (all of them with `every`), keeping each check's first failure and, apart,
    each exception a check raised."""
    outcome = Outcome(b)
    for anchor, check in in_order(b, checks, first):
        if outcome.caught and not every:
            break
        try:
            failed = check()
        except Exception as error:  # recorded apart: a crash is not a check that caught it
            outcome.crashed[anchor] = f"raised {type(error).__name__}: {str(error)[:200]}"
            continue
        if failed:
            outcome.failed[anchor] = str(failed[0])[:300]
    return outcome


def declared(source: Source) -> tuple[Breakage, ...]:
    """The source's BREAKAGES, from the `breakages` module of its registered package."""
    module = source.part(SourcePart.BREAKAGES)
    if module is None:
        raise ValueError(f"the source {source.name} has no breakages module "
                         f"({source.package}.breakages)")
    return module.BREAKAGES


def owed(source: Source) -> set[Part]:
    """The parts a source's catalogue must cover: its writes, studies and readouts, and its
    fast-mode batching where one of its declared steps is batched."""
    return {Part.WRITE, Part.STUDY, Part.READOUT} | (
        {Part.BATCHING} if any(step.batched for step in source.steps) else set())


def anchored(source: Source, folder: Path, model: Any, sizes: Any,
             profile: Any) -> Callable[[], Checks]:
    """The checks of the anchors the source's `breakages.py` lists (ANCHORS), derived afresh each
    time from the anchors' tests in the claims `folder` (harness.anchor_checks), so that they bind
    the modules a breakage edited: on `model`, at `sizes` (the profile's declared ones)."""
    anchors = source.part(SourcePart.BREAKAGES).ANCHORS
    return lambda: derived(source, anchors, folder, model, sizes, profile)


def run(source: Source, checks: Callable[[], Checks],
        first: Mapping[str, str] | None = None) -> Catalogue:
    """The null edit's outcome (every check), then each breakage's (trying first the check
    `first` names for it: the pinned catch). The null edit is the unbroken text freshly imported,
    so where it fails no check the unbroken code fails none; only where it fails one are the
    checks run on the unbroken code as imported, to tell a failing anchor from a failing edit.
    `checks` is called afresh for each, under its edit."""
    breakages = declared(source)
    unbroken = Breakage("unbroken", "none", f"{source.package}.breakages", "", "")
    outcomes = []
    with tempfile.TemporaryDirectory(prefix="breakage-") as tmp:
        control = breakages[0].null()
        with broken(control, Path(tmp), source.package):
            null = _outcome(control, checks(), every=True)
        clean = (_outcome(unbroken, checks(), every=True) if null.failed or null.crashed
                 else Outcome(unbroken))
        for b in breakages:
            if source_text(b.module).count(b.old) != 1:
                outcomes.append(Outcome(b, stale=True))
                continue
            with broken(b, Path(tmp), source.package):
                outcomes.append(_outcome(b, checks(), first=first))
    return Catalogue(clean, outcomes, null)


class CatalogueRecord(TypedDict):
    """What a catalogue anchor judges (`readout`)."""

    clean_failures: dict[str, str]
    breakages: int
    caught: int
    missed: list[str]
    stale: list[str]
    outcomes: dict[str, dict[str, Any]]
    null_edit_module: str
    null_edit_failures: dict[str, str]
    parts: dict[str, int]
    kinds: list[str]
    gaps: dict[str, str]


def readout(catalogue: Catalogue) -> CatalogueRecord:
    """The catalogue's record: the catch rate, each breakage's outcome with its catching check
    and message, the null edit's failures, the parts it covers and the known gaps."""
    outcomes = catalogue.outcomes
    gaps = [o for o in outcomes if o.breakage.gap]
    tried = [o for o in outcomes if not o.breakage.gap and not o.stale]
    null = catalogue.null
    return {"clean_failures": {**catalogue.clean.failed, **catalogue.clean.crashed},
            "breakages": len(tried),
            "caught": sum(o.caught for o in tried),
            "missed": [o.breakage.name for o in tried if not o.caught],
            "stale": [o.breakage.name for o in outcomes if o.stale],
            "outcomes": {o.breakage.name: o.as_record() for o in outcomes},
            "null_edit_module": null.breakage.module,
            "null_edit_failures": {**null.failed, **null.crashed},
            "parts": {str(p): sum(o.breakage.part is p for o in tried) for p in Part},
            "kinds": sorted({o.breakage.kind for o in outcomes}),
            "gaps": {o.breakage.name: o.breakage.gap for o in gaps}}


# Each source's catalogue fixture (harness/plugin/step_fixtures.py), which skips but on organisms: the
# published plan leaves its work out.
FIXTURE = "{source}_breakages"
ORGANISMS_ONLY = ("the breakage catalogue runs on the organisms (the tiny profile, in make test): "
                  "it checks that the suite's anchors catch broken intervention code, which does "
                  "not depend on the model")
PROVENANCE = ("the suite's breakage rule: each edit of the intervention code in the source's "
              "breakages.py must fail an anchor (a fire-once, identity, receipt or reference check)")


RULE = StandardAnchor(
    {"missed": [], "clean_failures": {}, "stale": [], "null_edit_failures": {}}, readout=readout,
    headline="{caught}/{breakages} breakages caught by an anchor; missed: {missed}",
    provenance=PROVENANCE,
    decisions=("each edit is applied to a temporary copy of its module; the checks run on the "
               "first rows or prompts of the organism, as the anchors do",
               "an exception counts as caught only where the breakage declares that it crashes; "
               "the null edit (the first breakage's module copied unchanged, every module of the "
               "source imported afresh) must fail no check; the checks run again on the unbroken "
               "code as imported only where the null edit fails one, so a failing anchor is told "
               "from a failing edit",
               "each breakage tries first the check that caught it in the pinned record, then the "
               "others in order, so a catch that still holds costs one check; a pinned catch "
               "that no longer fails moves the record's catching check, which the snapshot shows"))
claim_fields = RULE.fields  # a catalogue test's fields: claim_fields(statement)


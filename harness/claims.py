"""Claim declarations: the register id, kind, statement, published values and criterion of a test."""
from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Callable, Mapping, TypeVar

from harness.criteria import Criterion, KnownAnswer
from harness.nulls import NoNull, Null
from harness.register import row_of
from harness.snapshots import EXACT, ORGANISM_FLOATS, ORGANISM_FLOATS_REASON, Tolerance
from harness.source import Source
from harness.registry import registered, source_names

CLAIM_ATTR = "__interp_claim__"


class Kind(StrEnum):
    ANCHOR = "anchor"
    CLAIM = "claim"
    MEASUREMENT = "measurement"


class Needs(StrEnum):
    """What the published form of a test needs: nothing, the tokenizer, or the weights."""

    CPU = "cpu"
    HUB = "hub"
    GPU = "gpu"


@dataclass(frozen=True)
class Holds:
    """What an anchor must measure, beside its published criterion: `criterion`, judged against
    the declared published values. A mechanical one (bit-identity, a patch that fires) holds on
    every profile. A `behavioural` one describes a competent model's answers: it is judged where
    the published values do not apply (the organisms), and not on rows forced past a behavioural
    filter (the rehearsal's random weights)."""

    criterion: Criterion
    behavioural: bool = False

    def describe(self) -> str:
        kind = "behavioural" if self.behavioural else "mechanical"
        return f"{self.criterion.describe()} ({kind})"


@dataclass(frozen=True)
class ClaimSpec:
    """Everything a test declares about the finding it checks."""

    id: str
    kind: Kind
    section: str
    statement: str
    published: Mapping[str, Any]
    provenance: str
    criterion: Criterion
    requires: tuple[str, ...] = ()  # beside the anchors guarding its steps: other prerequisites
    needs: Needs = Needs.GPU
    tolerance: Tolerance = EXACT
    decisions: tuple[str, ...] = ()
    organism_tolerance: Tolerance | None = None
    organism_tolerance_reason: str = ""
    headline: str = ""
    tokenizer_only: bool = False  # a `hub` test that reads the tokenizer alone, on any device
    holds: Holds | None = None  # an anchor's own check, beside its published criterion
    known_answer: KnownAnswer | None = None  # judged on an organism that planted it
    guards: tuple[str, ...] = ()  # an anchor's: the declared steps of its source it checks
    null: Null | NoNull | None = None  # a finding's: its measurement with no effect (issue 47)
    source_name: str = field(init=False, default="")

    def __post_init__(self) -> None:
        object.__setattr__(self, "source_name", self.id.split(".", 1)[0])
        if self.source_name not in source_names():
            raise ValueError(f"{self.id}: unknown source {self.source_name!r}")
        if self.kind is not Kind.ANCHOR and any(r == self.id for r in self.requires):
            raise ValueError(f"{self.id} requires itself")
        if self.organism_tolerance is not None and not self.organism_tolerance_reason:
            raise ValueError(f"{self.id}: an organism tolerance needs a reason")
        if self.guards and self.kind is not Kind.ANCHOR:
            raise ValueError(f"{self.id}: only an anchor declares the steps it guards")
        if self.null is not None and self.kind is Kind.ANCHOR:
            raise ValueError(f"{self.id}: an anchor checks machinery; only a finding has a null")
        if self.holds is not None and self.kind is not Kind.ANCHOR:
            raise ValueError(f"{self.id}: only an anchor declares what holds on every profile")
        if self.needs is Needs.CPU and self.kind is Kind.CLAIM:
            raise ValueError(f"{self.id}: a finding needs its model (needs='hub' or 'gpu'); "
                             "needs='cpu' is for model-free checks, whose published values "
                             "apply on every profile, so a finding would read 'replicated' on "
                             "the organisms")
        if self.tokenizer_only and self.needs is not Needs.HUB:
            raise ValueError(f"{self.id}: tokenizer_only is for needs='hub' tests")

    def float_tolerance(self, published_values_apply: bool) -> tuple[Tolerance, str]:
        """The tolerance its snapshot's floats compare within, and why that one."""
        if published_values_apply:
            return self.tolerance, "declared by the claim for the published profile"
        if self.organism_tolerance is not None:
            return self.organism_tolerance, self.organism_tolerance_reason
        return ORGANISM_FLOATS, ORGANISM_FLOATS_REASON

    @property
    def source(self) -> Source:
        return registered()[self.source_name]

    def headline_of(self, values: Mapping[str, Any] | None) -> str | None:
        """The headline's format string filled from measured or published values (a missing
        value shows as an em dash); None without a headline or values."""
        if not self.headline or not values:
            return None
        return self.headline.format_map(_Lenient(values))

    def as_record(self) -> dict[str, Any]:
        """The declaration as it appears in the run record."""
        return {
            "id": self.id, "kind": str(self.kind), "source": self.source_name,
            "section": self.section, "statement": self.statement,
            "seed": self.source.seed_file, "published": dict(self.published),
            "provenance": self.provenance, "criterion": self.criterion.describe(),
            "requires": list(self.requires), "needs": str(self.needs),
            "decisions": list(self.decisions),
            "holds": self.holds.describe() if self.holds else None,
            "known_answer": self.known_answer.describe() if self.known_answer else None,
            "null": self.null.describe() if self.null else None,
        }


class _Absent:
    """A value the headline cannot format: a key the dict lacks shows as an em dash and a None
    as "none", whatever the format spec."""

    def __init__(self, text: str = "—") -> None:
        self.text = text

    def __format__(self, spec: str) -> str:
        return self.text

    def __getitem__(self, key: Any) -> "_Absent":
        return self


class _Lenient(dict):
    def __getitem__(self, key: str) -> Any:
        value = super().__getitem__(key)
        return _Absent("none") if value is None else value

    def __missing__(self, key: str) -> _Absent:
        return _Absent()


F = TypeVar("F", bound=Callable[..., Any])


def registered_kind(id: str, kind: Kind | str | None, section: str | None) -> tuple[Kind, str]:
    """A claim's kind and section: those of the register row that carries it, written there
    alone (a row without a section column leaves its section to the declaration); a check no
    row carries declares both."""
    row = row_of(id)
    if row is None:
        if kind is None or section is None:
            raise TypeError(f"{id}: no register row carries it, so it declares its kind and "
                            f"section")
        return Kind(kind), section
    if kind is not None or (section is not None and row.section):
        given = f"kind ({row.kind}) and section ({row.section})" if row.section \
            else f"kind ({row.kind})"
        raise TypeError(f"{id}: its register row gives its {given}: the declaration repeats "
                        f"neither")
    if not (row.section or section):
        raise TypeError(f"{id}: its register row has no section column: declare its section")
    return Kind(row.kind), row.section or section


def claim(
    id: str,
    *,
    kind: Kind | str | None = None,
    section: str | None = None,
    statement: str,
    published: Mapping[str, Any],
    provenance: str,
    criterion: Criterion,
    requires: tuple[str, ...] | list[str] = (),
    needs: Needs | str = Needs.GPU,
    tolerance: Tolerance = EXACT,
    decisions: tuple[str, ...] | list[str] = (),
    organism_tolerance: Tolerance | None = None,
    organism_tolerance_reason: str = "",
    headline: str = "",
    tokenizer_only: bool = False,
    holds: Holds | None = None,
    known_answer: KnownAnswer | None = None,
    guards: tuple[str, ...] | list[str] = (),
    null: Null | NoNull | None = None,
    reads: tuple[str, ...] | str = (),
    readout: Callable[..., Any] | None = None,
) -> Any:
    """Attach a ClaimSpec to a test function; the plugin turns it into markers and a verdict. Its
    kind and section are its register row's (registered_kind). The statement may name published
    values ("IIA {peak_iia} at layer {peak_layer}"), so that each number is declared once. An
    anchor names the steps it `guards`; a test requires every anchor guarding a step it reads
    (harness/plugin/guards.py), and `requires` names any other. A finding declares its `null`
    (harness.nulls). Given the `readout` it judges and the steps it `reads`, the declaration is
    the test itself (harness.claim_tests): `test_x = claim(...)`."""
    kind, section = registered_kind(id, kind, section)
    spec = ClaimSpec(id=id, kind=kind, section=section,
                     statement=statement.format_map(published),
                     published=published, provenance=provenance, criterion=criterion,
                     requires=tuple(requires), needs=Needs(needs), tolerance=tolerance,
                     decisions=tuple(decisions), organism_tolerance=organism_tolerance,
                     organism_tolerance_reason=organism_tolerance_reason, headline=headline,
                     tokenizer_only=tokenizer_only, holds=holds, known_answer=known_answer,
                     guards=tuple(guards), null=null)

    def attach(fn: F) -> F:
        setattr(fn, CLAIM_ATTR, spec)
        return fn

    if readout is None:
        if reads:
            raise TypeError(f"{id}: `reads` names a declared readout's steps: declare its readout")
        return attach
    from harness.claim_tests import judging_test

    return attach(judging_test(id, readout, (reads,) if isinstance(reads, str) else tuple(reads)))


def spec_of(obj: Any) -> ClaimSpec | None:
    """The ClaimSpec a test function carries, if any."""
    return getattr(obj, CLAIM_ATTR, None)

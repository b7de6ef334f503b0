"""An anchor every source declares alike (the fire-once rule, seed 000 §6; the breakage
catalogue): its published values, criterion, headline and decisions declared once, by one
factory; each claim adds its statement and, where the rule names none, its provenance."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Mapping


@dataclass(frozen=True)
class StandardAnchor:
    """A rule every source applies: each published key must hold exactly as declared, on every
    profile (its holds), so a broken rule fails through the judge with its measured values."""

    published: Mapping[str, Any]
    headline: str
    readout: Callable[..., Any]  # what each claim applying the rule judges, of the step it reads
    provenance: str = ""  # "": each claim names its own
    decisions: tuple[str, ...] = ()

    def fields(self, statement: str, provenance: str = "") -> dict[str, Any]:
        """What a claim applying the rule declares beside its id, section and requirements."""
        from harness.claims import Holds
        from harness.criteria import Exact, all_of

        if bool(provenance) == bool(self.provenance):
            raise TypeError("a provenance is given by the rule or by the claim, once")
        criterion = all_of(*(Exact(key) for key in self.published))
        return {"kind": "anchor", "statement": statement, "published": dict(self.published),
                "provenance": provenance or self.provenance, "criterion": criterion,
                "holds": Holds(criterion),
                "headline": self.headline, "readout": self.readout,
                **({"decisions": self.decisions} if self.decisions else {})}

"""An intervention declared once (issue 46 §2, after pyvene's sites read by one engine): the
model an experiment runs on, its own function and the sites it must leave, and where it has one
the same experiment on each row's own values. Its anchors derive from the declaration: it
fires once (harness.fire_once), its own-values run is the identity (harness.identity_check, seed
003 §4's self-patch) and its batched rows hold alone (harness.rows_alone, issue 36); `steps`
declares their steps."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from torch import nn

from harness.declared_steps import Step
from harness.fire_once import NEEDS_LOCAL_WEIGHTS, FireOnce, check_writes
from harness.identity_check import Identical, check_identity
from harness.replay import Reference, Site
from harness.rows_alone import AloneRows, check_rows


@dataclass(frozen=True)
class Intervention:
    """An experiment's writes: the transformers model it runs on in this process, its run, the
    sites that run must leave (from its unedited replay), whether any lies inside the blocks,
    and the same experiment run on every row's own values (`own`), where its positions read are
    the positions it writes."""

    hf: nn.Module
    run: Callable[[], Any]
    sites: Callable[[list[Reference]], list[Site]]
    within: bool = False
    own: Intervention | None = None


def fires(intervention: Intervention | dict[str, Intervention]
          ) -> FireOnce | dict[str, FireOnce]:
    """The fire-once check of the declared run (of each part, where several are declared)."""
    if isinstance(intervention, dict):
        return {name: fires(part) for name, part in intervention.items()}
    i = intervention
    return check_writes(i.hf, i.run, i.sites, i.within)


def identity(intervention: Intervention) -> Identical:
    """The identity check of the declared own-values run."""
    own = intervention.own
    if own is None:
        raise TypeError("an identity is derived only from an intervention that declares its "
                        "own-values run")
    return check_identity(own.hf, own.run, own.sites, own.within)


def rows_alone(intervention: Intervention) -> AloneRows:
    """The declared run's rows, a few of each forward, re-run alone."""
    i = intervention
    return check_rows(i.hf, i.run, i.sites, i.within)


DERIVED = {"fires": fires, "identity": identity, "rows_alone": rows_alone}


def steps(base: str, declare: Callable[..., Intervention], inputs: tuple[str, ...],
          derived: tuple[str, ...], batched: bool = False,
          given: tuple[Any, ...] = ()) -> tuple[Step, ...]:
    """The declaring step (`<base>_writes`, `declare(*inputs, *given)`) and one step per derived check
    (`<base>_fires`, `<base>_identity`, `<base>_rows_alone`), each run on the weights here."""
    unknown = [d for d in derived if d not in DERIVED]
    if unknown or not derived:
        raise ValueError(f"{base}: derived checks are some of {list(DERIVED)}, not {derived}")
    declared = f"{base}_writes"
    return (Step(declared, declare, inputs, given, batched=batched,
                 local_weights=NEEDS_LOCAL_WEIGHTS),
            *(Step(f"{base}_{d}", DERIVED[d], (declared,), local_weights=NEEDS_LOCAL_WEIGHTS)
              for d in derived))

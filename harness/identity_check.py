"""The identity an intervention owes where it writes each row's own values (seed 003 §4's
self-patch, derived for any declared intervention; issue 46 §2): run through the experiment's
own code with every value it copies read from the row it writes into, at the same positions,
it must leave every block, every place inside the blocks it writes and the output bit-identical
to the unedited replay of the same forwards (harness.fire_once's recording and replay)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

import torch
from torch import nn

from harness.compared_writes import WHERE, Comparison, recorded_sites
from harness.replay import Reference, RunMismatch, Site, loops
from harness.standard_anchors import StandardAnchor

# What an identity anchor declares it must measure: every check true, on every profile.
IDENTITY = {"own_values": True, "unmoved": True, "output_equal": True}


@dataclass
class Identical:
    """What the identity run showed: the sites it wrote, whether each value written was the
    row's own, whether every recorded block (and place inside) and every output equalled the
    unedited replay's, the largest output difference, and every failure in words."""

    sites: int
    own_values: bool
    unmoved: bool
    output_equal: bool
    max_abs_diff: float
    failures: list[str] = field(default_factory=list)


def _own(sites: list[Site], refs: list[Reference]) -> list[str]:
    """A failure for each site whose value is not what its row held unedited: the run on own
    values is then no identity (its positions differ from the positions it reads, or it reads
    another row), and the anchor was declared where it has none."""
    failures = []
    for s in sites:
        held = refs[s.forward].unedited(s)
        if not torch.equal(s.value.to(held), held):
            failures.append(f"forward {s.forward} {WHERE[s.place].format(s.layer)} rows "
                            f"{list(s.rows)} positions {list(s.positions)}: the value declared "
                            f"there is not the row's own")
    return failures


def check_identity(hf: nn.Module, run: Callable[[], Any],
                   sites_for: Callable[[list[Reference]], list[Site]],
                   within: bool = False) -> Identical:
    """Run the experiment on own values (`run`) once under harness.fire_once's hooks, resolve
    its declared sites against the unedited replay, and require each value the row's own and
    the whole run, every block and every output made, the replay's exactly."""
    try:
        _, recorded, refs, sites = recorded_sites(hf, run, sites_for, within)
    except RunMismatch as mismatch:
        return Identical(0, False, False, False, float("inf"), [str(mismatch)])
    own = _own(sites, refs)
    failures = list(own)
    state = Comparison(refs, [], loops(recorded.forwards))  # nothing written: nothing may move
    state.compare_run(recorded)
    unseen = [s for s in sites if (s.place, s.forward, s.layer) not in state.seen]
    failures += [f"forward {s.forward} {WHERE[s.place].format(s.layer)} was never reached"
                 for s in unseen]
    equal, diff, edited = True, 0.0, {s.forward for s in sites}
    for f, got in enumerate(recorded.heads):
        if got is None:  # a forward that stops early (a read-only pass) need not; a written one must
            if f in edited:
                equal, diff = False, float("inf")
                failures.append(f"forward {f} never reached the output")
            continue
        diff = max(diff, float((got - refs[f].head).abs().max()))
        if not torch.equal(got, refs[f].head):
            equal = False
            failures.append(f"forward {f}: the output differs from the unedited run's")
    if not sites:
        failures.append("no site to check: the run on own values wrote nothing")
    written = bool(sites)
    return Identical(len(sites), written and not own and not unseen, written and state.untouched,
                     written and equal, diff, state.failures + failures)


def readout(result: Identical) -> dict[str, Any]:
    """The three checks, the largest output difference, the sites written and the first
    failures."""
    return {"own_values": result.own_values, "unmoved": result.unmoved,
            "output_equal": result.output_equal, "max_abs_diff": result.max_abs_diff,
            "sites": result.sites, "failures": result.failures[:5]}


RULE = StandardAnchor({**IDENTITY, "max_abs_diff": 0.0, "failures": []}, readout=readout,
                      headline=("own values written: {own_values}; nothing moved: {unmoved}; "
                                "output identical: {output_equal} (max abs diff "
                                "{max_abs_diff:.3g})"))
claim_fields = RULE.fields  # an identity anchor's fields: claim_fields(statement, provenance)

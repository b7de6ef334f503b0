"""Fire-once anchors (seed 000 §6's "changing one thing changes exactly that"): an intervention,
run through the experiment's own code, writes the value it was asked to write, at the block,
rows and positions it was asked to, in the forward it was asked to, and changes nothing it
could not have changed; and plain-PyTorch forward hooks writing the same values give the same
output (the independent reference).

The experiment runs once under hooks on its transformers modules, which record each forward's
inputs (a pre-hook on the model's root) and every block's output; each output is then compared
with an unedited replay of those inputs through the plain transformers model. A decode loop's
forwards replay in order, on a key-value cache of the replay's own, fed the tokens the edited
run read.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, TypedDict

import torch
from torch import nn

from harness.standard_anchors import StandardAnchor
from harness.compared_writes import Comparison, reaches_output, recorded_sites
from harness.replay import Reference, RunMismatch, Site, loops

# bf16 keeps 8 significant bits: a replay writing the same values may differ from nnsight's run
# only by the kernels' reduction order, bounded here at a few units in the last place.
BF16_REFERENCE_RTOL = 2 ** -6
BF16_REFERENCE_ATOL = 2 ** -6

NEEDS_LOCAL_WEIGHTS = ("a fire-once anchor reads every block through plain forward hooks on the "
                       "model in this process; on NDIF it runs remotely: run it with --backend=local")

# What a fire-once anchor declares it must measure: every check true, on every profile.
FIRES_ONCE = {"site_holds_value": True, "untouched_identical": True, "output_changed": True,
              "reference_equal": True}


@dataclass
class FireOnce:
    """What the comparison found: each check, and every failure in words naming the machinery."""

    sites: int
    site_holds_value: bool
    untouched_identical: bool
    output_changed: bool
    reference_equal: bool
    failures: list[str] = field(default_factory=list)


def check_writes(hf: nn.Module, run: Callable[[], Any],
                 sites_for: Callable[[list[Reference]], list[Site]],
                 within: bool = False) -> FireOnce:
    """Run the experiment (`run`) once on the transformers model `hf` (the one it runs on, in
    this process) under hooks recording its inputs and block outputs (and, `within` the blocks,
    what entered each and what its attention output projection consumed, for input and head
    sites), build its intended sites from
    the unedited replay of its forwards, compare every recorded block with that replay, and
    replay once more with the sites written by plain hooks for the reference output."""
    try:
        model, recorded, refs, sites = recorded_sites(hf, run, sites_for, within)
    except RunMismatch as mismatch:  # the run did not make what the sites describe
        return FireOnce(0, False, False, False, False, [str(mismatch)])
    edited = sorted({s.forward for s in sites})
    # A forward whose every value is already there (a copy where clean and corrupted agree) is
    # still checked, but cannot show a write happened; at least one forward must.
    inert = [f for f in edited if all(torch.equal(s.value.to(refs[f].blocks[s.layer]),
                                                  refs[f].unedited(s).to(refs[f].blocks[s.layer]))
                                      for s in sites if s.forward == f)]
    state = Comparison(refs, sites, loops(recorded.forwards))
    state.compare_run(recorded)
    state.unseen()
    failures, heads = state.failures, recorded.heads
    written = model.replay(recorded.forwards, sites) if edited else []
    changed, equal = bool(edited), bool(edited)
    for f in edited:
        got, rows = heads[f], sorted({r for s in sites if s.forward == f for r in s.rows})
        if got is None:  # the forward never reached the head
            changed = equal = False
            continue
        length = refs[f].blocks[0].shape[1]
        if f not in inert and reaches_output(sites, f, len(model.blocks), length,
                                             model.inside.projections if model.inside else ()) \
                and torch.equal(got[rows], refs[f].head[rows]):
            changed = False
            failures.append(f"forward {f}: the written rows' output did not change")
    for f, ref in enumerate(written):
        got = heads[f]
        exact = ref.blocks[0].dtype == torch.float32
        if got is None or not (torch.equal(got, ref.head) if exact else torch.allclose(
                got, ref.head, rtol=BF16_REFERENCE_RTOL, atol=BF16_REFERENCE_ATOL)):
            equal = False
            diff = "none made" if got is None else f"max abs diff {float((got - ref.head).abs().max()):.3g}"
            failures.append(f"forward {f}: the plain forward-hook write gives other logits ({diff})")
    if not edited:
        failures.append("no site to check: the anchor wrote nothing")
    elif len(inert) == len(edited):
        failures.append("every value to be written is already there, so a write that never "
                        "happened would pass")
    return FireOnce(len(sites),
                    state.holds and bool(sites) and len(inert) < len(edited),
                    state.untouched, changed, equal, failures)


def all_hold(result: FireOnce | dict[str, FireOnce]) -> dict[str, bool]:
    """The four checks of an anchor of one or several parts, each true where every part passed."""
    parts = list(result.values()) if isinstance(result, dict) else [result]
    return {key: all(getattr(p, key) for p in parts) for key in FIRES_ONCE}


def failures(result: FireOnce | dict[str, FireOnce]) -> list[str]:
    """Every part's failures, prefixed with the part's name where there are several."""
    if isinstance(result, dict):
        return [f"{name}: {msg}" for name, part in result.items() for msg in part.failures]
    return list(result.failures)


class FireOnceRecord(TypedDict):
    """What a fire-once anchor judges (`readout`)."""

    site_holds_value: bool
    untouched_identical: bool
    output_changed: bool
    reference_equal: bool
    sites: dict[str, int]
    failures: list[str]


def readout(result: FireOnce | dict[str, FireOnce]) -> FireOnceRecord:
    """What a fire-once anchor records: the four checks, the sites it checked (per part where
    there are several; the forwards they fall in depend on the mode's batching, so are left out)
    and the first failures."""
    parts = result if isinstance(result, dict) else {"": result}
    return {**all_hold(result), "sites": {name or "all": p.sites for name, p in parts.items()},
            "failures": failures(result)[:5]}


# The rule: the four checks true and no failure recorded (any failure fails it, as each sets a
# check false too).
RULE = StandardAnchor({**FIRES_ONCE, "failures": []}, readout=readout, headline=(
    "written value there: {site_holds_value}; nothing else moved: {untouched_identical}; output "
    "moved: {output_changed}; plain-hook reference equal: {reference_equal}"))
claim_fields = RULE.fields  # a fire-once anchor's fields: claim_fields(statement, provenance)


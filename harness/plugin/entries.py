"""A claim test's line of the run record (its Entry), made from its declaration and what its
judge found."""
from __future__ import annotations

import os

import pytest

from harness.claims import ClaimSpec, Kind, Needs
from harness.plugin.forcing import forced_notes
from harness.plugin.state import AUDIT, TestState, claims_session
from harness.profiles import Profile
from harness.reporting.record import Entry
from harness.source import SourcePart
from harness.verdicts import Drift, Failure, Verdict, verdict_for


def applies_published(prof: Profile, spec: ClaimSpec) -> bool:
    """Published values apply on the published profile, and to model-free [cpu] checks anywhere;
    a test with no published value has nothing to apply."""
    return bool(spec.published) and (prof.published_values_apply or spec.needs is Needs.CPU)


def peak_gpu_bytes() -> int | None:
    """The most CUDA memory allocated since this test's setup began (None without CUDA)."""
    import torch

    return torch.cuda.max_memory_allocated() if torch.cuda.is_initialized() else None


# Passes where published values do not apply: the run's banner says why, once.
UNJUDGED = (Verdict.NOT_APPLICABLE, Verdict.HELD, Verdict.RECOVERED)


def organism_note(prof: Profile, spec: ClaimSpec) -> str | None:
    """On a profile that runs its source's organism: what the organism's construction forces in
    this finding and what it leaves to training (the source's optional organism_notes module)."""
    model = prof.models.get(spec.source_name)
    runs_organism = model is not None and model.organism
    notes = spec.source.part(SourcePart.ORGANISM_NOTES) if runs_organism else None
    return getattr(notes, "CLAIM_NOTES", {}).get(spec.id)


def entry_of(item: pytest.Item, spec: ClaimSpec, state: TestState) -> Entry:
    session = claims_session(item.config)
    prof = session.profile
    recovered = (state.known_answer or {}).get("outcome") == "recovered"
    accepts_null = bool((state.null_check or {}).get("accepts_null"))
    verdict = verdict_for(state.outcome, skip_reason=state.message,
                          published_profile=applies_published(prof, spec), failure=state.failure,
                          anchor=spec.kind is Kind.ANCHOR, recovered=recovered,
                          accepts_null=accepts_null)
    if verdict is Verdict.HELD and state.holds_check and state.holds_check.get("ok") is None:
        verdict = Verdict.NOT_APPLICABLE  # its own check was not judged (forced rows): not held
    decl = spec.as_record()
    message = state.message.splitlines()[0] if state.message else ""
    if verdict is Verdict.INCONCLUSIVE:
        message = f"inconclusive: its criterion accepts the null too ({state.null_check['detail']})"
    if verdict in UNJUDGED and state.failure is not Failure.DRIFT:
        message = ""  # why published values do not apply is said once, in the run's banner
    return Entry(
        nodeid=item.nodeid, **{k: decl[k] for k in ("id", "kind", "source", "statement",
                                                   "section", "published", "provenance",
                                                   "criterion", "requires", "decisions",
                                                   "needs")},
        verdict=verdict, outcome=state.outcome, message=message,
        measured=state.measured, criterion_check=state.criterion_check,
        holds_check=state.holds_check, forced=forced_notes(item) or None,
        known_answer=state.known_answer,
        snapshot=state.snapshot.comparison,
        drift=state.snapshot.drift,
        drift_detail=(list(state.snapshot.differences[:20])
                      if state.snapshot.drift is Drift.DRIFTED else []),
        tolerance=state.tolerance, sensitivity=state.sensitivity, null_check=state.null_check,
        duration=round(state.duration, 3),
        headline={"text": spec.headline or None,
                  "measured": spec.headline_of(state.measured),
                  "published": spec.headline_of(spec.published)
                  if applies_published(prof, spec) else None},  # not a comparison on organisms
        peak_gpu_bytes=peak_gpu_bytes(),
        mode=session.mode.value,
        generalisation=prof.generalisation.get(spec.source_name),
        gpu=os.environ.get("CUDA_VISIBLE_DEVICES"),
        worker=os.environ.get("PYTEST_XDIST_WORKER"),
        device_audit=sorted(set(item.stash.get(AUDIT, []))) or None,
        organism_note=organism_note(prof, spec))


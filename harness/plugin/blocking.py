"""Ordering and blocking: anchors run before what requires them, and a failed anchor blocks."""
from __future__ import annotations

import pytest

from harness.models.backends import Backend, ndif_skip_reason
from harness.claims import ClaimSpec, Kind, Needs
from harness.plugin.guards import apply as derive_requires
from harness.plugin.release import release_between_folders
from harness.plugin.splitting import select_units
from harness.plugin.state import SPEC, claims_session
from harness.registry import registered
from harness.verdicts import BLOCKED_PREFIX


def pytest_deselected(items: list[pytest.Item]) -> None:
    if items:
        claims_session(items[0].config).deselect(items)


def resource_reason(item: pytest.Item, spec: ClaimSpec) -> str | None:
    """Why this test cannot run its published form on this machine (None where the profile loads
    no published files, or where it can)."""
    session = claims_session(item.config)
    prof, retarget = session.profile, session.retarget_reasons
    if session.backend is Backend.NDIF:
        return (ndif_reason(item.config, spec.source_name) or retarget.get(spec.source_name)
                or _ndif_files_reason(item.config, spec))
    if spec.source_name in retarget:
        return retarget[spec.source_name]
    if not prof.rules.published_files or spec.needs is Needs.CPU:
        return None
    model = prof.models.get(spec.source_name)
    if model is None:
        return f"the {prof.name.value} profile has no model for source {spec.source_name!r}"
    from harness.models.resources import published_reason

    return published_reason(model, spec.needs.value, needs_cuda=prof.rules.needs_cuda,
                            tokenizer_only=spec.tokenizer_only)


def _ndif_files_reason(config: pytest.Config, spec: ClaimSpec) -> str | None:
    """On NDIF a test needs the model's config and tokenizer here, not its weights or CUDA."""
    from harness.models.resources import weights_reason

    model = claims_session(config).profile.models[spec.source_name]
    return weights_reason(model) or weights_reason(model, "tokenizer_config.json")


def ndif_reason(config: pytest.Config, source: str) -> str | None:
    """Why `source`'s tests do not run on NDIF (asked once per source): its experiments are not
    written for a remote model, no key, the service down, or the model not served."""
    session = claims_session(config)

    def reason() -> str | None:
        if not registered()[source].remote:
            return (f"source {source}'s experiments read the model outside traces "
                    f"(plain-PyTorch forwards), which a model on NDIF cannot serve")
        model = session.profile.models.get(source)
        return ndif_skip_reason(model.hf_id if model else None)

    return session.backend_reason(source, reason)


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config,
                                  items: list[pytest.Item]) -> None:
    """Drop the unit items that do not split this run; derive each claim's requires from the
    steps it reads (guards.py); bring back deselected anchors that selected, runnable claims
    require; run anchors first."""
    dropped = select_units(config, items)
    if dropped:
        gone = set(map(id, dropped))
        items[:] = [it for it in items if id(it) not in gone]
        config.hook.pytest_deselected(items=dropped)
    derive_requires(config, items)
    by_id = {it.stash[SPEC].id: it for it in claims_session(config).with_deselected(items)
             if SPEC in it.stash}
    selected = set(map(id, items))
    wanted: list[pytest.Item] = []
    stack = [it for it in items if SPEC in it.stash and resource_reason(it, it.stash[SPEC]) is None]
    while stack:
        for anchor_id in stack.pop().stash[SPEC].requires:
            anchor = by_id.get(anchor_id)
            if anchor is not None and id(anchor) not in selected:
                selected.add(id(anchor))
                wanted.append(anchor)
                stack.append(anchor)
    items.extend(wanted)
    first_seen: dict[str, int] = {}
    for i, it in enumerate(items):
        first_seen.setdefault(_group(it), i)
    order = {id(it): i for i, it in enumerate(items)}
    items.sort(key=lambda it: (first_seen[_group(it)], _level(it, by_id), order[id(it)]))


def _group(item: pytest.Item) -> str:
    return item.stash[SPEC].source_name if SPEC in item.stash else item.nodeid.split("::")[0]


def _level(item: pytest.Item, by_id: dict[str, pytest.Item]) -> int:
    """Anchors before findings, each after every anchor it requires however deep the chain: it
    requires, directly or through them, more anchors than each of them does."""
    if SPEC not in item.stash:
        return 0
    if item.stash[SPEC].kind is not Kind.ANCHOR:
        return len(by_id)  # more than any anchor requires
    below: set[str] = set()
    stack = list(item.stash[SPEC].requires)
    while stack:
        anchor_id = stack.pop()
        if anchor_id in by_id and anchor_id not in below:
            below.add(anchor_id)
            stack += by_id[anchor_id].stash[SPEC].requires
    return len(below)


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    release_between_folders(item)  # before this test's peak-memory reading starts
    spec = item.stash.get(SPEC, None)
    if spec is None:
        return
    claims_session(item.config).test_started(item.nodeid)
    import torch

    if torch.cuda.is_initialized():
        torch.cuda.reset_peak_memory_stats()
    reason = resource_reason(item, spec)
    if reason:
        pytest.skip(reason)
    for anchor_id in spec.requires:
        status, message = claims_session(item.config).anchor_outcome(anchor_id)
        if status != "passed":
            pytest.skip(f"{BLOCKED_PREFIX}{anchor_id}: {message}")

"""The suite's pytest plugin, which harness.plugin registers for a session that runs the suite:
profile and markers here; ordering and blocking, judging and the run record in the modules
beside it, which pytest registers as plugins of their own (`pytest_plugins`)."""
from __future__ import annotations

import pytest

from harness.models import determinism
from harness.models.backends import Backend, register_trace_code
from harness.claims import Kind, Needs, spec_of
from harness.generalisation import Override
from harness.profile_variants import RehearsalAsks, generalised, rehearsal
from harness.models.handle import Loaded
from harness.models.loaded import load
from harness.plugin.splitting import UNITS_FILE, make_store, remove_store, worker_count
from harness.plugin.state import SESSION, SPEC, ClaimsSession, claims_session
from harness.profiles import Mode, Profile, ProfileName
from harness.registry import get_profile

pytest_plugins = ("harness.plugin.blocking", "harness.plugin.device_audit", "harness.plugin.judging",
                  "harness.plugin.metering", "harness.plugin.planning", "harness.plugin.readout_check",
                  "harness.plugin.recording", "harness.plugin.release", "harness.plugin.scheduling",
                  "harness.plugin.source_folders")

MARKERS = {
    "gpu": "the nightly's published replication: needs the published weights (and CUDA, but for "
           "the CPU-sized ones, also marked hub)",
    "hub": "needs the published tokenizer or weights files (hub or a warm Hugging Face cache)",
    "anchor": "checks the experiment's own machinery; claims that require it are blocked if it fails",
    "claim": "a published scientific finding",
    "measurement": "a number the notebook reports about its own method",
    "slow": "takes minutes (organism re-training)",
    "meta": "a slow check of a mechanism that re-runs families or pytest itself (fast mode, NDIF "
            "simulation and backend, CPU kernels, splitting, organism competence, xdist "
            "selections, the published plan, the device audit, the CUDA rehearsal's dry run): "
            "`make test-meta`, which CI runs after `make test`",
    "quiet": "times something, so runs alone on a quiet machine: `make test-meta` runs these "
             "after the other meta tests, without xdist",
}


def _selects_published(markexpr: str) -> bool:
    """Whether `-m` asks for the published tests: it selects a test marked gpu or hub, evaluated
    by pytest's own mark expressions, and not a test with neither mark."""
    if not markexpr.strip():
        return False
    from harness.private import mark_expression

    expression = mark_expression(markexpr)

    def selects(*marks: str) -> bool:
        return expression.evaluate(lambda name, **kwargs: name in marks)

    return (selects("gpu") or selects("hub")) and not selects()


def resolve_profile(config: pytest.Config) -> Profile:
    """--claims-profile if given; published when -m asks for gpu/hub tests or CUDA exists; else tiny."""
    chosen = config.getoption("claims_profile")
    if chosen:
        return get_profile(chosen)
    if _selects_published(config.getoption("markexpr") or ""):
        return get_profile("published")
    import torch

    return get_profile("published" if torch.cuda.is_available() else "tiny")


def cuda_available() -> bool:
    import torch

    return torch.cuda.is_available()


def pytest_configure(config: pytest.Config) -> None:
    if config.getini("snapshot_warn_unused") and hasattr(config.option, "warn_unused_snapshots"):
        config.option.warn_unused_snapshots = True  # syrupy's --snapshot-warn-unused
    for name, text in MARKERS.items():
        config.addinivalue_line("markers", f"{name}: {text}")
    try:
        backend = Backend(config.getoption("backend"))
    except ValueError:
        raise pytest.UsageError(f"--backend {config.getoption('backend')!r}: one of "
                                f"{', '.join(b.value for b in Backend)}") from None
    profile, retarget_reasons = retarget(config, rehearsal_variant(config, resolve_profile(config)))
    if determinism.wanted([spec.device for spec in profile.models.values()], cuda_available()):
        determinism.apply()  # before any model loads or cuBLAS call
    session = config.stash[SESSION] = ClaimsSession(
        profile, Mode(config.getoption("mode")), backend,
        retarget_reasons)
    if session.backend is not Backend.LOCAL:
        register_trace_code()
    make_store(config)
    if getattr(config.option, "dist", "no") == "load":
        config.option.dist = "loadfile"  # grouped by source folder: see scheduling.py


def pytest_unconfigure(config: pytest.Config) -> None:
    remove_store(config)


def pytest_ignore_collect(collection_path, config: pytest.Config) -> bool | None:
    """A source's unit items (splitting.py) exist only under xdist."""
    return True if collection_path.name == UNITS_FILE and not worker_count(config) else None


def rehearsal_variant(config: pytest.Config, profile: Profile) -> Profile:
    """The rehearsal profile as --rehearsal-dtype, --rehearsal-sizes and --rehearsal-decode-cap
    ask (harness.profile_variants.rehearsal); other profiles unchanged where nothing is asked."""
    asks = RehearsalAsks(config.getoption("rehearsal_dtype"),
                         config.getoption("rehearsal_sizes") == "published",
                         config.getoption("rehearsal_decode_cap"))
    if not asks.anything:
        return profile
    if profile.name is not ProfileName.REHEARSAL:
        raise pytest.UsageError("--rehearsal-dtype and --rehearsal-sizes are for "
                                "--claims-profile=rehearsal")
    return rehearsal(profile, asks)


def retarget(config: pytest.Config, profile: Profile) -> tuple[Profile, dict[str, str]]:
    """The profile with --model's other models, and why any source could not take its model."""
    overrides = [Override.parse(text) for text in config.getoption("model")]
    if not overrides:
        return profile, {}
    if not profile.published_values_apply:
        raise pytest.UsageError("--model re-runs published claims: use it with the published "
                                "profile (--claims-profile=published, or -m gpu/hub)")
    return generalised(profile, overrides)


def pytest_report_header(config: pytest.Config) -> str:
    session = claims_session(config)
    return (f"interp-claims profile: {session.profile.name.value}, mode: {session.mode.value}"
            + ("" if session.backend is Backend.LOCAL else f", backend: {session.backend.value}")
            + "".join(f", generalisation: {s} on {m}"
                      for s, m in session.profile.generalisation.items()))


@pytest.fixture(scope="session")
def profile(request: pytest.FixtureRequest) -> Profile:
    """The profile this session runs on."""
    return claims_session(request.config).profile


@pytest.fixture(scope="session")
def mode(request: pytest.FixtureRequest) -> Mode:
    """The mode this session runs in (--mode)."""
    return claims_session(request.config).mode


@pytest.fixture(scope="session")
def backend(request: pytest.FixtureRequest) -> Backend:
    """Where this session's traces run (--backend)."""
    return claims_session(request.config).backend


def model_for(request: pytest.FixtureRequest, source: str) -> Loaded:
    """`source`'s model on the session's profile, its provenance kept for the run record; a skip
    when the profile has none (for a source's session model fixture)."""
    session = claims_session(request.config)
    spec = session.profile.models.get(source)
    if spec is None:
        pytest.skip(f"profile {session.profile.name.value} has no model for source {source!r}")
    loaded = load(spec, session.backend)
    session.model_loaded(source, loaded.provenance)
    return loaded


def pytest_itemcollected(item: pytest.Item) -> None:
    spec = spec_of(getattr(item, "function", None))
    if spec is None:
        return
    item.stash[SPEC] = spec
    item.add_marker(pytest.mark.anchor if spec.kind is Kind.ANCHOR else
                    pytest.mark.measurement if spec.kind is Kind.MEASUREMENT else pytest.mark.claim)
    if spec.needs is not Needs.CPU:
        item.add_marker(getattr(pytest.mark, spec.needs.value))
    if spec.needs is Needs.HUB and not spec.tokenizer_only:
        item.add_marker(pytest.mark.gpu)  # it loads published weights: the nightly runs it too
    item.add_marker(pytest.mark.xdist_group(name=spec.source_name))
    item.extra_keyword_matches.add(spec.id)

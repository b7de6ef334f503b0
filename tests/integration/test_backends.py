"""--backend=ndif: every test skips with the reason it cannot run on NDIF (no key here); a
published model built for NDIF by name, offline; the same build through nnsight's simulation,
strict about the sandbox's imports."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from harness.models.backends import register_trace_code
from tests.paths import ROOT


def ndif_run(tmp_path, profile: str) -> dict:
    env = {k: v for k, v in os.environ.items() if k != "NDIF_API_KEY"}
    env |= {"NNSIGHT_CONFIG": str(tmp_path / "no-config.yaml"), "HF_HUB_OFFLINE": "1"}
    out = tmp_path / "results.json"
    subprocess.run([sys.executable, "-m", "pytest", "claims/patching", f"--claims-profile={profile}",
                    "--backend=ndif", "-p", "no:cacheprovider", "-q", f"--results={out}"],
                   cwd=ROOT, env=env, capture_output=True, text=True)
    return json.loads(out.read_text())


@pytest.mark.meta  # a pytest or probe process per test: make test-meta
def test_without_a_key_every_published_test_skips_naming_the_key(tmp_path):
    results = ndif_run(tmp_path, "published")
    assert results["tests"] and {e["verdict"] for e in results["tests"]} == {"skipped"}
    assert all("NDIF_API_KEY" in e["message"] for e in results["tests"])
    assert results["environment"]["backend"] == "ndif"


@pytest.mark.meta  # a pytest or probe process per test: make test-meta
def test_an_organism_never_runs_on_ndif(tmp_path):
    results = ndif_run(tmp_path, "tiny")
    assert {e["verdict"] for e in results["tests"]} == {"skipped"}
    assert all("organism" in e["message"] for e in results["tests"])


def test_ndif_local_builds_the_model_by_name_and_loads_it_at_the_first_trace():
    from nnsight import TransformersModel

    from harness.models.backends import Backend
    from harness.models.loaded import load
    from harness.registry import get_profile
    from harness.sources.patching.experiments import clean_cache
    from harness.models.work import METER

    register_trace_code()  # as an ndif-local session does
    loaded = load(get_profile("tiny").models["patching"], Backend.NDIF_LOCAL)
    assert not loaded.nn.dispatched and next(loaded.hf.parameters()).device.type == "meta"
    assert loaded.device.type == "cpu" and loaded.nn._remoteable_class() is TransformersModel
    before = METER.total.forwards
    clean_cache(loaded, [1, 2, 3])
    assert loaded.nn.dispatched and next(loaded.hf.parameters()).device.type == "cpu"
    assert METER.total.forwards == before + 1
    assert loaded.provenance["built"].startswith("by name on the meta device")


def test_the_simulation_refuses_a_request_that_imports_what_ndif_does_not_allow():
    import pytest
    import torch

    from harness.models.backends import Backend
    from harness.models.loaded import load
    from harness.registry import get_profile

    register_trace_code()
    loaded = load(get_profile("tiny").models["patching"], Backend.NDIF_LOCAL)
    lm_head = loaded.nn.lm_head
    with pytest.raises(ImportError, match="_thread, which NDIF's sandbox does not allow"):
        with loaded.nn.trace(torch.tensor([[1, 2, 3]])):
            loaded.spec  # noqa: B018  (a harness dataclass, sent by value: its repr needs _thread)
            lm_head.output.save()


def built_for_ndif(source: str, *served: str) -> dict:
    """tests/ndif_build_probe.py's account of `source`'s published model built for NDIF."""
    from tests.paths import SHARED_CACHE

    env = os.environ | {"HF_HOME": str(SHARED_CACHE), "HF_HUB_OFFLINE": "1"}
    proc = subprocess.run([sys.executable, "-m", "tests.ndif_build_probe", source, *served],
                          cwd=ROOT, env=env, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return json.loads(proc.stdout.splitlines()[-1])


@pytest.mark.meta  # a pytest or probe process per test: make test-meta
def test_a_published_model_is_built_for_ndif_by_name_without_weights():
    from harness.registry import get_profile

    for source in ("lookback", "patching"):
        spec = get_profile("published").models[source]
        built = built_for_ndif(source)
        assert not built["dispatched"] and built["device"] == "meta"
        assert built["key"] == ("nnsight.modeling.transformers.TransformersModel:" + json.dumps(
            {"repo_id": spec.hf_id, "revision": spec.revision, "task": "text-generation"}))
        assert built["provenance"]["revision_note"] is None


@pytest.mark.meta  # a pytest or probe process per test: make test-meta
def test_a_model_ndif_serves_at_another_revision_is_requested_there_and_recorded():
    built = built_for_ndif("patching", "main")
    assert '"revision": "main"' in built["key"]
    assert "not the pinned" in built["provenance"]["revision_note"]

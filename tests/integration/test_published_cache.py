"""The published tier against a Hugging Face cache that holds configs and tokenizers, no weights."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from harness.models import resources
from harness.models.loaded import resolved_revision
from harness.registry import get_profile
from tests.paths import ROOT, SHARED_CACHE

pytestmark = pytest.mark.skipif(not SHARED_CACHE.is_dir(),
                                reason=f"no tokenizer-only Hugging Face cache at {SHARED_CACHE}")


@pytest.fixture
def offline_cache(monkeypatch):
    from huggingface_hub import constants

    monkeypatch.setattr(constants, "HF_HUB_CACHE", str(SHARED_CACHE / "hub"))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    resources.hub_reachable.cache_clear()
    yield
    resources.hub_reachable.cache_clear()


@pytest.mark.parametrize("source", sorted(get_profile("published").models))
def test_the_pinned_revision_resolves_to_its_cache_snapshot(source, offline_cache):
    spec = get_profile("published").models[source]
    assert resolved_revision(spec) == spec.revision


def test_a_cpu_model_without_weights_skips_naming_what_is_missing_and_where(offline_cache):
    reason = resources.published_reason(get_profile("published").models["patching"], "hub")
    assert "no weights" in reason and "model.safetensors" in reason
    assert str(SHARED_CACHE / "hub") in reason


def test_a_tokenizer_test_runs_on_a_cache_without_weights(offline_cache):
    assert resources.published_reason(get_profile("published").models["heads"], "hub") is None


TOKENIZER_ANCHORS = ("patching.single-token-words", "patching.aligned-pairs")  # tokenizer_only


@pytest.mark.meta  # a process of its own: make test-meta
def test_patching_claims_skip_instead_of_crashing_on_a_weightless_cache(tmp_path):
    env = dict(os.environ, HF_HOME=str(SHARED_CACHE), HF_HUB_OFFLINE="1")
    env.pop("HF_HUB_CACHE", None)
    results = tmp_path / "results.json"
    subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "-m", "hub",
                    f"--results={results}", "claims/patching"],
                   cwd=ROOT, env=env, capture_output=True, text=True)
    tests = json.loads(results.read_text())["tests"]
    tokenizer_only = {t["id"]: t["verdict"] for t in tests if t["id"] in TOKENIZER_ANCHORS}
    assert tokenizer_only == dict.fromkeys(TOKENIZER_ANCHORS, "replicated")
    tests = [t for t in tests if t["id"] not in TOKENIZER_ANCHORS]
    assert tests and {t["verdict"] for t in tests} == {"skipped"}
    assert all("no weights" in t["message"] for t in tests if t["id"] != "patching.transformerlens-crosscheck")

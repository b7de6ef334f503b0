"""A `tokenizer_only` hub test of a CPU-run model (GPT-2) needs its tokenizer files, not weights."""
from __future__ import annotations

import pytest

from harness.models import resources
from harness.claims import claim
from harness.criteria import Exact
from harness.sources import get_profile

GPT2 = get_profile("published").models["patching"]


@pytest.fixture
def weightless_cache(monkeypatch):
    """A cache with GPT-2's config and tokenizer but no weights, and no hub."""
    monkeypatch.setattr(resources, "in_hf_cache",
                        lambda hf_id, revision, name: name in ("config.json", "tokenizer_config.json"))
    monkeypatch.setattr(resources, "hub_reachable", lambda: False)


def test_a_tokenizer_only_hub_test_runs_where_a_cpu_models_weights_are_missing(weightless_cache):
    assert "no weights" in resources.published_reason(GPT2, "hub")
    assert resources.published_reason(GPT2, "hub", tokenizer_only=True) is None


def test_a_tokenizer_only_test_still_needs_the_tokenizer(monkeypatch):
    monkeypatch.setattr(resources, "in_hf_cache", lambda hf_id, revision, name: False)
    monkeypatch.setattr(resources, "hub_reachable", lambda: False)
    reason = resources.published_reason(GPT2, "hub", tokenizer_only=True)
    assert "not in the Hugging Face cache" in reason


@pytest.mark.parametrize("needs", ["cpu", "gpu"])
def test_tokenizer_only_is_refused_outside_hub(needs):
    with pytest.raises(ValueError, match="tokenizer_only"):
        claim("patching.x", kind="anchor", section="s", statement="s", published={},
              provenance="p", criterion=Exact("x"), needs=needs, tokenizer_only=True)

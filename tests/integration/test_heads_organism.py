"""The heads organism's architecture: grouped-query attention, eager (weights readable)."""
from __future__ import annotations

from harness.models.loaded import load
from harness.private import attention_implementation
from harness.registry import get_profile


def test_heads_organism_shares_kv_heads_across_query_heads():
    config = load(get_profile("tiny").models["heads"]).hf.config
    assert config.num_key_value_heads < config.num_attention_heads
    assert attention_implementation(config) == "eager"

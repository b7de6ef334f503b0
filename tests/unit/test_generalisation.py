"""--model: another model of the published architecture class, sizes mapped by relative depth."""
from __future__ import annotations

from types import SimpleNamespace

import pytest

from harness.generalisation import Override
from harness.profile_variants import generalised
from harness.profiles import Mode
from harness.registry import get_profile

PUBLISHED = get_profile("published")


def config(architecture: str, layers: int):
    return lambda o: SimpleNamespace(architectures=[architecture], num_hidden_layers=layers)


def test_an_option_names_source_repo_and_revision():
    assert Override.parse("lookback=meta-llama/Llama-3.1-70B-Instruct@abc") == Override(
        "lookback", "meta-llama/Llama-3.1-70B-Instruct", "abc")
    assert Override.parse("patching=openai-community/gpt2-xl").revision == "main"
    with pytest.raises(ValueError):
        Override.parse("meta-llama/Llama-3.1-70B-Instruct")


def test_layers_map_by_relative_depth():
    profile, reasons = generalised(PUBLISHED, [Override.parse("lookback=org/deeper")],
                                   config("LlamaForCausalLM", 80))
    sizes = profile.sizes["lookback"]
    assert reasons == {} and profile.models["lookback"].hf_id == "org/deeper"
    assert sizes.self_patch_layers == (0, 20, 40, 60, 78)
    assert max(sizes.source_freeze_layers) < 80 and len(sizes.source_freeze_layers) == 16


def test_another_architecture_is_refused_with_its_reason():
    profile, reasons = generalised(PUBLISHED, [Override.parse("cot=org/other")],
                                   config("LlamaForCausalLM", 32))
    assert profile.models["cot"] == PUBLISHED.models["cot"]
    assert "not a Qwen3ForCausalLM" in reasons["cot"]


def test_a_missing_config_is_a_reason_not_an_error():
    def unavailable(o):
        raise OSError("not in the cache")

    _, reasons = generalised(PUBLISHED, [Override.parse("heads=org/x")], unavailable)
    assert "not available" in reasons["heads"]


def test_a_generalisation_pins_under_its_own_snapshot_profile():
    profile, _ = generalised(PUBLISHED, [Override.parse("patching=org/gpt2-deep")],
                             config("GPT2LMHeadModel", 24))
    assert profile.snapshot_name(Mode.FAITHFUL) == (
        "published-generalisation-patching=gpt2-deep-main")
    assert profile.sizes["patching"].patch_layer == 18
    assert profile.generalisation == {"patching": "org/gpt2-deep@main"}

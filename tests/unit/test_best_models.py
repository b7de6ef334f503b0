"""harness.best_models: a source runs its published model where published_reason finds nothing in
the way, else its organism with that reason; published sources come first."""
from __future__ import annotations

import pytest

from harness import best_models
from harness.profiles import ProfileName


@pytest.fixture
def only_cpu(monkeypatch):
    """A machine without CUDA whose Hugging Face cache holds every published model's weights."""
    monkeypatch.setattr(best_models, "published_reason",
                        lambda spec, needs: "no CUDA device" if spec.device == "cuda" else None)
    monkeypatch.setattr(best_models, "missing_weights_reason", lambda spec: None)


def test_a_model_published_on_the_cpu_runs_published_where_its_weights_are_reachable(only_cpu):
    chosen = best_models.choose(["patching"])["patching"]
    assert chosen.profile is ProfileName.PUBLISHED and chosen.published_values_apply
    assert "openai-community/gpt2" in chosen.model
    assert chosen.why == "its weights are in the Hugging Face cache and it runs on the CPU here"


def test_a_model_published_on_cuda_runs_its_organism_without_cuda_saying_why(only_cpu):
    chosen = best_models.choose(["heads"])["heads"]
    assert chosen.profile is ProfileName.TINY and not chosen.published_values_apply
    assert "organism" in chosen.model
    assert chosen.why == "Qwen/Qwen2.5-3B-Instruct cannot run here: no CUDA device"


def test_an_organism_is_named_without_a_profile_which_the_page_adds_once(only_cpu):
    assert best_models.choose(["heads"])["heads"].model == "Qwen2ForCausalLM organism 'heads'"


def test_weights_not_cached_but_reachable_download_from_the_hub(only_cpu, monkeypatch):
    monkeypatch.setattr(best_models, "missing_weights_reason", lambda spec: "no weights cached")
    assert "its weights are on the hub" in best_models.choose(["patching"])["patching"].why


def test_weights_out_of_reach_run_the_organism_with_the_reason(monkeypatch):
    monkeypatch.setattr(best_models, "published_reason", lambda spec, needs: "hub unreachable")
    assert best_models.choose(["patching"])["patching"].why.endswith("hub unreachable")


def test_every_registered_source_is_chosen_for_by_default(only_cpu):
    from harness.registry import registered

    assert set(best_models.choose()) == set(registered())


def test_groups_put_the_published_sources_first(only_cpu):
    groups = best_models.groups(best_models.choose(["cot", "patching", "ioi_tutorial"]))
    assert list(groups.items()) == [(ProfileName.PUBLISHED, ["ioi_tutorial", "patching"]),
                                    (ProfileName.TINY, ["cot"])]


def test_a_choice_records_its_profile_by_name(only_cpu):
    assert best_models.choose(["cot"])["cot"].as_record()["profile"] == "tiny"

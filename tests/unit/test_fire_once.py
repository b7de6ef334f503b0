"""harness.fire_once on a two-block GPT-2 built here: an edit made by a plain forward hook passes
every check where it writes what it was asked to, and fails the check that names each mistake."""
from __future__ import annotations

from contextlib import contextmanager

import pytest
import torch
from transformers import GPT2LMHeadModel, LlamaConfig, LlamaForCausalLM

from harness.fire_once import FireOnce, Site, check_writes
from harness.recorded_run import decoder_blocks
from tests.unit.small_models import gpt2, stopping_after

IDS = torch.tensor([[1, 2, 3, 4, 5], [5, 4, 3, 2, 1]], device="cpu")
VALUE = torch.full((1, 1, 16), 3.0, device="cpu")


@pytest.fixture(scope="module")
def model() -> GPT2LMHeadModel:
    return gpt2()


@contextmanager
def writing(model, layer: int, row: int, position: int):
    """A plain forward hook that writes VALUE at one block, row and position, ahead of the
    checking hooks (as nnsight edits inside the forward, before any forward hook runs)."""
    def hook(module, args, output):
        out = output.clone()
        out[row, position] = VALUE[0, 0]
        return out

    handle = model.transformer.h[layer].register_forward_hook(hook, prepend=True)
    try:
        yield
    finally:
        handle.remove()


def check(model, wrote_at: tuple[int, int, int] | None, asked_at: tuple[int, int, int],
          value: torch.Tensor = VALUE) -> FireOnce:
    def run() -> None:
        if wrote_at is None:
            model(input_ids=IDS)
            return
        with writing(model, *wrote_at):
            model(input_ids=IDS)

    layer, row, position = asked_at
    return check_writes(model, run,
                        lambda refs: [Site(0, layer, (row,), (position,), value)])


def test_a_write_where_it_was_asked_passes_every_check(model):
    result = check(model, (0, 1, 2), (0, 1, 2))
    assert result.failures == []
    assert (result.site_holds_value, result.untouched_identical, result.output_changed,
            result.reference_equal) == (True, True, True, True)


def test_a_write_that_never_happened_fails_the_site(model):
    result = check(model, None, (0, 1, 2))
    assert not result.site_holds_value


def test_a_write_one_position_early_fails_untouched(model):
    result = check(model, (0, 1, 1), (0, 1, 2))
    assert not result.untouched_identical


def test_a_write_on_another_row_fails_untouched(model):
    result = check(model, (0, 0, 2), (0, 1, 2))
    assert not result.untouched_identical


def test_a_write_one_block_early_fails_untouched(model):
    result = check(model, (0, 1, 2), (1, 1, 2))
    assert not result.untouched_identical and not result.site_holds_value


def test_a_value_already_there_cannot_prove_a_write(model):
    def same(refs):
        return [Site(0, 0, (1,), (2,), refs[0].value(0, [1], [2]))]

    result = check_writes(model, lambda: model(input_ids=IDS),
                          same)
    assert not result.site_holds_value
    assert "already there" in result.failures[-1]


def test_a_write_at_the_last_block_before_the_final_position_need_not_move_the_output(model):
    result = check(model, (1, 1, 2), (1, 1, 2))
    assert result.failures == [] and result.output_changed


def test_the_experiment_runs_once(model):
    calls = []

    def run() -> None:
        calls.append(1)
        with writing(model, 0, 1, 2):
            model(input_ids=IDS)

    check_writes(model, run,
                 lambda refs: [Site(0, 0, (1,), (2,), VALUE)])
    assert calls == [1]


def test_a_forward_that_never_reached_the_head_fails_output_and_reference(model):
    def run() -> None:
        with stopping_after(model.transformer.h[1]), writing(model, 0, 1, 2):
            model(input_ids=IDS)

    result = check_writes(model, run,
                          lambda refs: [Site(0, 0, (1,), (2,), VALUE)])
    assert (result.site_holds_value, result.output_changed, result.reference_equal) == (
        True, False, False)


def test_a_site_outside_the_forward_is_a_failure_naming_the_forward_it_expected(model):
    result = check(model, (0, 1, 2), (0, 2, 2))
    assert not result.site_holds_value and "outside that forward (2 rows, 5 positions)" in \
        result.failures[0]


def test_gpt2s_blocks_are_its_transformer_h(model):
    assert decoder_blocks(model) is model.transformer.h


def test_llamas_blocks_are_its_model_layers():
    config = LlamaConfig(num_hidden_layers=2, hidden_size=16, intermediate_size=32,
                         num_attention_heads=2, num_key_value_heads=2, vocab_size=11)
    llama = LlamaForCausalLM(config)
    assert decoder_blocks(llama) is llama.model.layers


def test_a_model_with_two_lists_of_its_blocks_is_refused(model):
    model.transformer.extra = torch.nn.ModuleList([torch.nn.Identity(), torch.nn.Identity()])
    try:
        with pytest.raises(ValueError, match="2 module lists"):
            decoder_blocks(model)
    finally:
        del model.transformer.extra


def test_a_list_of_another_length_is_not_taken_for_its_blocks(model):
    model.transformer.extra = torch.nn.ModuleList([torch.nn.Identity()] * 3)
    try:
        assert decoder_blocks(model) is model.transformer.h
    finally:
        del model.transformer.extra

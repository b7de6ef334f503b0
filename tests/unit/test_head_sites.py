"""harness.fire_once's head sites on a two-block Llama built here: a head edit made by a plain
pre-hook on o_proj passes every check where it writes the head it was asked to, and fails the
check that names each mistake (harness.projection_inputs, harness.compared_writes)."""
from __future__ import annotations

from contextlib import contextmanager

import pytest
import torch
from transformers import GPT2Config, GPT2LMHeadModel, LlamaConfig, LlamaForCausalLM

from harness.fire_once import FireOnce, Site, check_writes
from harness.projection_inputs import attention_projections

IDS = torch.tensor([[1, 2, 3, 4, 5], [5, 4, 3, 2, 1]], device="cpu")
WIDTH = 4  # 16 features over 4 heads
VALUE = torch.full((1, 1, WIDTH), 3.0, device="cpu")


@pytest.fixture(scope="module")
def model() -> LlamaForCausalLM:
    torch.manual_seed(0)
    config = LlamaConfig(num_hidden_layers=2, hidden_size=16, intermediate_size=32,
                         num_attention_heads=4, num_key_value_heads=2, vocab_size=11)
    return LlamaForCausalLM(config).eval()


@contextmanager
def writing(model, layer: int, head: int, row: int, position: int):
    """A plain pre-hook on block `layer`'s o_proj that writes VALUE into one head's slice."""
    def hook(module, args):
        x = args[0].clone()
        x[row, position, head * WIDTH:(head + 1) * WIDTH] = VALUE[0, 0]
        return (x,)

    handle = model.model.layers[layer].self_attn.o_proj.register_forward_pre_hook(hook)
    try:
        yield
    finally:
        handle.remove()


def check(model, wrote_at: tuple[int, int, int, int] | None,
          asked_at: tuple[int, int, int, int], head_sites: bool = True) -> FireOnce:
    def run() -> None:
        if wrote_at is None:
            model(input_ids=IDS)
            return
        with writing(model, *wrote_at):
            model(input_ids=IDS)

    layer, head, row, position = asked_at
    columns = (head * WIDTH, (head + 1) * WIDTH)
    return check_writes(model, run, lambda refs: [
        Site(0, layer, (row,), (position,), VALUE, columns)], head_sites=head_sites)


def test_a_head_written_where_it_was_asked_passes_every_check(model):
    result = check(model, (0, 1, 1, 2), (0, 1, 1, 2))
    assert result.failures == []
    assert (result.site_holds_value, result.untouched_identical, result.output_changed,
            result.reference_equal) == (True, True, True, True)


def test_a_head_write_that_never_happened_fails_the_site(model):
    result = check(model, None, (0, 1, 1, 2))
    assert not result.site_holds_value and result.untouched_identical


def test_a_write_onto_the_next_head_fails_the_site_and_untouched(model):
    result = check(model, (0, 2, 1, 2), (0, 1, 1, 2))
    assert not result.site_holds_value and not result.untouched_identical
    assert "changed outside the heads written there" in " ".join(result.failures)


def test_a_head_write_one_position_early_fails_untouched(model):
    result = check(model, (0, 1, 1, 1), (0, 1, 1, 2))
    assert not result.untouched_identical


def test_a_head_write_on_another_row_fails_untouched(model):
    result = check(model, (0, 1, 0, 2), (0, 1, 1, 2))
    assert not result.untouched_identical


def test_a_head_write_one_block_late_fails_the_site(model):
    result = check(model, (1, 1, 1, 2), (0, 1, 1, 2))
    assert not result.site_holds_value


def test_a_head_write_one_block_early_fails_untouched(model):
    result = check(model, (0, 1, 1, 2), (1, 1, 1, 2))
    assert not result.site_holds_value and not result.untouched_identical


class Stop(Exception):
    """Ends a forward after a block, as a trace that stops early does."""


def test_a_head_site_whose_projection_never_ran_fails_the_site(model):
    def stop(module, args, output):
        raise Stop

    def run() -> None:
        handle = model.model.layers[0].register_forward_hook(stop)
        try:
            model(input_ids=IDS)
        except Stop:
            pass
        finally:
            handle.remove()

    result = check_writes(model, run, lambda refs: [
        Site(0, 1, (1,), (2,), VALUE, (4, 8))], head_sites=True)
    assert not result.site_holds_value
    assert "block 1: its attention output projection was never seen" in " ".join(result.failures)


def test_a_head_site_needs_the_projections_recorded(model):
    result = check(model, (0, 1, 1, 2), (0, 1, 1, 2), head_sites=False)
    assert not result.site_holds_value
    assert "outside what the block's attention output projection consumed" in result.failures[0]


def test_columns_past_the_projections_width_are_outside_the_run(model):
    result = check_writes(model, lambda: model(input_ids=IDS), lambda refs: [
        Site(0, 0, (1,), (2,), VALUE, (16, 20))], head_sites=True)
    assert not result.site_holds_value and "columns [16, 20]" in result.failures[0]


def test_a_head_value_already_there_cannot_prove_a_write(model):
    result = check_writes(model, lambda: model(input_ids=IDS), lambda refs: [
        Site(0, 0, (1,), (2,), refs[0].value(0, [1], [2], (4, 8)), (4, 8))], head_sites=True)
    assert not result.site_holds_value and "already there" in result.failures[-1]


def test_llamas_projections_are_its_o_projs(model):
    assert attention_projections(model.model.layers) == [
        block.self_attn.o_proj for block in model.model.layers]


def test_a_block_without_a_linear_o_proj_is_refused():
    gpt2 = GPT2LMHeadModel(GPT2Config(n_layer=1, n_embd=8, n_head=2, vocab_size=11))
    with pytest.raises(ValueError, match="block 0 .* no nn.Linear at self_attn.o_proj"):
        attention_projections(gpt2.transformer.h)


def test_a_head_the_model_never_reads_need_not_move_the_output(model):
    column = model.model.layers[0].self_attn.o_proj.weight[:, 4:8]
    kept = column.detach().clone()
    with torch.no_grad():
        column.zero_()
    try:
        result = check(model, (0, 1, 1, 2), (0, 1, 1, 2))
    finally:
        with torch.no_grad():
            model.model.layers[0].self_attn.o_proj.weight[:, 4:8] = kept
    assert result.failures == [] and result.output_changed

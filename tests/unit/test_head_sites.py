"""harness.fire_once's head sites on a small Llama (tests.unit.small_models): a head edit made by a
plain pre-hook on o_proj passes every check where it writes the head it was asked to, and fails the
check that names each mistake (harness.consumed_inputs, harness.compared_writes)."""
from __future__ import annotations

from contextlib import nullcontext

import pytest
import torch
from transformers import GPT2Config, GPT2LMHeadModel, LlamaForCausalLM

from harness.fire_once import FireOnce, Site, check_writes
from harness.consumed_inputs import inside
from tests.unit.small_models import IDS, llama, stopping_after, writing_head

WIDTH = 4  # 16 features over 4 heads
VALUE = torch.full((1, 1, WIDTH), 3.0, device="cpu")


@pytest.fixture(scope="module")
def model() -> LlamaForCausalLM:
    return llama()


def check(model, wrote_at: tuple[int, int, int, int] | None,
          asked_at: tuple[int, int, int, int], within: bool = True) -> FireOnce:
    def run() -> None:
        with writing_head(model, *wrote_at, VALUE[0, 0]) if wrote_at else nullcontext():
            model(input_ids=IDS)

    layer, head, row, position = asked_at
    columns = (head * WIDTH, (head + 1) * WIDTH)
    return check_writes(model, run, lambda refs: [
        Site(0, layer, (row,), (position,), VALUE, columns)], within=within)


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
    assert "block 0 projection: row 1 position 2 changed" in " ".join(result.failures)


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


def test_a_head_site_whose_projection_never_ran_fails_the_site(model):
    def run() -> None:
        with stopping_after(model.model.layers[0]):
            model(input_ids=IDS)

    result = check_writes(model, run, lambda refs: [
        Site(0, 1, (1,), (2,), VALUE, (4, 8))], within=True)
    assert not result.site_holds_value
    assert "forward 0 block 1 projection was never seen" in " ".join(result.failures)


def test_a_head_site_needs_the_projections_recorded(model):
    result = check(model, (0, 1, 1, 2), (0, 1, 1, 2), within=False)
    assert not result.site_holds_value
    assert "outside what the run recorded" in result.failures[0]


def test_columns_past_the_projections_width_are_outside_the_run(model):
    result = check_writes(model, lambda: model(input_ids=IDS), lambda refs: [
        Site(0, 0, (1,), (2,), VALUE, (16, 20))], within=True)
    assert not result.site_holds_value and "columns [16, 20]" in result.failures[0]


def test_a_head_value_already_there_cannot_prove_a_write(model):
    def already(refs):
        site = Site(0, 0, (1,), (2,), VALUE, (4, 8))
        return [Site(0, 0, (1,), (2,), refs[0].unedited(site), (4, 8))]

    result = check_writes(model, lambda: model(input_ids=IDS), already, within=True)
    assert not result.site_holds_value and "already there" in result.failures[-1]


def test_llamas_insides_are_its_input_norms_and_o_projs(model):
    found = inside(model.model.layers)
    assert found.norms == [block.input_layernorm for block in model.model.layers]
    assert found.projections == [block.self_attn.o_proj for block in model.model.layers]


def test_gpt2s_blocks_have_input_norms_and_no_linear_projection():
    gpt2 = GPT2LMHeadModel(GPT2Config(n_layer=1, n_embd=8, n_head=2, vocab_size=11))
    found = inside(gpt2.transformer.h)
    assert found.norms == [gpt2.transformer.h[0].ln_1] and found.projections == [None]


def test_a_head_site_where_the_block_has_no_linear_projection_is_outside_the_run():
    torch.manual_seed(0)
    gpt2 = GPT2LMHeadModel(GPT2Config(n_layer=1, n_embd=8, n_head=2, vocab_size=11)).eval()
    result = check_writes(gpt2, lambda: gpt2(input_ids=IDS), lambda refs: [
        Site(0, 0, (1,), (2,), torch.zeros(1, 1, 4), (0, 4))], within=True)
    assert not result.site_holds_value and "no linear projection" in result.failures[0]


def test_a_block_without_an_input_norm_is_refused():
    with pytest.raises(ValueError, match="block 0 .Identity. has none of"):
        inside([torch.nn.Identity()])


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


def test_a_head_write_moves_only_its_own_cells_of_its_blocks_output(model):
    def stray(module, args, output):
        out = output.clone()
        out[1, 3] += 1.0
        return out

    def run() -> None:
        handle = model.model.layers[0].register_forward_hook(stray, prepend=True)
        try:
            with writing_head(model, 0, 1, 1, 2, VALUE[0, 0]):
                model(input_ids=IDS)
        finally:
            handle.remove()

    result = check_writes(model, run, lambda refs: [
        Site(0, 0, (1,), (2,), VALUE, (WIDTH, 2 * WIDTH))], within=True)
    assert result.site_holds_value and not result.untouched_identical
    assert "forward 0 block 0: row 1 position 3 changed" in " ".join(result.failures)

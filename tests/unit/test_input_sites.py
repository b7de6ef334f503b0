"""harness.fire_once's input sites on a small Llama (tests.unit.small_models): an edit of what
enters a block, made by a plain pre-hook on the block, passes every check where it writes where
it was asked to, and fails the check that names each mistake; with a head edit of the same block
in the same forward, the heads downstream of the written position may move."""
from __future__ import annotations

from contextlib import ExitStack, contextmanager

import pytest
import torch
from transformers import LlamaForCausalLM

from harness.compared_writes import reaches_output
from harness.fire_once import FireOnce, Site, check_writes
from tests.unit.small_models import IDS, llama, writing_head

VALUE = torch.full((1, 1, 16), 3.0, device="cpu")
HEAD = torch.full((1, 1, 4), -2.0, device="cpu")


@pytest.fixture(scope="module")
def model() -> LlamaForCausalLM:
    return llama()


@contextmanager
def entering(model, layer: int, row: int, position: int):
    """A plain pre-hook on block `layer` that writes VALUE into the hidden states entering it."""
    def hook(module, args, kwargs):
        x = (args[0] if args else kwargs["hidden_states"]).clone()
        x[row, position] = VALUE[0, 0]
        return ((x, *args[1:]), kwargs) if args else (args, {**kwargs, "hidden_states": x})

    handle = model.model.layers[layer].register_forward_pre_hook(hook, with_kwargs=True)
    try:
        yield
    finally:
        handle.remove()


def check(model, wrote_at: tuple[int, int, int] | None, asked_at: tuple[int, int, int],
          head: bool = False) -> FireOnce:
    def run() -> None:
        with ExitStack() as stack:
            if wrote_at is not None:
                stack.enter_context(entering(model, *wrote_at))
            if head:
                stack.enter_context(writing_head(model, asked_at[0], 1, *asked_at[1:], HEAD[0, 0]))
            model(input_ids=IDS)

    layer, row, position = asked_at
    sites = [Site(0, layer, (row,), (position,), VALUE, block_input=True)]
    if head:
        sites.append(Site(0, layer, (row,), (position,), HEAD, (4, 8)))
    return check_writes(model, run, lambda refs: sites, within=True)


def test_an_input_written_where_it_was_asked_passes_every_check(model):
    result = check(model, (1, 1, 2), (1, 1, 2))
    assert result.failures == []
    assert (result.site_holds_value, result.untouched_identical, result.output_changed,
            result.reference_equal) == (True, True, True, True)


def test_an_input_write_that_never_happened_fails_the_site(model):
    result = check(model, None, (1, 1, 2))
    assert not result.site_holds_value and result.untouched_identical


def test_an_input_write_one_position_early_fails_untouched(model):
    result = check(model, (1, 1, 1), (1, 1, 2))
    assert not result.untouched_identical
    assert "forward 0 block 1 input: row 1 position 1 changed" in " ".join(result.failures)


def test_an_input_write_on_another_row_fails_untouched(model):
    result = check(model, (1, 0, 2), (1, 1, 2))
    assert not result.untouched_identical


def test_an_input_write_one_block_early_fails_untouched(model):
    result = check(model, (0, 1, 2), (1, 1, 2))
    assert not result.site_holds_value and not result.untouched_identical


def test_an_input_and_a_head_of_one_block_in_one_forward_pass_every_check(model):
    result = check(model, (0, 1, 2), (0, 1, 2), head=True)
    assert result.failures == []


def test_an_input_site_needs_the_blocks_read_within(model):
    result = check_writes(model, lambda: model(input_ids=IDS), lambda refs: [
        Site(0, 0, (1,), (2,), VALUE, block_input=True)])
    assert not result.site_holds_value and "outside what the run recorded" in result.failures[0]


def test_an_input_write_at_the_last_block_before_the_final_position_must_move_the_output():
    at_input = Site(0, 1, (0,), (2,), VALUE, block_input=True)
    at_output = Site(0, 1, (0,), (2,), VALUE)
    assert reaches_output([at_input], 0, n_blocks=2, length=5)
    assert not reaches_output([at_output], 0, n_blocks=2, length=5)

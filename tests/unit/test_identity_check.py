"""harness.identity_check on a two-block GPT-2 built here: a run that writes each row's own
values passes every check, and each way a run can fail to be the identity fails the check that
names it."""
from __future__ import annotations

from contextlib import contextmanager
from typing import Callable, Iterator

import pytest
import torch
from transformers import GPT2LMHeadModel

from harness.identity_check import Identical, check_identity, readout
from harness.replay import Reference, RunMismatch, Site
from tests.unit.small_models import IDS as LLAMA_IDS, gpt2, llama, stopping_after

IDS = torch.tensor([[1, 2, 3, 4, 5], [5, 4, 3, 2, 1]], device="cpu")


@pytest.fixture(scope="module")
def model() -> GPT2LMHeadModel:
    return gpt2()


def unedited(model: GPT2LMHeadModel, layer: int) -> torch.Tensor:
    with torch.no_grad():
        return model(input_ids=IDS, output_hidden_states=True).hidden_states[layer + 1]


@contextmanager
def writing(module: torch.nn.Module, edit: Callable[[torch.Tensor], None]) -> Iterator[None]:
    """A plain forward hook editing a clone of `module`'s output, ahead of the checking hooks."""
    def hook(m, args, output):
        out = output.clone()
        edit(out)
        return out

    handle = module.register_forward_hook(hook, prepend=True)
    try:
        yield
    finally:
        handle.remove()


def own_site(refs: list[Reference]) -> list[Site]:
    """Block 0, row 1, position 2: the row's own value."""
    return [Site(0, 0, (1,), (2,), refs[0].value(0, [1], [2]))]


def run_with(model: GPT2LMHeadModel, module: torch.nn.Module | None,
             edit: Callable[[torch.Tensor], None]) -> Callable[[], None]:
    def run() -> None:
        if module is None:
            model(input_ids=IDS)
            return
        with writing(module, edit):
            model(input_ids=IDS)
    return run


def checks(result: Identical) -> tuple[bool, bool, bool]:
    return result.own_values, result.unmoved, result.output_equal


def test_a_write_of_the_rows_own_value_passes_every_check(model):
    own = unedited(model, 0)[1, 2]
    result = check_identity(model, run_with(model, model.transformer.h[0],
                                            lambda out: out[1, 2].copy_(own)), own_site)
    assert checks(result) == (True, True, True)
    assert result.max_abs_diff == 0.0 and result.failures == [] and result.sites == 1


def test_a_write_of_another_rows_value_moves_the_run(model):
    other = unedited(model, 0)[0, 2]
    result = check_identity(model, run_with(model, model.transformer.h[0],
                                            lambda out: out[1, 2].copy_(other)), own_site)
    assert checks(result) == (True, False, False)
    assert result.max_abs_diff > 0


def test_a_declared_value_not_the_rows_own_fails_own_values(model):
    def declared(refs):
        return [Site(0, 0, (1,), (2,), refs[0].value(0, [0], [2]))]

    result = check_identity(model, run_with(model, None, lambda out: None), declared)
    assert checks(result) == (False, True, True)
    assert result.failures == ["forward 0 block 0 rows [1] positions [2]: the value declared "
                               "there is not the row's own"]


def test_a_declared_value_is_the_rows_own_once_cast_to_the_models_dtype():
    half = gpt2().to(torch.bfloat16)

    def declared(refs):  # the row's own value, off by far less than half a bf16 unit
        return [Site(0, 0, (1,), (2,), refs[0].value(0, [1], [2]).float() * (1 + 2 ** -12))]

    result = check_identity(half, lambda: half(input_ids=IDS), declared)
    assert result.own_values and result.failures == []


def test_a_later_block_moved_fails_unmoved(model):
    def nudge(out):
        out[0, 4] += 1e-3

    result = check_identity(model, run_with(model, model.transformer.h[1], nudge), own_site)
    assert not result.unmoved and "block 1: row 0 position 4 changed" in result.failures[0]


def test_an_output_moved_after_the_blocks_fails_output_equal(model):
    def nudge(out):
        out[1, -1] += 1e-3

    result = check_identity(model, run_with(model, model.transformer.ln_f, nudge), own_site)
    assert checks(result) == (True, True, False)
    assert "the output differs" in result.failures[-1]


def test_an_output_moved_in_a_forward_without_a_site_fails_output_equal(model):
    def run():
        model(input_ids=IDS)
        nudge = model.transformer.ln_f.register_forward_hook(lambda m, a, out: out + 1e-3)
        try:
            model(input_ids=IDS[:1])
        finally:
            nudge.remove()

    result = check_identity(model, run, own_site)
    assert result.unmoved and not result.output_equal
    assert "forward 1: the output differs" in result.failures[-1]


def test_a_forward_that_never_reached_the_output_fails_output_equal(model):
    def run():
        with stopping_after(model.transformer.h[1]):
            model(input_ids=IDS)

    result = check_identity(model, run, own_site)
    assert not result.output_equal and "never reached the output" in result.failures[-1]


def test_a_forward_after_one_that_stopped_early_is_still_compared(model):
    def run():
        with stopping_after(model.transformer.h[0]):
            model(input_ids=IDS)  # a read-only pass: it need not reach the output
        nudge = model.transformer.ln_f.register_forward_hook(lambda m, a, out: out + 1e-3)
        try:
            model(input_ids=IDS[:1])
        finally:
            nudge.remove()

    def declared(refs):
        return [Site(1, 0, (0,), (2,), refs[1].value(0, [0], [2]))]

    result = check_identity(model, run, declared)
    assert not result.output_equal
    assert result.failures == ["forward 1: the output differs from the unedited run's"]


def test_nothing_declared_fails_every_check(model):
    result = check_identity(model, run_with(model, None, lambda out: None), lambda refs: [])
    assert checks(result) == (False, False, False)
    assert result.failures == ["no site to check: the run on own values wrote nothing"]


def test_a_site_outside_the_run_fails_every_check(model):
    def outside(refs):
        return [Site(3, 0, (1,), (2,), refs[0].value(0, [1], [2]))]

    result = check_identity(model, run_with(model, None, lambda out: None), outside)
    assert checks(result) == (False, False, False) and "outside the run" in result.failures[0]


def test_a_mismatch_raised_by_the_declaration_is_its_failure(model):
    def mismatch(refs):
        raise RunMismatch("the run never read the prompt")

    result = check_identity(model, run_with(model, None, lambda out: None), mismatch)
    assert result.failures == ["the run never read the prompt"]
    assert result.max_abs_diff == float("inf") and result.sites == 0


def test_the_readout_records_each_check_the_difference_and_the_sites():
    assert readout(Identical(3, True, False, True, 0.5, ["moved"])) == {
        "own_values": True, "unmoved": False, "output_equal": True, "max_abs_diff": 0.5,
        "sites": 3, "failures": ["moved"]}


def test_the_readout_keeps_the_first_five_failures():
    result = Identical(1, False, False, False, 1.0, [str(i) for i in range(8)])
    assert readout(result)["failures"] == ["0", "1", "2", "3", "4"]


def head_site(refs: list[Reference]) -> list[Site]:
    """Block 1's head 2 (4 features), row 0, position 3: what o_proj consumed there unedited."""
    return [Site(0, 1, (0,), (3,), refs[0].projections[1][[0]][:, [3], 8:12], (8, 12))]


def test_a_head_sites_own_value_is_seen_inside_the_block():
    model = llama()
    result = check_identity(model, lambda: model(input_ids=LLAMA_IDS), head_site, within=True)
    assert checks(result) == (True, True, True) and result.failures == []


def test_a_head_site_never_reached_fails_own_values():
    model = llama()

    def run():
        with stopping_after(model.model.layers[0]):
            model(input_ids=LLAMA_IDS)

    result = check_identity(model, run, head_site, within=True)
    assert not result.own_values
    assert "block 1 projection was never reached" in " ".join(result.failures)

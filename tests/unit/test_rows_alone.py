"""harness.rows_alone on a two-block GPT-2 built here: each row of a batch, re-run as one plain
forward of its own prompt with its own write, gives what it gave in the batch; a batch that
moves its rows, or a write on another row than declared, is a mismatch naming the forward and
row."""
from __future__ import annotations

from contextlib import contextmanager
from typing import Iterator

import pytest
import torch
from transformers import GPT2LMHeadModel

from harness.replay import Forward, RunMismatch, Site
from harness.rows_alone import (TOLERANCE, AloneRows, alone, check_rows, chosen,
                                readout, row_sites)
from tests.unit.small_models import IDS as LLAMA_IDS, gpt2, llama, stopping_after

IDS = torch.tensor([[1, 2, 3, 4, 5], [5, 4, 3, 2, 1], [2, 2, 3, 3, 4]], device="cpu")
VALUE = torch.full((1, 1, 16), 3.0, device="cpu")


@pytest.fixture(scope="module")
def model() -> GPT2LMHeadModel:
    return gpt2()


@contextmanager
def writing(model: GPT2LMHeadModel, row: int, position: int) -> Iterator[None]:
    """A plain forward hook writing VALUE at block 0, `row`, `position`, ahead of the checks."""
    def hook(module, args, output):
        out = output.clone()
        out[row, position] = VALUE[0, 0]
        return out

    handle = model.transformer.h[0].register_forward_hook(hook, prepend=True)
    try:
        yield
    finally:
        handle.remove()


def declared(row: int, position: int):
    return lambda refs: [Site(0, 0, (row,), (position,), VALUE)]


def test_rows_written_as_declared_hold_alone(model):
    def run():
        with writing(model, 1, 2):
            model(input_ids=IDS)

    result = check_rows(model, run, declared(1, 2))
    assert (result.forwards, result.rows, result.mismatched) == (1, 3, [])


def test_a_write_on_another_row_than_declared_is_a_mismatch(model):
    def run():
        with writing(model, 0, 2):
            model(input_ids=IDS)

    result = check_rows(model, run, declared(1, 2))
    assert [m.split(":")[0] for m in result.mismatched] == ["forward 0 row 0", "forward 0 row 1"]


def test_a_batch_counting_positions_from_one_is_a_mismatch(model):
    moved = torch.arange(1, 6)[None].expand(3, -1)
    result = check_rows(model, lambda: model(input_ids=IDS, position_ids=moved), lambda refs: [])
    assert len(result.mismatched) == 3 and result.rows == 3


def test_a_left_padded_row_with_its_positions_counted_holds_alone(model):
    ids, mask = IDS.clone(), torch.ones_like(IDS)
    ids[1, :2], mask[1, :2] = 0, 0
    positions = (mask.cumsum(-1) - 1).clamp(min=0)
    result = check_rows(model, lambda: model(input_ids=ids, attention_mask=mask,
                                             position_ids=positions), lambda refs: [])
    assert result.mismatched == []


def test_a_left_padded_row_counted_over_its_padding_is_a_mismatch(model):
    ids, mask = IDS.clone(), torch.ones_like(IDS)
    ids[1, :2], mask[1, :2] = 0, 0
    positions = torch.arange(5)[None].expand(3, -1)
    result = check_rows(model, lambda: model(input_ids=ids, attention_mask=mask,
                                             position_ids=positions), lambda refs: [])
    assert [m.split(":")[0] for m in result.mismatched] == ["forward 0 row 1"]


@pytest.mark.parametrize("padded", [0, 2])
def test_a_right_padded_row_is_not_re_run_and_the_others_are(model, padded):
    mask = torch.ones_like(IDS)
    mask[padded, -1] = 0
    result = check_rows(model, lambda: model(input_ids=IDS, attention_mask=mask), lambda refs: [])
    assert result.rows == 2


def test_a_forward_without_ids_is_named_and_later_forwards_still_checked(model):
    def run():
        model(inputs_embeds=torch.zeros(1, 3, 16))
        model(input_ids=IDS)

    result = check_rows(model, run, lambda refs: [])
    assert result.mismatched == ["forward 0 reads no ids (or its loop does): its rows are not "
                                 "re-run alone here"]
    assert result.rows == 3


def test_a_mismatch_raised_by_the_declaration_is_its_failure(model):
    def mismatch(refs):
        raise RunMismatch("the run never read the prompt")

    result = check_rows(model, lambda: model(input_ids=IDS), mismatch)
    assert (result.forwards, result.rows, result.mismatched) == (
        0, 0, ["the run never read the prompt"])


def test_alone_keeps_the_rows_unpadded_ids_and_drops_the_batchs_positions():
    mask = torch.tensor([[0, 1, 1], [1, 1, 1]])
    fw = Forward({"input_ids": torch.tensor([[0, 7, 8], [6, 7, 8]]), "attention_mask": mask,
                  "position_ids": torch.tensor([[0, 0, 1], [0, 1, 2]]), "use_cache": False})
    one, kept = alone(fw, 0)
    assert kept == [1, 2] and one.kwargs["input_ids"].tolist() == [[7, 8]]
    assert one.kwargs["attention_mask"].tolist() == [[1, 1]]
    assert "position_ids" not in one.kwargs and one.kwargs["use_cache"] is False


def test_row_sites_moves_a_rows_write_to_its_kept_positions():
    site = Site(4, 1, (0, 2), (-1,), torch.arange(2.0)[:, None, None].expand(2, 1, 3))
    moved = row_sites([site], 4, 2, 5, [2, 3, 4])
    assert [(s.forward, s.rows, s.positions) for s in moved] == [(0, (0,), (2,))]
    assert moved[0].value.flatten().tolist() == [1.0, 1.0, 1.0]
    assert row_sites([site], 3, 2, 5, [2, 3, 4]) == [] and row_sites([site], 4, 1, 5, [0]) == []


def test_row_sites_refuses_a_write_on_padding():
    site = Site(0, 0, (0,), (0,), VALUE)
    with pytest.raises(RunMismatch, match="padding"):
        row_sites([site], 0, 0, 5, [1, 2, 3, 4])


def test_chosen_rows_are_the_first_middle_and_last():
    assert (chosen(1), chosen(2), chosen(7)) == ([0], [0, 1], [0, 3, 6])


def test_the_readout_keeps_the_first_five_mismatches():
    assert readout(AloneRows(2, 6, [str(i) for i in range(7)]))["mismatched"] == [
        "0", "1", "2", "3", "4"]


def test_the_readout_records_whether_rows_were_re_run_and_each_mismatch():
    assert readout(AloneRows(4, 3, ["forward 0 row 1"])) == {
        "rows_rerun": True, "mismatched": ["forward 0 row 1"]}


def test_the_readout_says_whether_any_row_was_re_run():
    assert readout(AloneRows(2, 0, []))["rows_rerun"] is False
    assert readout(AloneRows(2, 1, []))["rows_rerun"] is True


def test_a_forward_that_never_reached_the_output_is_a_mismatch_saying_so(model):
    def run():
        with stopping_after(model.transformer.h[1]):
            model(input_ids=IDS)

    result = check_rows(model, run, lambda refs: [])
    assert result.mismatched == [f"forward 0 row {r}: alone, with its writes, it gives another "
                                 f"output (none made)" for r in (0, 1, 2)]


def test_a_moved_rows_mismatch_gives_its_largest_difference(model):
    moved = torch.arange(1, 6)[None].expand(3, -1)
    with torch.no_grad():
        batch = model(input_ids=IDS, position_ids=moved).logits[0, -1]
        one = model(input_ids=IDS[:1]).logits[0, -1]
    result = check_rows(model, lambda: model(input_ids=IDS, position_ids=moved), lambda refs: [])
    assert result.mismatched[0] == (f"forward 0 row 0: alone, with its writes, it gives another "
                                    f"output (max abs diff {float((batch - one).abs().max()):.3g})")


def test_rows_are_compared_within_the_declared_tolerance(model, monkeypatch):
    moved = torch.arange(1, 6)[None].expand(3, -1)

    def run():
        model(input_ids=IDS, position_ids=moved)

    for rtol, atol in ((0.0, 100.0), (1e6, 0.0)):
        monkeypatch.setitem(TOLERANCE, torch.float32, (rtol, atol))
        assert check_rows(model, run, lambda refs: []).mismatched == []


def test_a_dtype_without_its_own_tolerance_takes_bf16s():
    wide = gpt2().double()
    result = check_rows(wide, lambda: wide(input_ids=IDS), lambda refs: [])
    assert (result.rows, result.mismatched) == (3, [])


def test_a_forward_continuing_a_cache_is_named_and_later_forwards_still_checked(model):
    def run():
        first = model(input_ids=IDS[:1, :3], use_cache=True)
        model(input_ids=IDS[:1, 3:4], cache=first.past_key_values, use_cache=True)
        model(input_ids=IDS)

    result = check_rows(model, run, lambda refs: [])
    assert result.mismatched == ["forward 1 continues a key-value cache no forward of the run "
                                 "started: its rows are not re-run alone here"]
    assert result.rows == 4  # forward 0's one row, then forward 2's three


def test_a_declared_write_on_padding_is_a_mismatch_and_the_other_rows_are_still_re_run(model):
    ids, mask = IDS.clone(), torch.ones_like(IDS)
    ids[0, :2], mask[0, :2] = 0, 0
    positions = (mask.cumsum(-1) - 1).clamp(min=0)
    result = check_rows(model, lambda: model(input_ids=ids, attention_mask=mask,
                                             position_ids=positions), declared(0, 0))
    assert result.mismatched == ["forward 0 row 0: a write at positions [0] falls on the row's "
                                 "padding"]
    assert result.rows == 2


def test_a_head_write_inside_the_blocks_holds_alone():
    llama_model = llama()

    def head_site(refs):
        return [Site(0, 1, (0,), (3,), refs[0].projections[1][[0]][:, [3], 8:12], (8, 12))]

    result = check_rows(llama_model, lambda: llama_model(input_ids=LLAMA_IDS), head_site,
                        within=True)
    assert (result.rows, result.mismatched) == (2, [])


def test_row_sites_keeps_a_writes_place_inside_the_block():
    head = Site(0, 1, (0,), (3,), torch.zeros(1, 1, 4), (8, 12))
    entering = Site(0, 1, (0,), (3,), torch.zeros(1, 1, 16), block_input=True)
    moved = row_sites([head, entering], 0, 0, 5, [0, 1, 2, 3, 4])
    assert [(s.columns, s.block_input) for s in moved] == [((8, 12), False), (None, True)]


def test_row_sites_takes_only_the_rows_own_value_and_looks_past_other_forwards():
    other = Site(3, 1, (0,), (0,), torch.zeros(1, 1, 3))
    site = Site(4, 1, (0, 2), (-1,), torch.arange(2.0)[:, None, None].expand(2, 1, 3))
    [moved] = row_sites([other, site], 4, 0, 5, [0, 1, 2, 3, 4])
    assert moved.value.flatten().tolist() == [0.0, 0.0, 0.0]

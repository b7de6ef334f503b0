"""harness.rows_alone on a decode loop, a tiny GPT-2's greedy loop over a left-padded batch on a
key-value cache: each chosen row decoded alone (its prefill, then the ids the batch fed it, its
declared writes at their steps) gives each step's logits it gave in the batch; a write on another
row, or positions moved, is a mismatch naming the step and row."""
from __future__ import annotations

import pytest
import torch
from transformers import DynamicCache, GPT2LMHeadModel

from harness.replay import Forward, Site
from harness.rows_alone import check_rows, decoded_alone
from tests.unit.small_models import gpt2

IDS = torch.tensor([[1, 2, 3, 4, 5], [5, 4, 3, 2, 1]], device="cpu")
VALUE = torch.full((1, 1, 16), 3.0, device="cpu")


@pytest.fixture(scope="module")
def model() -> GPT2LMHeadModel:
    return gpt2()


def decode(model, steps: int, write: tuple[int, int] | None = None,
           over_padding: bool = False, step_shift: int = 0):
    """A greedy decode loop over IDS[:2], row 1 left-padded by two, on a cache of its own:
    positions counted from each row's first token (or `over_padding`; each step's moved by
    `step_shift`), VALUE written at block 0's last position of forward `write[0]`, row
    `write[1]`."""
    ids, mask = IDS[:2].clone(), torch.ones_like(IDS[:2])
    ids[1, :2], mask[1, :2] = 0, 0
    positions = torch.arange(5).expand(2, -1) if over_padding else \
        (mask.cumsum(-1) - 1).clamp(min=0)
    calls = {"n": 0}

    def hook(module, args, output):
        calls["n"] += 1
        if write is None or calls["n"] - 1 != write[0]:
            return None
        out = output.clone()
        out[write[1], -1] = VALUE[0, 0]
        return out

    handle = model.transformer.h[0].register_forward_hook(hook, prepend=True)
    try:
        cache = DynamicCache()
        out = model(input_ids=ids, attention_mask=mask, position_ids=positions, cache=cache,
                    use_cache=True)
        for _ in range(steps):
            token = out.logits[:, -1].argmax(-1, keepdim=True)
            mask = torch.cat([mask, torch.ones_like(token)], 1)
            positions = positions[:, -1:] + 1 + step_shift
            out = model(input_ids=token, attention_mask=mask, position_ids=positions,
                        cache=cache, use_cache=True)
    finally:
        handle.remove()


def test_a_decode_loops_rows_decoded_alone_hold(model):
    result = check_rows(model, lambda: decode(model, 3), lambda refs: [])
    assert (result.forwards, result.rows, result.mismatched) == (4, 2, [])


def test_a_decode_step_written_as_declared_holds_alone(model):
    result = check_rows(model, lambda: decode(model, 3, write=(2, 1)), declared_at(2, 1))
    assert (result.rows, result.mismatched) == (2, [])


def test_a_decode_step_written_on_another_row_than_declared_is_a_mismatch_at_that_step(model):
    result = check_rows(model, lambda: decode(model, 3, write=(2, 0)), declared_at(2, 1))
    assert [m.split(":")[0] for m in result.mismatched] == ["forward 2 row 0", "forward 2 row 1"]


def test_a_prefill_written_as_declared_holds_in_its_padded_row(model):
    result = check_rows(model, lambda: decode(model, 2, write=(0, 1)), declared_at(0, 1))
    assert (result.rows, result.mismatched) == (2, [])


def test_a_decode_loop_counting_positions_over_the_padding_is_a_mismatch(model):
    result = check_rows(model, lambda: decode(model, 2, over_padding=True), lambda refs: [])
    assert [m.split(":")[0] for m in result.mismatched] == ["forward 0 row 1"]


def test_a_decode_step_at_another_position_is_a_mismatch_at_that_step(model):
    result = check_rows(model, lambda: decode(model, 1, step_shift=1), lambda refs: [])
    assert [m.split(":")[0] for m in result.mismatched] == ["forward 1 row 0", "forward 1 row 1"]


def declared_at(forward: int, row: int):
    return lambda refs: [Site(forward, 0, (row,), (-1,), VALUE)]


def test_decoded_alone_gives_the_row_its_prefill_then_each_steps_ids_on_a_growing_mask():
    cache = DynamicCache()
    loop = [Forward({"input_ids": torch.tensor([[0, 7, 8], [6, 7, 8]]),
                     "attention_mask": torch.tensor([[0, 1, 1], [1, 1, 1]]),
                     "position_ids": torch.tensor([[0, 0, 1], [0, 1, 2]]), "use_cache": True},
                    "cache", cache=cache)]
    loop += [Forward({"input_ids": torch.tensor([[t], [t + 1]]),
                      "attention_mask": torch.ones(2, 3 + s), "use_cache": True}, "cache",
                     continues=True) for s, t in ((1, 20), (2, 30))]
    decoded, kept = decoded_alone(loop, 0)
    assert kept == [1, 2] and decoded[0].cache is cache and decoded[0].cache_keyword == "cache"
    assert [fw.kwargs["input_ids"].tolist() for fw in decoded] == [[[7, 8]], [[20]], [[30]]]
    assert [fw.kwargs["attention_mask"].tolist() for fw in decoded] == [
        [[1, 1]], [[1, 1, 1]], [[1, 1, 1, 1]]]
    assert [fw.continues for fw in decoded] == [False, True, True]
    assert all(fw.kwargs["use_cache"] is True and "position_ids" not in fw.kwargs
               and fw.kwargs["attention_mask"].dtype == torch.long for fw in decoded)

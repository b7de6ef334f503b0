"""harness.declared_sites on replayed forwards built by hand: each declared copy, head edit, input
edit or decode write becomes the sites its forward, rows, steps and value say, found by the prompts read."""
from __future__ import annotations

import pytest
import torch

from harness.declared_sites import (At, Copy, HeadWrite, InputWrite, Prompts, Reading, DecodeWrite,
                                    copied, decode_writes, within_blocks)
from harness.replay import RunMismatch, Site, SourceNotRead
from tests.unit.replayed_forwards import ref


def clean() -> Prompts:
    return Prompts.of("clean", [[1, 2, 3]])


def cf() -> Prompts:
    return Prompts.of("counterfactual", [[4, 5, 6]])


def run() -> list:
    """A run that reads the counterfactual, then writes twice on the clean prompt in a batch."""
    return [ref([[4, 5, 6]]), ref([[9, 9, 9], [1, 2, 3]]), ref([[1, 2, 3]])]


def test_a_copy_writes_the_sources_value_at_the_rows_that_read_the_written_prompt():
    refs = run()
    [site] = copied([Copy(clean(), cf(), 1, (2,), (0,), At(1))])(refs)
    assert (site.forward, site.layer, site.rows, site.positions) == (1, 1, (1,), (2,))
    assert torch.equal(site.value, refs[0].value(1, [0], [0]))


def test_reading_counts_the_forwards_that_read_the_written_prompts():
    sites = copied([Copy(clean(), cf(), layer, (0,), (0,), Reading(i))
                    for i, layer in enumerate((0, 1))])(run())
    assert [(s.forward, s.layer, s.rows) for s in sites] == [(1, 0, (1,)), (2, 1, (0,))]


def test_reading_minus_one_is_the_last_forward_that_read_them():
    [site] = copied([Copy(clean(), cf(), 0, (0,), (0,), Reading(-1))])(run())
    assert site.forward == 2


def test_a_copy_from_the_written_prompts_copies_their_own_values():
    refs = run()
    [site] = copied([Copy(clean(), clean(), 0, (1,), (1,), At(2))])(refs)
    assert torch.equal(site.value, refs[1].value(0, [1], [1]))


def test_more_reading_writes_than_forwards_is_a_mismatch_naming_the_blocks():
    copies = [Copy(clean(), cf(), layer, (0,), (0,), Reading(i)) for i, layer in enumerate((0, 1, 2))]
    with pytest.raises(SourceNotRead, match=r"3 forwards, 2 of them on the anchor's clean "
                                            r"prompts: 3 writes, one per block of \[0, 1, 2\]"):
        copied(copies)(run())


def test_a_source_never_read_is_a_mismatch():
    with pytest.raises(SourceNotRead, match="counterfactual prompt 0"):
        copied([Copy(clean(), cf(), 0, (0,), (0,), At(1))])(run()[1:])


def test_a_copy_at_a_forward_that_did_not_read_the_written_prompt_is_a_mismatch():
    with pytest.raises(SourceNotRead, match="forward 0 .* every clean prompt"):
        copied([Copy(clean(), cf(), 0, (0,), (0,), At(0))])(run())


def test_sites_keep_the_declarations_order():
    copies = [Copy(clean(), cf(), 1, (0,), (0,), At(2)), Copy(clean(), cf(), 0, (0,), (0,), At(1))]
    assert [s.forward for s in copied(copies)(run())] == [2, 1]
    assert all(isinstance(s, Site) for s in copied(copies)(run()))


def decoding() -> list:
    """Two decode loops: prompt 1 alone (a prefill and two steps), then prompt 0 beside it; each
    forward's values its own."""
    read = [([[4, 5, 6]], object()), ([[7]], None), ([[8]], None),
            ([[1, 2, 3], [4, 5, 6]], object()), ([[7], [9]], None), ([[8], [9]], None)]
    return [ref(ids, cache=cache, offset=100.0 * f) for f, (ids, cache) in enumerate(read)]


def decoded() -> Prompts:
    return Prompts.of("decoded", [[1, 2, 3], [4, 5, 6]])


def vector(i: int, step: int) -> torch.Tensor:
    return torch.full((3,), 10.0 * i + step)


def test_a_set_decode_write_holds_each_prompts_value_at_its_steps_in_each_loop():
    write = DecodeWrite(decoded(), 1, -1, ((0, 0), (1, 2)), vector, False, "arm")
    sites = decode_writes(write)(decoding())
    assert [(s.forward, s.rows, s.positions) for s in sites] == [
        (1, (0,), (-1,)), (2, (0,), (-1,)), (3, (0,), (-1,)), (4, (1,), (-1,)), (5, (1,), (-1,))]
    assert torch.equal(sites[0].value, vector(1, 1)[None, None])
    assert torch.equal(sites[2].value, vector(0, 0)[None, None])


def test_an_added_decode_write_is_the_unedited_value_plus_the_declared_one():
    refs = decoding()
    write = DecodeWrite(decoded(), 1, -1, ((0, 0), (2, 2)), vector, True, "arm")
    [site] = decode_writes(write)(refs[:3])
    assert torch.equal(site.value, refs[2].value(1, [0], [-1]) + vector(1, 2))


def test_a_loop_that_ends_before_a_declared_step_is_a_mismatch_naming_the_steps():
    with pytest.raises(RunMismatch, match=r"prompt 1's decode loop ended before step 3 of its "
                                          r"noise arm \(1, 3\)"):
        write = DecodeWrite(decoded(), 1, -1, ((0, 0), (1, 3)), vector, True, "noise arm")
        decode_writes(write)(decoding()[:3])


def test_a_decode_write_is_at_its_declared_block():
    write = DecodeWrite(decoded(), 1, -1, ((0, 0), (1, 1)), vector, False, "arm")
    sites = decode_writes(write)(decoding())
    assert {s.layer for s in sites} == {1}


def test_an_added_value_takes_the_unedited_values_dtype():
    wide = DecodeWrite(decoded(), 1, -1, ((0, 0), (0, 0)), lambda i, s: vector(i, s).double(), True,
                   "arm")
    assert {s.value.dtype for s in decode_writes(wide)(decoding())} == {torch.float32}


def test_reading_counts_from_the_end_as_far_as_the_first():
    [site] = copied([Copy(clean(), cf(), 0, (0,), (0,), Reading(-2))])(run())
    assert site.forward == 1


def test_the_written_prompts_short_of_forwards_are_named():
    other = Prompts.of("other", [[9, 9, 9]])
    copies = [Copy(clean(), cf(), 0, (0,), (0,), Reading(1)),
              Copy(other, cf(), 1, (0,), (0,), Reading(1))]
    with pytest.raises(SourceNotRead, match=r"1 of them on the anchor's other prompts: 1 writes, "
                                            r"one per block of \[1\]"):
        copied(copies)(run())


def test_a_row_picks_by_place_one_of_the_rows_that_read_the_same_prompt():
    refs = [ref([[4, 5, 6]]), ref([[1, 2, 3]] * 3)]
    thrice = Prompts.of("clean", [[1, 2, 3]] * 3)
    sites = copied([Copy(thrice, cf(), 0, (p,), (p,), At(1), row=p) for p in range(3)])(refs)
    assert [s.rows for s in sites] == [(0,), (1,), (2,)]


def test_a_batch_with_fewer_rows_of_the_prompt_than_declared_is_a_mismatch():
    refs = [ref([[4, 5, 6]]), ref([[1, 2, 3]] * 2)]
    thrice = Prompts.of("clean", [[1, 2, 3]] * 3)
    with pytest.raises(SourceNotRead, match="forward 1 .* every clean prompt"):
        copied([Copy(thrice, cf(), 0, (0,), (0,), At(1), row=0)])(refs)


def test_combine_takes_the_written_prompts_unedited_value_and_the_sources():
    refs = [ref([[4, 5, 6]], offset=100.0), ref([[9, 9, 9], [1, 2, 3]], offset=200.0),
            ref([[1, 2, 3]], offset=300.0)]
    [site] = copied([Copy(clean(), cf(), 1, (2,), (0,), At(2),
                          combine=lambda base, source: torch.stack([base, source]))])(refs)
    assert torch.equal(site.value, torch.stack([refs[1].value(1, [1], [2]),
                                                refs[0].value(1, [0], [0])]))


def head(value: torch.Tensor, at: At | Reading | None = None) -> HeadWrite:
    """Head 2 (3 features wide) of block 1, written at position 2 of the clean prompt in the
    forward `at` names (forward 1 where none)."""
    return HeadWrite(clean(), 1, 2, 3, (2,), value, at or At(1))


def test_a_head_edit_writes_its_heads_columns_at_the_rows_that_read_the_written_prompt():
    value = torch.tensor([[7.0, 8.0, 9.0]])
    [site] = within_blocks([head(value)])(run())
    assert (site.forward, site.layer, site.rows, site.positions, site.columns) == (
        1, 1, (1,), (2,), (6, 9))
    assert torch.equal(site.value, value[None])


def test_a_head_edit_repeats_its_value_for_the_row_of_every_prompt_it_writes_into():
    refs = [ref([[4, 5, 6], [9, 9, 9], [1, 2, 3]])]
    value = torch.tensor([[7.0, 8.0, 9.0], [1.0, 2.0, 3.0]])
    both = Prompts.of("clean", [[4, 5, 6], [1, 2, 3]])
    [site] = within_blocks([HeadWrite(both, 1, 2, 3, (1, 2), value, At(0))])(refs)
    assert site.rows == (0, 2) and torch.equal(site.value, torch.stack([value, value]))


def test_a_head_edit_counts_the_forwards_that_read_the_written_prompts():
    sites = within_blocks([head(torch.zeros(1, 3), Reading(i)) for i in (0, -1)])(run())
    assert [(s.forward, s.rows) for s in sites] == [(1, (1,)), (2, (0,))]


def test_a_head_edit_past_the_forwards_reading_it_is_a_mismatch():
    with pytest.raises(SourceNotRead, match="2 of them on the anchor's clean prompts"):
        within_blocks([head(torch.zeros(1, 3), Reading(2))])(run())


def test_an_input_edit_writes_what_enters_its_block_at_the_rows_that_read_the_prompt():
    value = torch.tensor([[7.0, 8.0, 9.0]])
    [site] = within_blocks([InputWrite(clean(), 1, (2,), value, Reading(-1))])(run())
    assert (site.forward, site.layer, site.rows, site.positions, site.place) == (
        2, 1, (0,), (2,), "input")
    assert site.columns is None and torch.equal(site.value, value[None])


def test_head_and_input_edits_resolve_together_in_their_order():
    sites = within_blocks([head(torch.zeros(1, 3)),
                           InputWrite(clean(), 0, (1,), torch.ones(1, 3), At(2))])(run())
    assert [(s.forward, s.place) for s in sites] == [(1, "heads"), (2, "input")]


def test_an_edit_at_a_forward_that_never_read_its_prompt_is_a_mismatch_naming_it():
    with pytest.raises(RunMismatch, match="clean prompt"):
        within_blocks([head(torch.zeros(1, 3), At(0))])(run())

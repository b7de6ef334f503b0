"""harness.prompt_rows on replayed forwards built by hand (tests/unit/replayed_forwards.py):
rows, forwards and values are found by the prompts each forward read, its left padding dropped,
never by their places."""
from __future__ import annotations

import copy

import pytest
import torch

from harness.prompt_rows import (decode_loops, forwards_reading, read_values, row_ids,
                                 rows_in, rows_of)
from harness.replay import Forward, Reference, SourceNotRead
from tests.unit.replayed_forwards import ref


def test_a_rows_ids_drop_its_left_padding():
    assert row_ids(ref([[0, 0, 7], [5, 6, 7]], [[0, 0, 1], [1, 1, 1]]), 0) == [7]


def test_a_rows_ids_are_all_its_ids_without_a_mask():
    assert row_ids(ref([[0, 0, 7]]), 0) == [0, 0, 7]


def test_rows_are_found_by_the_prompts_they_read_in_any_order():
    assert rows_in(ref([[1, 2, 3], [4, 5, 6]]), [[4, 5, 6], [1, 2, 3]]) == (1, 0)


def test_a_padded_row_is_found_by_its_prompt():
    assert rows_in(ref([[0, 1, 2], [4, 5, 6]], [[0, 1, 1], [1, 1, 1]]), [[1, 2]]) == (0,)


def test_a_prompt_read_in_no_row_is_not_found():
    assert rows_in(ref([[1, 2, 3]]), [[1, 2, 3], [7, 8, 9]]) is None


def test_a_prompt_read_twice_in_one_forward_takes_two_rows():
    assert rows_in(ref([[1, 2, 3], [1, 2, 3]]), [[1, 2, 3], [1, 2, 3]]) == (0, 1)


def test_one_row_serves_one_prompt():
    assert rows_in(ref([[1, 2, 3], [4, 5, 6]]), [[1, 2, 3], [1, 2, 3]]) is None


def test_a_forward_without_ids_reads_no_prompt():
    empty = Reference(Forward({"inputs_embeds": torch.zeros(1, 3, 2)}), [], torch.zeros(1))
    assert rows_in(empty, [[1, 2, 3]]) is None


def test_rows_of_names_the_forward_that_misses_a_prompt():
    refs = [ref([[1, 2, 3]])]
    assert rows_of(refs, 0, [[1, 2, 3]], "clean") == (0,)
    with pytest.raises(SourceNotRead, match="forward 0 .* every clean prompt"):
        rows_of(refs, 0, [[7, 8, 9]], "clean")


def test_rows_of_a_forward_never_made_is_a_mismatch():
    with pytest.raises(SourceNotRead, match="made 1 forwards: forward 1"):
        rows_of([ref([[1, 2, 3]])], 1, [[1, 2, 3]], "clean")


def test_forwards_reading_are_those_that_read_every_prompt_in_the_runs_order():
    refs = [ref([[1, 2, 3]]), ref([[4, 5, 6], [1, 2, 3]]), ref([[4, 5, 6]]), ref([[1, 2, 3]])]
    assert forwards_reading(refs, [[1, 2, 3]]) == [0, 1, 3]
    assert forwards_reading(refs, [[1, 2, 3], [4, 5, 6]]) == [1]


def test_values_come_from_the_first_forward_that_read_each_prompt_in_the_prompts_order():
    first, second = ref([[9, 9, 9], [4, 5, 6]]), ref([[1, 2, 3], [4, 5, 6]])
    value = read_values([first, second], [[1, 2, 3], [4, 5, 6]], "counterfactual")
    expected = torch.cat([second.value(1, [0], [0, 2]), first.value(1, [1], [0, 2])])
    assert torch.equal(value(1, [0, 2]), expected)


def test_a_value_never_computed_is_a_mismatch_naming_the_prompt():
    with pytest.raises(SourceNotRead, match="counterfactual prompt 0"):
        read_values([ref([[9, 9, 9]])], [[1, 2, 3]], "counterfactual")


def test_decode_loops_start_where_a_cache_is_handed_in_and_map_rows_to_prompts():
    cache = object()
    refs = [ref([[1, 2, 3]]), ref([[0, 5, 6], [1, 2, 3]], [[0, 1, 1], [1, 1, 1]], cache=cache),
            ref([[7], [8]]), ref([[1, 2, 3]], cache=copy.copy(cache))]
    assert decode_loops(refs, [[1, 2, 3], [5, 6]]) == [(1, {0: 1, 1: 0}), (3, {0: 0})]


def test_a_decode_row_of_no_prompt_is_a_mismatch():
    with pytest.raises(SourceNotRead, match="row 0 of the decode loop starting at forward 0"):
        decode_loops([ref([[9, 9]], cache=object())], [[1, 2, 3]])

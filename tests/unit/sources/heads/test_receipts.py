"""Seed 001's edit receipts catch an edit that was not consumed as requested."""
from __future__ import annotations

import pytest
import torch

from harness.sources.heads.forward import BlockCapture, verify_block_patches
from harness.sources.heads.patches import head_output_patch, residual_patch, same, tensor_sha


def capture() -> BlockCapture:
    torch.manual_seed(0)
    residual, heads = torch.randn(1, 4, 6), torch.randn(1, 4, 3, 2)
    return BlockCapture(residual, residual.clone(), torch.randn(1, 4, 1, 2), heads, heads.clone(),
                        torch.rand(1, 3, 4, 4))


def test_a_consumed_edit_gets_an_exact_receipt():
    c = capture()
    value = torch.ones(1, 2)
    c.head_output_used[:, -1, 1] = value
    (receipt,), untouched = verify_block_patches(c, [head_output_patch(0, 1, value)], 3)
    assert receipt.exact and receipt.requested_sha256 == receipt.actual_sha256 and untouched


def test_an_edit_not_consumed_is_not_exact():
    c = capture()
    (receipt,), _ = verify_block_patches(c, [residual_patch(0, torch.zeros(1, 6))], 3)
    assert not receipt.exact and receipt.requested_sha256 != receipt.actual_sha256


def test_a_change_to_another_head_is_caught():
    c = capture()
    c.head_output_used[:, -1, 2] += 1
    _, untouched = verify_block_patches(c, [], 3)
    assert not untouched


def test_a_change_to_an_earlier_token_is_caught():
    c = capture()
    value = torch.zeros(1, 6)
    c.residual_used[:, -1] = value
    c.residual_used[:, 0] += 1
    (receipt,), untouched = verify_block_patches(c, [residual_patch(0, value)], 3)
    assert receipt.exact and not untouched


def test_tensor_sha_depends_on_dtype_and_shape():
    x = torch.zeros(2, 2)
    assert len({tensor_sha(x), tensor_sha(x.reshape(4)), tensor_sha(x.double())}) == 3


def test_same_compares_values_not_placement():
    x = torch.randn(2, 3)
    assert same(x, x.clone()) and not same(x, x + 1)


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs CUDA to put a block's input "
                    "(as nnsight reads it) on another device than the block's")
def test_receipts_hold_when_the_read_input_sits_on_another_device():
    # A model spread over devices: nnsight reads the block input before accelerate moves it.
    c = capture()
    value = torch.zeros(1, 6)
    c.residual_used[:, -1] = value
    moved = BlockCapture(c.residual_before, c.residual_used.cuda(), c.values,
                         c.head_output_before, c.head_output_used.cuda(), c.attention)
    (receipt,), untouched = verify_block_patches(moved, [residual_patch(0, value)], 3)
    assert receipt.exact and untouched

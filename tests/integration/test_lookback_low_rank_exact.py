"""Seed 003 §7's anchor in bf16: the unrestricted write is the interchange bit for bit (through
the barrier and through fast mode's read-once path), and the random control's basis lives where
the activations do."""
from __future__ import annotations

import dataclasses

import pytest
import torch

from harness.models.loaded import load
from harness.registry import get_profile
from harness.sources.lookback.interchange import interchange_logits
from harness.sources.lookback.low_rank import swap_pairs, random_basis, written_logits
from harness.sources.lookback.positions import row_layout, state_positions
from harness.sources.lookback.runner import LookbackRunner
from harness.sources.lookback.task import build_binding


@pytest.fixture(scope="module")
def runner() -> LookbackRunner:
    """The lookback organism cast to bf16, the published dtype."""
    sizes = dataclasses.replace(get_profile("tiny").sizes["lookback"], low_rank_ranks=(1,))
    loaded = load(get_profile("tiny").models["lookback"])
    loaded.hf.to(torch.bfloat16)
    return LookbackRunner(loaded, sizes)


@pytest.mark.parametrize("read_once", [False, True], ids=["faithful", "fast"])
@pytest.mark.parametrize("layer", [0, 2])
def test_the_unrestricted_write_is_the_interchange_bit_for_bit_in_bf16(runner, layer, read_once):
    run = dataclasses.replace(runner, sizes=dataclasses.replace(runner.sizes, read_once=read_once))
    rows = build_binding(12, seed=7, instruction=run.instruction)  # a short last batch
    state, state_rev = state_positions(row_layout(run, rows[0]))
    h_dst, h_src = swap_pairs(run, rows, layer, state, state_rev)
    assert h_src.dtype == torch.bfloat16
    written = written_logits(run, rows, layer, state, h_src)
    assert torch.equal(written, next(interchange_logits(run, rows, [layer], state, state_rev)))


def test_the_random_basis_is_seeded_orthonormal_and_on_the_activations_device():
    like = torch.zeros(3, 16, dtype=torch.bfloat16)
    q = random_basis(16, 4, seed=1, like=like)
    assert q.shape == (4, 16) and q.device == like.device and q.dtype == torch.float32
    assert torch.allclose(q @ q.T, torch.eye(4), atol=1e-5)
    assert torch.equal(q, random_basis(16, 4, seed=1, like=like))


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs CUDA to put the activations "
                    "on another device than the CPU the basis is drawn on")
def test_the_random_basis_follows_activations_onto_cuda():
    like = torch.zeros(3, 16, dtype=torch.bfloat16, device="cuda")
    q = random_basis(16, 4, seed=1, like=like)
    assert q.device == like.device
    assert torch.equal(q.cpu(), random_basis(16, 4, seed=1, like=like.cpu()))

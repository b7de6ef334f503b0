"""harness.models.determinism: CUDA's deterministic settings, applied and recorded."""
from __future__ import annotations

import pytest
import torch

from harness.models import determinism


@pytest.fixture
def restored(monkeypatch):
    """Put torch's global settings back after a test applies them."""
    before = (torch.are_deterministic_algorithms_enabled(),
              torch.is_deterministic_algorithms_warn_only_enabled(),
              torch.backends.cudnn.deterministic, torch.backends.cudnn.benchmark)
    monkeypatch.setenv("CUBLAS_WORKSPACE_CONFIG", "unset after the test")  # so it is restored
    monkeypatch.delenv("CUBLAS_WORKSPACE_CONFIG")
    yield
    torch.use_deterministic_algorithms(before[0], warn_only=before[1])
    torch.backends.cudnn.deterministic, torch.backends.cudnn.benchmark = before[2:]


def test_applied_settings_are_recorded(restored):
    determinism.apply()
    assert determinism.settings() == {
        "deterministic_algorithms": True, "warn_only": True,
        "cublas_workspace_config": determinism.CUBLAS_WORKSPACE_CONFIG,
        "cudnn_deterministic": True, "cudnn_benchmark": False}


def test_a_workspace_the_environment_sets_is_kept(restored, monkeypatch):
    monkeypatch.setenv("CUBLAS_WORKSPACE_CONFIG", ":16:8")
    determinism.apply()
    assert determinism.settings()["cublas_workspace_config"] == ":16:8"


def test_wanted_only_where_a_model_runs_on_cuda_and_cuda_is_there():
    assert determinism.wanted(["cuda", "cpu"], cuda=True)
    assert not determinism.wanted(["cuda"], cuda=False)
    assert not determinism.wanted(["cpu"], cuda=True)

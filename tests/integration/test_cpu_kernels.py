"""Verdicts hold on other CPU kernels: the float-heavy families on the micro profile under ATen's
default capability give this CPU's own kernels' verdicts, and values within the organisms' float
tolerance."""
from __future__ import annotations

import os

import pytest

from tests.integration.conftest import differences, micro_run

pytestmark = pytest.mark.meta  # re-runs families: `make test-meta`

# Families whose values are mostly floats: the ones that drifted when pinned under one capability
# and compared exactly under another.
FAMILIES = ["claims/heads", "claims/patching"]


def native_capability() -> str:
    import torch

    return torch.backends.cpu.get_cpu_capability()


def test_float_families_give_the_same_verdicts_and_values_under_default_kernels(
        tmp_path_factory, micro_faithful):
    if native_capability() == "DEFAULT" or os.environ.get("ATEN_CPU_CAPABILITY") == "default":
        pytest.skip("this run already uses ATen's default kernels; no other capability to compare")
    run = micro_run(tmp_path_factory, "default-kernels", *FAMILIES,
                    env={"ATEN_CPU_CAPABILITY": "default"})
    assert run.record.environment["aten_cpu_capability"] == "DEFAULT"
    assert micro_faithful.record.environment["aten_cpu_capability"] == native_capability()
    assert run.returncode == 0, run.stdout[-3000:]
    assert run.record.run.completed
    assert differences(micro_faithful.record, run.record) == []

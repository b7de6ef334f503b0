"""--device-audit flags a tensor made by a source's code without naming its device."""
from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import torch

from harness.plugin.device_audit import DeviceAudit, source_roots

HERE = (str(Path(__file__).parent) + "/",)


def test_a_factory_call_without_a_device_is_flagged_with_its_line():
    with DeviceAudit(HERE) as audit:
        torch.randn(3)
    assert len(audit.found) == 1 and "test_device_audit.py" in audit.found[0]
    assert "torch.randn names no device" in audit.found[0]


def test_a_factory_call_naming_its_device_passes():
    with DeviceAudit(HERE) as audit:
        torch.zeros(2, device="cpu")
        torch.arange(4, device=torch.device("cpu"))
    assert audit.found == []


def test_calls_from_outside_the_audited_folders_are_not_flagged():
    with DeviceAudit(("/nowhere/",)) as audit:
        torch.ones(2)
    assert audit.found == []


def test_the_audited_folders_are_the_registered_sources():
    assert any(root.endswith("/harness/sources/cot/") for root in source_roots())


class Forwarding(torch.overrides.TorchFunctionMode):
    def __torch_function__(self, func, types, args=(), kwargs=None):
        return func(*args, **(kwargs or {}))


def test_a_mode_forwarding_someone_elses_call_is_not_blamed_for_it():
    library_call = compile("torch.ones(2)", "/a/library/outside/the/sources.py", "exec")
    with DeviceAudit(HERE) as audit, Forwarding():
        exec(library_call, {"torch": torch})
    assert audit.found == []


def test_the_sources_seeded_cpu_draws_name_their_device():
    from harness.sources.cot.noise import noise_vector
    from harness.sources.lookback.low_rank import random_basis

    runner = SimpleNamespace(hidden_size=8, dtype=torch.bfloat16, sizes=SimpleNamespace(noise_scale=30))
    with DeviceAudit(source_roots()) as audit:
        noise_vector(runner, 0)
        random_basis(8, 2, 0, like=torch.zeros(1, device="cpu"))
    assert audit.found == []

"""--device-audit: every tensor a source's code creates must name its device, so on a GPU it is
made where the model's activations are; a factory call without one fails the test it ran in."""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest
import torch
from torch.overrides import TorchFunctionMode

from harness.plugin.state import AUDIT

FACTORIES = frozenset({torch.arange, torch.as_tensor, torch.empty, torch.eye, torch.full,
                       torch.linspace, torch.normal, torch.ones, torch.rand, torch.randint,
                       torch.randn, torch.randperm, torch.tensor, torch.zeros})


class DeviceAudit(TorchFunctionMode):
    """Records `file:line torch.name` for each factory call from `roots` that names no device."""

    def __init__(self, roots: tuple[str, ...]) -> None:
        super().__init__()
        self.roots, self.found = roots, []

    def __torch_function__(self, func: Any, types: Any, args: tuple = (), kwargs: Any = None):
        kwargs = kwargs or {}
        if func in FACTORIES and kwargs.get("device") is None:
            frame = sys._getframe(1)
            while frame.f_code.co_name == "__torch_function__" and frame.f_back:
                frame = frame.f_back  # another mode forwarding a call: blame who made it
            caller = frame.f_code.co_filename
            if caller.startswith(self.roots):
                where = f"{Path(caller).parent.name}/{Path(caller).name}:{frame.f_lineno}"
                self.found.append(f"{where} torch.{func.__name__} names no device")
        return func(*args, **kwargs)


def source_roots() -> tuple[str, ...]:
    """The folders holding every registered source's code."""
    from harness.registry import registered

    return tuple(f"{s.folder}/" for s in registered().values())


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None):
    if not item.config.getoption("device_audit"):
        return (yield)
    audit = DeviceAudit(source_roots())
    item.stash[AUDIT] = audit.found
    with audit:
        return (yield)


def audited(item: pytest.Item, report: pytest.TestReport) -> pytest.TestReport:
    """A passing call fails when its test (setup included) made a tensor without a device."""
    found = item.stash.get(AUDIT, None)
    if found and report.when == "call" and report.passed:
        report.outcome = "failed"
        report.longrepr = ("device audit: tensors made without naming a device: "
                           + "; ".join(sorted(set(found))))
    return report

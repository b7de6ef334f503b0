"""A pytest plugin (`-p tests.work_counter`) that counts each experiment fixture's forwards and
positions with its own hook on every metered model's first decoder block, independently of
harness.models.work, and the requests nnsight's local NDIF simulation served; it writes them to
$WORK_COUNTER_DIR/<pid>.json at the end of the session."""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
import torch

from harness.models.work import METER

COUNTS = {"forwards": 0, "positions": 0}
REQUESTS = {"simulated": 0}
STEPS: dict[str, dict[str, dict[str, int]]] = {}
_attach = METER.attach


def first_block(model: torch.nn.Module) -> torch.nn.Module:
    """The first module whose class is a decoder layer or a GPT-2 block."""
    return next(m for m in model.modules()
                if type(m).__name__.endswith(("DecoderLayer", "Block")))


def _count(module, args, kwargs) -> None:
    hidden = args[0] if args else kwargs["hidden_states"]
    COUNTS["forwards"] += 1
    COUNTS["positions"] += hidden.shape[0] * hidden.shape[1]


def _counted_attach(module: torch.nn.Module) -> None:
    """Wherever the harness meters a model whose weights are here (at load, or when a model built
    by name loads them at its first trace), count its first block too."""
    _attach(module)
    first_block(module).register_forward_pre_hook(_count, with_kwargs=True)


METER.attach = _counted_attach


def pytest_configure(config) -> None:
    """Count the requests of nnsight's local NDIF simulation (imported only now: nnsight imported
    before the other plugins load breaks anyio's)."""
    from nnsight.intervention.backends import local

    simulate = local.LocalSimulationBackend.__call__

    def counted(self, *args, **kwargs):
        REQUESTS["simulated"] += 1
        return simulate(self, *args, **kwargs)

    local.LocalSimulationBackend.__call__ = counted


@pytest.hookimpl(wrapper=True)
def pytest_fixture_setup(fixturedef, request):
    before = dict(COUNTS)
    try:
        return (yield)
    finally:
        done = {k: COUNTS[k] - before[k] for k in COUNTS}
        source = fixturedef.baseid.rstrip("/").split("/")[-1]
        if done["forwards"]:
            STEPS.setdefault(source, {})[fixturedef.argname] = done


def pytest_sessionfinish(session) -> None:
    out = Path(os.environ["WORK_COUNTER_DIR"])
    out.mkdir(parents=True, exist_ok=True)
    (out / f"{os.getpid()}.json").write_text(json.dumps({"steps": STEPS, **REQUESTS}))

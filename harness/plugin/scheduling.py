"""Under xdist, one worker per source (its model loads once and its anchors run before its
claims), and each worker on its own GPUs."""
from __future__ import annotations

import os
from typing import Any

import pytest

from harness.plugin.splitting import give_store, is_unit, worker_count

GPU_INPUT = "interp_claims_gpus"  # the workerinput key carrying a worker's CUDA_VISIBLE_DEVICES


def source_scope(nodeid: str, sources: set[str]) -> str:
    """A unit item alone (splitting.py); else the folder of a source's tests (claims/<source>/),
    else the test's own file."""
    if is_unit(nodeid):
        return nodeid
    path = nodeid.split("::", 1)[0]
    folder, _, _ = path.rpartition("/")
    return folder if folder.rpartition("/")[2] in sources else path


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """Group by source folder where --dist is load or loadfile (pytest_configure maps load to
    loadfile; xdist 3.8's loadgroup renames Item._nodeid, which pytest 9.2 no longer reads, so
    its groups silently split)."""
    if config.getoption("dist") != "loadfile":
        return None
    from harness.private import scope_scheduler
    from harness.registry import registered

    sources = set(registered())
    config.option.loadscopereorder = False  # the units in collection order: sources_first's
    return scope_scheduler(config, log, lambda nodeid: source_scope(nodeid, sources))


def in_source_folder(nodeid: str, sources: set[str]) -> bool:
    """Whether a test is in a source's claims folder (or is one of its units)."""
    return source_scope(nodeid, sources) != nodeid.split("::", 1)[0]


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Under xdist, each source's claims folder first (its model's work: the longest units), so
    the workers start on them and the suite's own test files fill in around them; each folder's
    and file's tests keep their order."""
    if worker_count(config) < 2:
        return
    from harness.registry import registered

    sources = set(registered())
    items.sort(key=lambda item: not in_source_folder(item.nodeid, sources))


def visible_gpus(config: pytest.Config) -> list[str]:
    """The GPUs this run may use: --gpus, else CUDA_VISIBLE_DEVICES, else every CUDA device."""
    chosen = config.getoption("gpus") or os.environ.get("CUDA_VISIBLE_DEVICES")
    if chosen is not None:
        return [g for g in chosen.split(",") if g.strip()]
    import torch

    return [str(i) for i in range(torch.cuda.device_count())]


def share_of(gpus: list[str], worker: int, workers: int) -> list[str]:
    """Worker `worker`'s own GPUs: a disjoint slice where there are enough, else one, shared."""
    return gpus[worker::workers] if len(gpus) >= workers else [gpus[worker % len(gpus)]]


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node: Any) -> None:
    """Give each xdist worker its own GPUs, set as CUDA_VISIBLE_DEVICES before CUDA starts there,
    and the run's step store."""
    give_store(node)
    gpus = visible_gpus(node.config)
    if gpus:
        worker = int(node.gateway.id.removeprefix("gw"))
        node.workerinput[GPU_INPUT] = ",".join(share_of(gpus, worker,
                                                        node.workerinput["workercount"]))


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config: pytest.Config) -> None:
    """On a worker, restrict CUDA to the GPUs the controller gave it: first, before resolving the
    profile may start CUDA."""
    gpus = getattr(config, "workerinput", {}).get(GPU_INPUT)
    if gpus is not None:
        os.environ["CUDA_VISIBLE_DEVICES"] = gpus


def pytest_report_collectionfinish(config: pytest.Config, items: list[pytest.Item]) -> list[str]:
    """Under --collect-only, the scheduling units: each goes to one xdist worker."""
    if not config.option.collectonly:
        return []
    from harness.registry import registered

    sources, units = set(registered()), {}
    for item in items:
        unit = source_scope(item.nodeid, sources)
        units[unit] = units.get(unit, 0) + 1
    return ["worker groups (one xdist worker each): "
            + ", ".join(f"{unit} ({count})" for unit, count in units.items())]

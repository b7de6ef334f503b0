"""A registered source's claims folder, `claims/<source>/`, gets its source's fixtures when it is
collected (the given ones and its declared steps', plugin/step_fixtures.py): the folder holds its
tests and needs no conftest."""
from __future__ import annotations

from types import ModuleType

import pytest

from harness.private import register_fixtures
from harness.registry import registered
from harness.source import CLAIMS_FOLDER


def source_of(folder: pytest.Directory) -> str | None:
    """The registered source whose claims `folder` holds: `claims/<source>/`; else None."""
    path = folder.path
    return path.name if path.parent.name == CLAIMS_FOLDER and path.name in registered() else None


@pytest.hookimpl(tryfirst=True)
def pytest_collectstart(collector: pytest.Collector) -> None:
    """Before the folder's modules are collected, its source's fixtures, visible under it only."""
    name = source_of(collector) if isinstance(collector, pytest.Directory) else None
    if name is not None:
        from harness.plugin.step_fixtures import step_fixtures

        holder = ModuleType(f"{name}_fixtures")  # pytest reads fixtures off a module or a class
        vars(holder).update(step_fixtures(name))
        register_fixtures(collector.session, holder, collector)

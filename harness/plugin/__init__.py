"""The pytest plugin's entry point: a good citizen of other projects' pytest sessions. It always
registers the suite's options (harness.plugin.options), and registers the suite's plugin
(harness.plugin.suite: profiles, markers, ordering and blocking, judging, the run record) only
for a session that runs the suite: one rooted in this repository, naming a path inside it,
passing one of the suite's options, or a project whose ini sets `interp_claims = true` (its own
sources' claims). Elsewhere it imports no torch, initialises no CUDA and runs no git, whatever
`-m` selects (another project's marks may share the suite's names)."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

from harness.plugin.options import DEFAULTS, pytest_addoption  # noqa: F401 (a hook)

SUITE = Path(__file__).resolve().parents[2]  # the repository: harness/, claims/, tests/
# The names this plugin loads under: its entry point's (installed) and its module's
# (`-p harness.plugin`, or PYTEST_PLUGINS=harness.plugin with the repo on PYTHONPATH and no install).
NAMES = ("interp_claims", __name__)


def _inside(path: Path) -> bool:
    return path == SUITE or SUITE in path.parents


def wanted(config: pytest.Config) -> bool:
    """Whether this session runs the suite."""
    given = [dest for dest, default in DEFAULTS.items() if config.getoption(dest) != default]
    paths = [Path(a.split("::")[0]).resolve() for a in config.args if not a.startswith("-")]
    return bool(given or _inside(config.rootpath.resolve()) or any(map(_inside, paths))
                or config.getini("interp_claims"))


@pytest.hookimpl(tryfirst=True)
def pytest_cmdline_main(config: pytest.Config) -> None:
    """A plan runs nothing, so it runs in this process: no xdist workers (-n is ignored)."""
    if config.getoption("plan"):
        config.option.numprocesses, config.option.dist, config.option.tx = None, "no", []


def pytest_configure(config: pytest.Config) -> None:
    if wanted(config) and not config.pluginmanager.has_plugin("harness.plugin.suite"):
        config.pluginmanager.import_plugin("harness.plugin.suite")


def pytest_plugin_registered(plugin: object, manager: pytest.PytestPluginManager) -> None:
    """Once loaded under one of NAMES, block the other, so that the entry point and `-p` or
    PYTEST_PLUGINS together load it once (pluggy refuses a module registered twice)."""
    if plugin is sys.modules[__name__]:
        for name in NAMES:
            if manager.get_plugin(name) is None and not manager.is_blocked(name):
                manager.set_blocked(name)


def __getattr__(name: str):
    """The suite plugin's helpers (model_for, …), imported when first
    asked for; never a hook or a dunder, which pytest and Python look up on every module."""
    if name.startswith(("pytest_", "__")):
        raise AttributeError(name)
    import importlib

    return getattr(importlib.import_module("harness.plugin.suite"), name)

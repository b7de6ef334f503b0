"""The source registry: one package per seed notebook, each declaring `SOURCE`.

Sources are found in two places: the packages under `harness/sources/`, and the modules named by
the `interp_claims.sources` entry points of installed distributions (so a source kept outside this
repository registers without editing it). Sources are imported by name when asked for, so this
module, like `harness.source`, imports none and sits on the ground floor."""
from __future__ import annotations

import importlib
import pkgutil
from functools import cache
from importlib.metadata import entry_points
from pathlib import Path
from types import ModuleType

from harness.profiles import Profile, ProfileName
from harness.source import Source

ENTRY_POINT_GROUP = "interp_claims.sources"
SOURCES_PACKAGE = "harness.sources"
SOURCES_DIR = Path(__file__).resolve().parent / "sources"


def _declared(module: ModuleType | Source) -> Source:
    found = module if isinstance(module, Source) else getattr(module, "SOURCE", None)
    if not isinstance(found, Source):
        raise TypeError(f"{getattr(module, '__name__', module)!r} declares no SOURCE")
    return found


def _folders() -> list[str]:
    return [info.name for info in pkgutil.iter_modules([str(SOURCES_DIR)]) if info.ispkg]


@cache
def registered() -> dict[str, Source]:
    """Every source, by name: the sub-packages of harness/sources/, then the entry points."""
    found: dict[str, Source] = {}
    modules = [(name, importlib.import_module(f"{SOURCES_PACKAGE}.{name}")) for name in _folders()]
    modules += [(ep.name, ep.load()) for ep in entry_points(group=ENTRY_POINT_GROUP)]
    for name, module in modules:
        src = _declared(module)
        if src.name in found:
            raise ValueError(f"two sources are called {src.name!r}: {found[src.name].package} "
                             f"and {src.package}")
        if src.name != name:
            raise ValueError(f"{src.package} declares the source {src.name!r} but is found as "
                             f"{name!r}: a source's folder or entry point carries its name")
        found[src.name] = src
    return found


@cache
def source_names() -> frozenset[str]:
    """Every source's name, importing none of them: the sub-packages of harness/sources/ and the
    entry points' names (registered() checks that each declares the name it is found under).
    Read once per process, as registered() is: every claim declaration asks, and reading the
    installed distributions' entry points takes about 10 ms."""
    return frozenset(_folders()) | {ep.name for ep in entry_points(group=ENTRY_POINT_GROUP)}


def source(name: str) -> Source:
    """The registered source called `name`."""
    return registered()[name]


@cache
def get_profile(name: str) -> Profile:
    """The profile called `name`, gathered from every registered source's declaration."""
    chosen = ProfileName(name)
    found = registered().values()
    return Profile(name=chosen,
                   models={s.name: s.models[chosen] for s in found if chosen in s.models},
                   sizes={s.name: s.sizes[chosen] for s in found if chosen in s.sizes})

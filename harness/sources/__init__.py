"""The source registry: one package per seed notebook, each declaring `SOURCE`.

Sources are found in two places: the packages under `harness/sources/`, and the modules named by
the `interp_claims.sources` entry points of installed distributions (so a source kept outside this
repository registers without editing it)."""
from __future__ import annotations

import dataclasses
import importlib
import pkgutil
from dataclasses import dataclass, field
from functools import cache
from importlib.metadata import entry_points
from pathlib import Path
from types import ModuleType
from typing import Any, Mapping

from harness.profiles import ModelSpec, Profile, ProfileName

REPO_ROOT = Path(__file__).resolve().parents[2]
ENTRY_POINT_GROUP = "interp_claims.sources"
BUILT_IN_ORGANISMS = REPO_ROOT / "fixtures" / "organisms"


@dataclass(frozen=True)
class Source:
    """One seed notebook: its file and title, and per profile its model and experiment sizes.

    `package` holds the source's task and experiments and, by convention, optional `organism`
    (make, build_tokenizer, build_model) and `figures` (FIGURES, FIGURES_OF_RUN) modules.
    `organisms_dir` holds its organism's weights and manifest (<organisms_dir>/<organism>/);
    its snapshots are pinned under the rootdir its claims run from (snapshots/<profile>/<name>/)."""

    name: str
    package: str
    seed_file: str
    title: str
    models: Mapping[ProfileName, ModelSpec]
    sizes: Mapping[ProfileName, Any] = field(default_factory=dict)
    organisms_dir: Path = BUILT_IN_ORGANISMS
    # Where xdist has more workers than sources: experiment fixtures that a spare worker may run
    # on its own (costliest first, by the plan), and the fixtures they need, computed once and
    # shared through the on-disk step store (harness/steps.py).
    units: tuple[str, ...] = ()
    shared_steps: tuple[str, ...] = ()
    # Whether its experiments run on NDIF (--backend=ndif): every model read inside a trace, every
    # value written back moved to the model's device, no plain-PyTorch forward a claim needs.
    remote: bool = False

    def __post_init__(self) -> None:
        models = {p: dataclasses.replace(m, source=self.name) for p, m in self.models.items()}
        sizes = dict(self.sizes)
        if ProfileName.PUBLISHED in models:
            # The rehearsal loads the published model's files with its loading arguments
            # unchanged; its sizes are the published ones unless the source declares smaller.
            models.setdefault(ProfileName.REHEARSAL, models[ProfileName.PUBLISHED])
            if ProfileName.PUBLISHED in sizes:
                sizes.setdefault(ProfileName.REHEARSAL, sizes[ProfileName.PUBLISHED])
        if ProfileName.TINY in models:
            # The micro profile runs the organism at the source's micro sizes (else its tiny ones).
            models.setdefault(ProfileName.MICRO, models[ProfileName.TINY])
            if ProfileName.TINY in sizes:
                sizes.setdefault(ProfileName.MICRO, sizes[ProfileName.TINY])
        object.__setattr__(self, "models", models)
        object.__setattr__(self, "sizes", sizes)

    @property
    def model(self) -> str:
        """The published model's id."""
        spec = self.models.get(ProfileName.PUBLISHED)
        return spec.hf_id if spec is not None and spec.hf_id else "no published model"

    def part(self, name: str) -> ModuleType | None:
        """The source's module `name` (e.g. organism, figures), or None if it has none."""
        dotted = f"{self.package}.{name}"
        try:
            return importlib.import_module(dotted)
        except ModuleNotFoundError as exc:
            if exc.name == dotted:
                return None
            raise


def _declared(module: ModuleType | Source) -> Source:
    found = module if isinstance(module, Source) else getattr(module, "SOURCE", None)
    if not isinstance(found, Source):
        raise TypeError(f"{getattr(module, '__name__', module)!r} declares no SOURCE")
    return found


@cache
def registered() -> dict[str, Source]:
    """Every source, by name: this package's sub-packages, then the entry points."""
    found: dict[str, Source] = {}
    modules = [(info.name, importlib.import_module(f"{__name__}.{info.name}"))
               for info in pkgutil.iter_modules(__path__) if info.ispkg]
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


def source_names() -> set[str]:
    """Every source's name, importing none of them: this package's sub-packages and the entry
    points' names (registered() checks that each declares the name it is found under)."""
    return ({info.name for info in pkgutil.iter_modules(__path__) if info.ispkg}
            | {ep.name for ep in entry_points(group=ENTRY_POINT_GROUP)})


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

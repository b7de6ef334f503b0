"""A source's declaration: one seed notebook, its model and sizes per profile, and its folder.

This module is the ground floor with `harness.registry`: it imports no source, so every package
may import it."""
from __future__ import annotations

import dataclasses
import importlib
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from types import ModuleType
from typing import Any, Callable, Mapping

from harness.declared_steps import Step
from harness.profiles import ModelSpec, ProfileName

REPO_ROOT = Path(__file__).resolve().parents[1]
BUILT_IN_ORGANISMS = REPO_ROOT / "fixtures" / "organisms"
CLAIMS_FOLDER = "claims"  # <rootdir>/claims/<source>/ holds a source's claim tests


class SourcePart(StrEnum):
    """The modules of a source's package that the harness beneath it reads by name, through
    `Source.part` alone (tests/test_layers.py finds every such read and the cycles it could
    close)."""

    STEPS = "steps"  # STEPS, its declared experiment steps
    ORGANISM = "organism"  # make, build_tokenizer, build_model
    ORGANISM_NOTES = "organism_notes"  # CLAIM_NOTES: what the organism forces in each finding
    FIGURES = "figures"  # FIGURES, its Figures
    BREAKAGES = "breakages"  # BREAKAGES and the ANCHORS that must catch them
    PLAN = "plan"  # its cost plan's work per step


EntryJSON = dict[str, Any]  # an entry as results.json holds it (the figures' API)


@dataclass(frozen=True)
class Figures:
    """A source's figures by claim id, as inline SVG: `of_entry` draws from the claim's entry
    alone, `of_run` reads the run's other entries too (a figure that shows sibling claims)."""

    of_entry: Mapping[str, Callable[[EntryJSON], str]] = field(default_factory=dict)
    of_run: Mapping[str, Callable[[EntryJSON, dict[str, EntryJSON]], str]] = \
        field(default_factory=dict)

    @property
    def claim_ids(self) -> frozenset[str]:
        """The claims it draws."""
        return frozenset(self.of_entry) | frozenset(self.of_run)

    def draw(self, entry: EntryJSON, run: dict[str, EntryJSON]) -> str | None:
        """The entry's figure, or None where it declares none."""
        if entry["id"] in self.of_run:
            return self.of_run[entry["id"]](entry, run)
        draw = self.of_entry.get(entry["id"])
        return draw(entry) if draw else None


@dataclass(frozen=True)
class Source:
    """One seed notebook: its file and title, and per profile its model and experiment sizes.

    `package` holds the source's task and experiments and the optional modules `SourcePart` names;
    its folder holds its register rows and how its claims read them (harness.register).
    `seed_file` names its notebook's text and `seed_sha256` pins that text.
    `organisms_dir` holds its organism's weights and manifest (<organisms_dir>/<organism>/);
    its snapshots are pinned under the rootdir its claims run from (snapshots/<profile>/<name>/)."""

    name: str
    package: str
    seed_file: str
    title: str
    models: Mapping[ProfileName, ModelSpec]
    sizes: Mapping[ProfileName, Any] = field(default_factory=dict)
    organisms_dir: Path = BUILT_IN_ORGANISMS
    seed_sha256: str = ""
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

    @property
    def folder(self) -> Path:
        """The folder of its package, which holds its register rows."""
        return Path(importlib.import_module(self.package).__file__).parent

    def claims_folder(self, root: Path = REPO_ROOT) -> Path:
        """The folder of its claim tests under the rootdir `root` (the suite's own by default)."""
        return root / CLAIMS_FOLDER / self.name

    @property
    def steps(self) -> tuple[Step, ...]:
        """Its declared experiment steps (its `steps` module's STEPS; none without one)."""
        module = self.part(SourcePart.STEPS)
        return module.STEPS if module is not None else ()

    @property
    def figures(self) -> Figures:
        """Its declared figures (its `figures` module's FIGURES; none without one)."""
        module = self.part(SourcePart.FIGURES)
        return module.FIGURES if module is not None else Figures()

    @property
    def units(self) -> tuple[str, ...]:
        """Where xdist has more workers than sources: the steps a spare worker may run alone."""
        return tuple(s.name for s in self.steps if s.unit)

    @property
    def shared_steps(self) -> tuple[str, ...]:
        """The steps units read, computed once and shared through the on-disk step store."""
        return tuple(s.name for s in self.steps if s.shared)

    def part(self, name: SourcePart) -> ModuleType | None:
        """The source's module `name` (one `SourcePart` names), or None if it has none."""
        dotted = f"{self.package}.{SourcePart(name)}"
        try:
            return importlib.import_module(dotted)
        except ModuleNotFoundError as exc:
            if exc.name == dotted:
                return None
            raise

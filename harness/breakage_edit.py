"""A breakage (issue 25), declared and applied: the edit, then its module's edited copy written to a
file of its own and imported in place of the original, with every other module of the source (and
of the source whose code it reads) freshly imported around it, and the originals put back after.
A source's breakages.py imports its declaration from here, beneath the catalogue that runs them."""
from __future__ import annotations

import importlib.util
import sys
from contextlib import contextmanager
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Iterator


class Part(StrEnum):
    """What a breakage edits: a write into the model, a study's logic over what was measured, a
    readout of what a forward returned, or the mapping of a batched (fast-mode) forward's rows."""

    WRITE = "write"
    STUDY = "study"
    READOUT = "readout"
    BATCHING = "batching"


@dataclass(frozen=True)
class Breakage:
    """One edit: in `module`, the text `old` (found exactly once) becomes `new`; `kind` says
    what it breaks (write nothing, wrong layer, wrong position, wrong row or head, wrong step,
    zero size, …) and `part` what it edits. `crashes` declares that the edit is caught by an
    exception rather than a check's failure; `gap`, when set, says why no anchor can see it."""

    name: str
    kind: str
    module: str
    old: str
    new: str
    gap: str = ""
    part: Part = Part.WRITE
    crashes: bool = False

    def null(self) -> Breakage:
        """The control: the same module through the same temporary copy, its text unchanged."""
        return Breakage(f"null edit of {self.module}", "none", self.module, self.old, self.old)


def source_text(module: str) -> str:
    """The text of `module`'s file."""
    spec = importlib.util.find_spec(module)
    if spec is None or spec.origin is None:
        raise ValueError(f"no module {module}")
    return Path(spec.origin).read_text()


def holder(module: str, package: str) -> str:
    """The package whose modules are refreshed with `module`: `package` (the source's) where it
    holds it, else the registered source package that does (code this source reads from another)."""
    from harness.registry import registered

    owners = [package] + [s.package for s in registered().values()]
    found = next((p for p in owners if module.startswith(p + ".")), None)
    if found is None:
        raise ValueError(f"{module} is in neither the source's package {package} nor another "
                         "registered source's")
    return found


@contextmanager
def broken(b: Breakage, folder: Path, package: str) -> Iterator[None]:
    """While open, `b.module` is the edited copy and the other modules of `package` (the source's)
    and of the package holding `b.module` (another source's, whose code it reads) are fresh."""
    packages = tuple(dict.fromkeys((package, holder(b.module, package))))
    text = source_text(b.module)
    # a file of its own per breakage: nnsight and linecache key a trace's source by file name
    copy = folder / f"{len(list(folder.iterdir()))}_{b.module.rsplit('.', 1)[-1]}.py"
    copy.write_text(text.replace(b.old, b.new))

    def inside(name: str) -> bool:
        return name.startswith(tuple(p + "." for p in packages))

    saved = {k: m for k, m in sys.modules.items() if inside(k)}
    parents = {p: sys.modules[p] for p in packages}
    # `from package import module` reads the package's attribute first
    bound = {p: {k: v for k, v in vars(parent).items() if f"{p}.{k}" in saved}
             for p, parent in parents.items()}
    for k in saved:
        del sys.modules[k]
    for p, names in bound.items():
        for k in names:
            delattr(parents[p], k)
    try:
        edited = importlib.util.spec_from_file_location(b.module, copy)
        module = importlib.util.module_from_spec(edited)
        sys.modules[b.module] = module
        edited.loader.exec_module(module)
        yield
    finally:
        for k in [k for k in sys.modules if inside(k)]:
            del sys.modules[k]
            parent = parents[next(p for p in packages if k.startswith(p + "."))]
            if hasattr(parent, k.rsplit(".", 1)[-1]):
                delattr(parent, k.rsplit(".", 1)[-1])
        sys.modules.update(saved)
        for p, names in bound.items():
            for k, v in names.items():
                setattr(parents[p], k, v)

"""A throw-away source package (its steps) and claims folder (its tests), for the unit tests of
the catalogue's derived checks (harness.anchor_checks)."""
from __future__ import annotations

import sys
import textwrap
from pathlib import Path
from typing import Iterator

import pytest

from harness.source import Source


def fake_source(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, prefix: str, steps: str,
                tests: str) -> Iterator[tuple[Source, Path]]:
    """The source `fake` (a package named from `prefix`, its steps.py `steps`) and its claims
    folder (test_fake.py: `tests`); the package's modules forgotten after."""
    package = f"{prefix}_{tmp_path.name.replace('-', '_')}"
    (tmp_path / package).mkdir()
    (tmp_path / package / "__init__.py").write_text("")
    (tmp_path / package / "steps.py").write_text(textwrap.dedent(steps))
    (tmp_path / "claims").mkdir()
    (tmp_path / "claims" / "test_fake.py").write_text(textwrap.dedent(tests))
    monkeypatch.syspath_prepend(str(tmp_path))
    yield Source(name="fake", package=package, seed_file="none", title="fake", models={}), \
        tmp_path / "claims"
    for name in [k for k in sys.modules if k.startswith(package)]:
        del sys.modules[name]

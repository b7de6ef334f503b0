"""harness.breakage_edit: a breakage's module edited in place of the original, the source's other
modules fresh around it, the original back after; a module outside every source refused."""
from __future__ import annotations

from pathlib import Path

import pytest

from harness.breakage_edit import broken
from harness.breakage_edit import Breakage


def test_a_breakage_outside_every_source_package_is_refused(tmp_path: Path):
    b = Breakage("b", "k", "elsewhere.module", "x", "y")
    with pytest.raises(ValueError, match="nor another registered source's"):
        with broken(b, tmp_path, "harness.sources.patching"):
            pass


def test_a_breakage_of_code_read_from_another_source_edits_that_sources_module(tmp_path: Path):
    old = "return float(logits[pair.clean_name] - logits[pair.corrupted_name])"
    b = Breakage("b", "wrong sign", "harness.sources.patching.experiments", old, "return 0.0")
    with broken(b, tmp_path, "harness.sources.ioi_tutorial"):
        from harness.sources.patching import experiments

        assert "return 0.0" in Path(experiments.__file__).read_text()
    from harness.sources.patching import experiments

    assert old in Path(experiments.__file__).read_text()

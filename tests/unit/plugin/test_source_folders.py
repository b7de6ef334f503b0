"""harness.plugin.source_folders: which folders get a source's fixtures."""
from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

from harness.plugin.source_folders import source_of


def folder(path: str) -> SimpleNamespace:
    return SimpleNamespace(path=Path(path))


def test_a_claims_folder_named_after_a_registered_source_is_that_sources():
    assert source_of(folder("/repo/claims/patching")) == "patching"


def test_a_claims_folder_of_no_registered_source_is_none():
    assert source_of(folder("/repo/claims/not_a_source")) is None


def test_a_folder_named_after_a_source_outside_claims_is_none():
    assert source_of(folder("/repo/tests/unit/sources/patching")) is None

"""Seed 001 on the compiled heads organism: each planted mechanism is recovered, and each study
whose write is made a no-op misses it (a known-answer check fails, not only a snapshot): a screen
that measures nothing ties every head, and a tie picks none."""
from __future__ import annotations

import importlib
from pathlib import Path

import pytest

from harness import breakage_edit
from harness.models.handle import Loaded
from harness.models.loaded import load
from harness.organisms.common import read_manifest
from harness.registry import get_profile, source
from harness.sources.heads.breakages import BREAKAGES
from harness.sources.heads.known_answers import KNOWN

# A breakage that makes a study's write a no-op → the known answers it must cost.
NO_OPS = {"residual edit writes nothing": ("heads.residual-transplant",),
          "head edit writes nothing": ("heads.opening-screen", "heads.block32-screen")}


@pytest.fixture(scope="module")
def model() -> Loaded:
    return load(get_profile("tiny").models["heads"])


@pytest.fixture(scope="module")
def planted() -> dict:
    return read_manifest("heads", source("heads").organisms_dir)["planted"]


def known_answer_failures(model: Loaded, planted: dict) -> dict[str, list[str]]:
    """Every known-answer check's failures, from the modules imported now."""
    checks = importlib.import_module("harness.sources.heads.known_answers").checks(
        model, get_profile("tiny").sizes["heads"], planted)
    return {claim_id: checks[f"{claim_id} (known answer)"]() for claim_id in KNOWN}


def test_the_organism_recovers_every_planted_mechanism(model, planted):
    assert known_answer_failures(model, planted) == {claim_id: [] for claim_id in KNOWN}


@pytest.mark.parametrize("name", sorted(NO_OPS))
def test_a_write_made_a_no_op_misses_the_planted_mechanism(model, planted, name, tmp_path: Path):
    breakage = next(b for b in BREAKAGES if b.name == name)
    with breakage_edit.broken(breakage, tmp_path, source("heads").package):
        failed = known_answer_failures(model, planted)
    for claim_id in NO_OPS[name]:
        assert failed[claim_id] and "missed the planted" in failed[claim_id][0], failed

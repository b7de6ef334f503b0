"""Issue 29 on the compiled lookback organism: each planted mechanism is recovered, and §4, §5
and §7's writes made into no-ops miss it (a known-answer check fails, not only a snapshot)."""
from __future__ import annotations

import importlib
from pathlib import Path

import pytest

from harness import breakage_edit
from harness.models.handle import Loaded
from harness.models.loaded import load
from harness.organisms.common import read_manifest
from harness.registry import get_profile, source
from harness.sources.lookback.breakages import BREAKAGES

# A breakage that makes a write a no-op → the known answer it must cost.
NO_OPS = {"§4 interchange writes nothing": "lookback.reversed-curve",
          "§5 source swap writes nothing": "lookback.source-oi",
          "§7 low-rank writes nothing": "lookback.low-rank"}


@pytest.fixture(scope="module")
def model() -> Loaded:
    return load(get_profile("tiny").models["lookback"])


@pytest.fixture(scope="module")
def planted() -> dict:
    return read_manifest("lookback", source("lookback").organisms_dir)["planted"]


def known_answer_failures(model: Loaded, planted: dict, claim_id: str) -> list[str]:
    """The known-answer check of `claim_id` on the tiny profile's sizes, from the modules
    imported now."""
    checks = importlib.import_module("harness.sources.lookback.known_answers").checks
    return checks(model, get_profile("tiny").sizes["lookback"], planted)[
        f"{claim_id} (known answer)"]()


@pytest.mark.parametrize("claim_id", sorted(set(NO_OPS.values())))
def test_the_organism_recovers_the_planted_mechanism(model, planted, claim_id):
    assert known_answer_failures(model, planted, claim_id) == []


@pytest.mark.parametrize("name", sorted(NO_OPS))
def test_a_write_made_a_no_op_misses_the_planted_mechanism(model, planted, name, tmp_path: Path):
    breakage = next(b for b in BREAKAGES if b.name == name)
    with breakage_edit.broken(breakage, tmp_path, source("lookback").package):
        failed = known_answer_failures(model, planted, NO_OPS[name])
    assert failed and "missed the planted" in failed[0], failed

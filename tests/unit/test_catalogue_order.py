"""harness.catalogue_order: the pinned catch tried first, the reference anchors next for a study,
the pinned record read from a source's snapshots, and a pinned catch that no longer holds."""
from __future__ import annotations

import importlib
import json
from pathlib import Path

from harness import catalogue
from harness.anchor_checks import Checks
from harness.breakage_edit import Breakage, Part
from harness.catalogue_order import in_order, pinned_catches
from harness.source import Source

CHECKS = {"s.fires-once": list, "s.sweep-reference": list, "s.rows": list}
STUDY = Breakage("x", "wrong cell", "m", "a", "b", part=Part.STUDY)


def names(items: list) -> list[str]:
    return [anchor for anchor, _ in items]


def test_the_pinned_catch_is_tried_first():
    assert names(in_order(STUDY, CHECKS, {"x": "s.rows"})) == [
        "s.rows", "s.sweep-reference", "s.fires-once"]


def test_another_breakages_pinned_catch_changes_nothing():
    assert names(in_order(STUDY, CHECKS, {"y": "s.rows"})) == names(in_order(STUDY, CHECKS))


def test_a_pinned_catch_no_longer_declared_changes_nothing():
    assert names(in_order(STUDY, CHECKS, {"x": "s.gone"})) == names(in_order(STUDY, CHECKS))


def pin(folder: Path, claim_id: str, outcomes: dict) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{claim_id}.json").write_text(json.dumps(
        {"id": claim_id, "measured": {"outcomes": outcomes}}))


def test_the_pinned_record_gives_each_caught_breakages_check(tmp_path):
    pin(tmp_path, "s.breakages-caught", {
        "a": {"outcome": "caught", "check": "s.rows", "message": ""},
        "b": {"outcome": "not caught", "check": None, "message": ""}})
    pin(tmp_path, "s.other", {"a": {"outcome": "caught", "check": "s.else"}})
    assert pinned_catches(tmp_path, "s.breakages-caught") == {"a": "s.rows"}


def test_no_pinned_record_gives_no_first_check(tmp_path):
    (tmp_path / "broken.json").write_text("{")
    assert pinned_catches(tmp_path, "s.breakages-caught") == {}
    assert pinned_catches(tmp_path / "absent", "s.breakages-caught") == {}


def test_a_pinned_catch_that_no_longer_fails_falls_back_to_the_others(tmp_path, monkeypatch):
    package = "fake_order_" + tmp_path.name.replace("-", "_")
    folder = tmp_path / package
    folder.mkdir()
    (folder / "__init__.py").write_text("")
    (folder / "double.py").write_text("def twice(x):\n    return 2 * x\n")
    (folder / "breakages.py").write_text(
        "from harness.breakage_edit import Breakage\n"
        f"BREAKAGES = (Breakage('triples', 'wrong value', '{package}.double', 'return 2 * x',"
        " 'return 3 * x'),)\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    __import__(package)
    fake = Source(name="fake", package=package, seed_file="none", title="fake", models={})

    def checks() -> Checks:
        double = importlib.import_module(f"{package}.double")
        return {"holds": lambda: [], "doubles": lambda: [] if double.twice(2) == 4 else ["6"]}
    record = catalogue.readout(catalogue.run(fake, checks, first={"triples": "holds"}))
    assert record["outcomes"]["triples"]["check"] == "doubles" and record["missed"] == []


def test_a_study_breakage_tries_the_reference_anchors_first():
    write = Breakage("x", "write nothing", "m", "a", "b", part=Part.WRITE)
    assert names(in_order(STUDY, CHECKS)) == ["s.sweep-reference", "s.fires-once", "s.rows"]
    assert names(in_order(write, CHECKS)) == list(CHECKS)

"""The rules every source applies (harness.standard_anchors), through the judge on an organism: a
broken fire-once write or a missed breakage fails its anchor through its holds, with what it
measured recorded; one that holds is judged held."""
from __future__ import annotations

import pytest

from harness import catalogue, fire_once
from harness.fire_once import FireOnce
from harness.plugin.judging import Judge
from harness.verdicts import Failure, Judged
from tests.unit.plugin.judged_items import declared, item, state

WRITTEN = FireOnce(3, True, True, True, True, [])
CAUGHT = {"clean_failures": {}, "breakages": 2, "caught": 2, "missed": [], "stale": [],
          "outcomes": {}, "null_edit_module": "m", "null_edit_failures": {}, "parts": {},
          "kinds": [], "gaps": {}}


def anchor(claim_id: str, fields: dict):
    """The anchor a source declares with the rule's `fields`, in a session on micro (an organism that pins no snapshot)."""
    fields = {k: v for k, v in fields.items() if k not in ("kind", "readout")}
    return item(declared(claim_id, "anchor", "gpu", **fields))


def fire_once_anchor():
    return anchor("cot.f", fire_once.claim_fields("s", "p"))


def catalogue_anchor():
    return anchor("cot.c", catalogue.claim_fields("s"))


def judge_of(test):
    return Judge(test, snapshot=None)


def test_a_fire_once_write_that_held_is_judged_held():
    test = fire_once_anchor()
    judge_of(test)(fire_once.readout(WRITTEN))
    assert state(test).holds_check["ok"] is True


def test_a_fire_once_write_that_moved_something_else_fails_its_holds_and_keeps_its_values():
    test = fire_once_anchor()
    moved = FireOnce(3, True, False, True, True, ["forward 0: block 2 moved at position 4"])
    with pytest.raises(Judged, match="untouched_identical: measured False"):
        judge_of(test)(fire_once.readout(moved))
    assert state(test).judged is Failure.CRITERION
    assert state(test).measured["failures"] == ["forward 0: block 2 moved at position 4"]


def test_a_fire_once_failure_alone_fails_its_holds():
    test = fire_once_anchor()
    with pytest.raises(Judged, match="failures"):
        judge_of(test)(fire_once.readout(FireOnce(3, True, True, True, True, ["x"])))
    assert state(test).judged is Failure.CRITERION


def test_a_catalogue_that_caught_every_breakage_is_judged_held():
    test = catalogue_anchor()
    judge_of(test)(CAUGHT)
    assert state(test).holds_check["ok"] is True


@pytest.mark.parametrize("key, value", [("missed", ["b"]), ("stale", ["b"]),
                                        ("clean_failures", {"a": "x"}),
                                        ("null_edit_failures", {"a": "x"})])
def test_a_catalogue_with_a_miss_fails_its_holds_and_keeps_its_record(key, value):
    test = catalogue_anchor()
    with pytest.raises(Judged, match=key):
        judge_of(test)({**CAUGHT, key: value, "caught": 1})
    assert state(test).judged is Failure.CRITERION
    assert state(test).measured[key] == value

"""harness.claim_tests: a claim declared whole is its own test, named by its id."""
from __future__ import annotations

import inspect
from typing import Any

import pytest

from harness import claim_tests
from harness.claim_tests import judging_test
from harness.claims import claim, spec_of
from harness.criteria import Exact
from harness.readout_types import judged_type

DECLARED = {"kind": "anchor", "section": "1", "statement": "s", "published": {"n": 2},
            "provenance": "p", "criterion": Exact("n")}


def counted(rows: list[int], extra: list[int]) -> dict[str, Any]:
    return {"n": len(rows) + 10 * len(extra)}


def judged_by(test, **steps: Any) -> list[dict[str, Any]]:
    judged: list[dict[str, Any]] = []
    test(judged.append, **steps)
    return judged


def test_a_claims_test_is_named_by_its_id():
    assert claim_tests.test_name("cot.fire-once") == "test_fire_once"


def test_a_dot_in_the_id_past_its_source_becomes_an_underscore():
    assert claim_tests.test_name("heads.crossing-31.7") == "test_crossing_31_7"


def test_its_parameters_are_judge_and_the_steps_it_reads_in_order():
    test = judging_test("cot.x", counted, ("cot_rows", "cot_extra"))
    assert list(inspect.signature(test).parameters) == ["judge", "cot_rows", "cot_extra"]


def test_its_body_judges_the_readout_of_the_steps_in_the_order_declared():
    test = judging_test("cot.x", counted, ("cot_rows", "cot_extra"))
    assert judged_by(test, cot_extra=[9], cot_rows=[1, 2]) == [{"n": 12}]


def test_a_readout_of_no_step_is_judged_once():
    test = judging_test("cot.x", lambda: {"n": 0}, ())
    assert judged_by(test) == [{"n": 0}]


def test_its_name_is_the_ids():
    assert judging_test("cot.row-count", counted, ("a", "b")).__name__ == "test_row_count"


@pytest.mark.parametrize("reads", [("judge",), ("a", "a")])
def test_a_step_named_judge_or_twice_is_refused(reads):
    with pytest.raises(ValueError, match="named once each"):
        judging_test("cot.x", counted, reads)


def test_claim_given_a_readout_is_the_test_carrying_its_declaration():
    test = claim("cot.row-count", reads=("a", "b"), readout=counted, **DECLARED)
    assert (spec_of(test).id, test.__name__) == ("cot.row-count", "test_row_count")


def test_claim_reads_one_step_named_as_a_string():
    test = claim("cot.row-count", reads="a", readout=lambda a: {"n": len(a)}, **DECLARED)
    assert list(inspect.signature(test).parameters) == ["judge", "a"]


def test_claim_given_steps_but_no_readout_is_refused():
    with pytest.raises(TypeError, match="declare its readout"):
        claim("cot.row-count", reads="a", **DECLARED)


def test_a_declared_claims_judged_type_is_its_readouts():
    test = claim("cot.row-count", reads=("a", "b"), readout=counted, **DECLARED)
    assert set(judged_type(test).__annotations__) == {"n"}

"""The judge a claim test calls: it records what was measured, judges the published criterion where
published values apply, an anchor's Holds, and a study's known answer on an organism that planted
it, and where one fails writes which on the test's state and raises Judged (a session that pins
no snapshot, micro, or the rehearsal's random weights)."""
from __future__ import annotations

from typing import TypedDict

import numpy as np
import pytest

from harness.claims import Holds
from harness.criteria import AtMost, Exact, IsPlanted, KnownAnswer
from harness.plugin.judging import Judge
from harness.plugin.state import JUDGED, claims_session
from harness.registry import registered
from harness.verdicts import Failure, Judged, UnreadableFile
from tests.unit.plugin.judged_items import declared, item, state


def judged(test, measured: dict) -> None:
    Judge(test, snapshot=None)(measured)


def test_what_was_measured_is_recorded_as_plain_values():
    test = item(declared())
    judged(test, {"v": np.int64(1)})
    assert state(test).measured == {"v": 1} and type(state(test).measured["v"]) is int


def test_a_criterion_that_holds_is_recorded_as_holding():
    test = item(declared())
    judged(test, {"v": 1})
    assert state(test).criterion_check == {"ok": True, "detail": "v: measured 1, published 1"}


def test_a_criterion_that_fails_raises_not_replicated_naming_the_claim_and_the_check():
    test = item(declared())
    with pytest.raises(Judged, match=r"^cot\.x not replicated: v: measured 2, published 1$"):
        judged(test, {"v": 2})
    assert state(test).judged is Failure.CRITERION
    assert state(test).criterion_check == {"ok": False, "detail": "v: measured 2, published 1"}


def test_a_finding_of_the_model_is_not_judged_on_an_organism_saying_for_which_model():
    test = item(declared(needs="gpu"))
    judged(test, {"v": 2})
    assert state(test).criterion_check == {
        "ok": None, "detail": f"not applicable (published values are for "
                              f"{registered()['cot'].model})"}


def test_a_measurement_publishing_no_value_is_not_judged_saying_so():
    test = item(declared(published={}))
    judged(test, {"v": 2})
    assert state(test).criterion_check == {
        "ok": None, "detail": "not applicable (the seed publishes no value for this measurement)"}


class Value(TypedDict):
    v: int


def test_a_dict_that_is_not_the_readouts_type_is_a_type_error_naming_its_keys():
    test = item(declared())
    test.stash[JUDGED] = Value
    with pytest.raises(TypeError, match=r"^cot\.x: the readout's dict is not the Value it "
                                        r"declares: lacks 'v'; adds 'w'$"):
        judged(test, {"w": 1})


def test_a_dict_of_the_readouts_type_is_judged():
    test = item(declared())
    test.stash[JUDGED] = Value
    judged(test, {"v": 1})
    assert state(test).criterion_check["ok"] is True


def anchor(needs: str = "cpu", behavioural: bool = False, **fields):
    return declared("cot.a", "anchor", needs, holds=Holds(AtMost("v"), behavioural), **fields)


def test_a_mechanical_hold_is_judged_where_published_values_apply():
    test = item(anchor())
    judged(test, {"v": 1})
    assert state(test).holds_check == {"ok": True, "detail": "v: measured 1, bound 1"}


def test_an_anchor_that_does_not_hold_raises_saying_so():
    test = item(anchor(needs="gpu"))
    with pytest.raises(Judged, match=r"^cot\.a does not hold: v: measured 2, bound 1$"):
        judged(test, {"v": 2})
    assert state(test).judged is Failure.CRITERION
    assert state(test).holds_check == {"ok": False, "detail": "v: measured 2, bound 1"}


def test_an_anchor_that_does_not_hold_raises_that_before_its_criterion():
    test = item(anchor(criterion=Exact("v")))
    with pytest.raises(Judged, match="does not hold"):
        judged(test, {"v": 2})
    assert state(test).judged is Failure.CRITERION


def test_an_anchor_that_holds_and_fails_its_criterion_raises_not_replicated():
    test = item(anchor(criterion=Exact("v"), published={"v": 5}))
    with pytest.raises(Judged, match="not replicated"):
        judged(test, {"v": 2})
    assert state(test).judged is Failure.CRITERION


def test_a_test_without_holds_records_none():
    test = item(declared())
    judged(test, {"v": 1})
    assert state(test).holds_check is None


def test_a_behavioural_hold_is_judged_on_an_organism():
    test = item(anchor(needs="gpu", behavioural=True))
    with pytest.raises(Judged):
        judged(test, {"v": 2})
    assert state(test).judged is Failure.CRITERION


def test_a_behavioural_hold_is_left_to_the_published_criterion_where_that_applies():
    test = item(anchor(behavioural=True))
    judged(test, {"v": 1})
    assert state(test).holds_check == {
        "ok": None, "detail": "not judged: a behavioural check, which the published criterion "
                              "makes where the published values apply"}


def test_a_behavioural_hold_is_not_judged_on_random_weights():
    test = item(anchor(needs="gpu", behavioural=True), "rehearsal")
    judged(test, {"v": 2})
    assert state(test).holds_check == {
        "ok": None, "detail": "not judged: a behavioural check, on random weights that answer "
                              "no task"}


def test_a_behavioural_hold_is_not_judged_on_rows_forced_past_a_filter():
    test = item(anchor(needs="gpu", behavioural=True), fixturenames=("cot_rows",))
    claims_session(test.config).forced["cot_rows"] = "2 rows forced"
    judged(test, {"v": 2})
    assert state(test).holds_check == {
        "ok": None, "detail": "not judged: a behavioural check on rows forced past a "
                              "behavioural filter"}


def test_a_mechanical_hold_is_judged_on_forced_rows_and_random_weights():
    test = item(anchor(needs="gpu"), "rehearsal", fixturenames=("cot_rows",))
    claims_session(test.config).forced["cot_rows"] = "2 rows forced"
    with pytest.raises(Judged):
        judged(test, {"v": 2})
    assert state(test).judged is Failure.CRITERION


def study(planted: str = "retrieval_block", kind: str = "claim", needs: str = "gpu"):
    return declared("heads.s", kind, needs,
                    known_answer=KnownAnswer(IsPlanted("v", planted), planted))


def test_a_study_that_finds_what_the_organism_planted_recovers_it():
    test = item(study())
    judged(test, {"v": 1})
    assert state(test).known_answer == {"planted": {"retrieval_block": 1},
                                        "detail": "v: measured 1, planted 1",
                                        "outcome": "recovered"}


def test_a_study_that_misses_what_the_organism_planted_raises_saying_so():
    test = item(study())
    with pytest.raises(Judged, match=r"^heads\.s missed the organism's planted "
                                                r"retrieval_block: v: measured 2, planted 1$"):
        judged(test, {"v": 2})
    assert state(test).judged is Failure.KNOWN_ANSWER
    assert state(test).known_answer["outcome"] == "missed"


def test_a_finding_not_replicated_is_raised_before_a_missed_known_answer():
    test = item(study(kind="measurement", needs="cpu"))
    with pytest.raises(Judged):
        judged(test, {"v": 2})
    assert state(test).judged is Failure.CRITERION
    assert state(test).known_answer["outcome"] == "missed"


def test_a_known_answer_the_manifest_lacks_is_unreadable_naming_what_it_plants():
    test = item(study("nothing"))
    with pytest.raises(UnreadableFile, match=r"^heads\.s declares a known answer against the "
                                             r"planted 'nothing', which the heads organism's "
                                             r"manifest lacks \(it plants \['retrieval_block', "
                                             r"'retrieval_head', 'support_head'\]\): rebuild "
                                             r"it with "
                                             r"`interp-claims organisms heads`$"):
        judged(test, {"v": 1})


def test_a_known_answer_against_an_organism_that_plants_nothing_says_nothing():
    test = item(declared("cot.s", "claim", "gpu",
                         known_answer=KnownAnswer(IsPlanted("v", "x"), "x")))
    with pytest.raises(UnreadableFile, match=r"\(it plants nothing\)"):
        judged(test, {"v": 1})


def test_the_tolerance_is_recorded_where_nothing_is_pinned():
    test = item(declared())
    judged(test, {"v": 1})
    assert state(test).tolerance == {"floats": {"abs": 1e-05, "rel": 1e-05},
                                     "why": "default for float32 organisms across CPU kernels",
                                     "exact": "counts, token ids, booleans and strings"}
    assert state(test).snapshot.drift is None

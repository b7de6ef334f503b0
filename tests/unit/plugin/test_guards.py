"""harness.plugin.guards: each claim test's requires derived from the steps it reads and the steps
each anchor guards, and what the declarations may not get wrong."""
from __future__ import annotations

from typing import Any

from harness.claims import ClaimSpec, Holds, Kind
from harness.criteria import Exact
from harness.declared_steps import Step
from harness.plugin.guards import Reader, cycle, derived, effective, problems, steps_read
from harness.plugin.guards import _in_order as in_order

# pair -> runs -> sweep, and a layer read off the sizes: seed 004's shape, smaller.
STEPS = {s.name: s for s in (
    Step("pair", print, ("cot_model",)),
    Step("runs", print, ("cot_model", "pair")),
    Step("sweep", print, ("runs", "mode")),
    Step("layer", print, ("cot_sizes",), unguarded="the layer the sizes declare"),
    Step("other", print, ("cot_model",)),
)}


def spec(name: str, kind: str = "measurement", source: str = "cot", **fields: Any) -> ClaimSpec:
    return ClaimSpec(id=f"{source}.{name}", kind=Kind(kind), section="1", statement="s",
                     published={}, provenance="p", criterion=Exact("v"), **fields)


def anchor(name: str, guards: tuple[str, ...], reads: tuple[str, ...] = (),
           behavioural: bool = False, **fields: Any) -> Reader:
    holds = Holds(Exact("v"), behavioural=behavioural)
    return Reader(spec(name, "anchor", guards=guards, holds=holds, **fields),
                  steps_read(reads, STEPS))


def finding(name: str, reads: tuple[str, ...], **fields: Any) -> Reader:
    return Reader(spec(name, **fields), steps_read(reads, STEPS))


def steps_of(source: str) -> dict[str, Step]:
    return STEPS


def found(*readers: Reader) -> list[str]:
    return problems(readers, steps_of, effective(readers))


def test_a_test_reads_the_steps_it_names_and_every_step_upstream():
    assert steps_read(["judge", "sweep"], STEPS) == {"sweep", "runs", "pair"}


def test_every_step_named_is_read_with_its_own_upstream():
    assert steps_read(["sweep", "layer"], STEPS) == {"sweep", "runs", "pair", "layer"}


def test_given_and_session_fixtures_are_no_steps():
    assert steps_read(["cot_model", "cot_tokenizer", "mode", "judge"], STEPS) == set()


def test_a_finding_requires_an_anchor_guarding_a_step_it_reads():
    assert derived([anchor("a", ("sweep",)), finding("f", ("sweep",))])["cot.f"] == ["cot.a"]


def test_a_finding_requires_an_anchor_guarding_a_step_upstream():
    assert derived([anchor("a", ("pair",)), finding("f", ("sweep",))])["cot.f"] == ["cot.a"]


def test_an_anchor_guarding_an_unrelated_step_is_not_required():
    assert derived([anchor("a", ("other",)), finding("f", ("sweep",))])["cot.f"] == []


def test_an_anchor_of_another_source_is_not_required_for_a_step_of_the_same_name():
    other = Reader(spec("a", "anchor", source="heads", guards=("sweep",)), frozenset())
    assert derived([other, finding("f", ("sweep",))])["cot.f"] == []


def test_an_anchor_does_not_require_itself():
    assert derived([anchor("a", ("pair",), reads=("sweep",))])["cot.a"] == []


def test_an_anchor_requires_one_guarding_a_step_it_reads_and_does_not_guard():
    tokens, rows = anchor("tokens", ("pair",)), anchor("rows", ("sweep",), reads=("sweep",))
    assert derived([tokens, rows])["cot.rows"] == ["cot.tokens"]


def test_an_anchor_guarding_a_step_it_does_not_read_comes_first():
    """Both guard the sweep; only one reads it: the one that reads it requires the other."""
    identity = anchor("identity", ("sweep",), reads=("runs",))
    rows = anchor("rows", ("sweep",), reads=("sweep",))
    assert derived([identity, rows]) == {"cot.identity": [], "cot.rows": ["cot.identity"]}


def test_two_anchors_guarding_and_reading_a_step_check_it_side_by_side():
    coverage = anchor("coverage", ("sweep",), reads=("sweep",))
    rows = anchor("rows", ("sweep",), reads=("sweep",))
    assert derived([coverage, rows]) == {"cot.coverage": [], "cot.rows": []}


def test_a_behavioural_anchor_requires_a_mechanical_one_beside_it():
    direction = anchor("direction", ("sweep",), reads=("sweep",), behavioural=True)
    rows = anchor("rows", ("sweep",), reads=("sweep",))
    assert derived([direction, rows]) == {"cot.direction": ["cot.rows"], "cot.rows": []}


def test_a_mechanical_anchor_does_not_require_a_behavioural_one():
    direction = anchor("direction", ("pair",), behavioural=True)
    assert derived([direction, anchor("rows", ("sweep",), reads=("sweep",))])["cot.rows"] == []


def test_a_behavioural_anchor_requires_a_behavioural_one():
    direction = anchor("direction", ("pair",), behavioural=True)
    control = anchor("control", ("sweep",), reads=("sweep",), behavioural=True)
    assert derived([direction, control])["cot.control"] == ["cot.direction"]


def test_a_finding_requires_a_behavioural_anchor():
    direction = anchor("direction", ("pair",), behavioural=True)
    assert derived([direction, finding("f", ("sweep",))])["cot.f"] == ["cot.direction"]


def test_hand_written_requires_follow_the_derived_ones_once_each():
    tests = [anchor("a", ("pair",)), anchor("b", ()),
             finding("f", ("sweep",), requires=("cot.b", "cot.a"))]
    assert effective(tests)["cot.f"] == ("cot.a", "cot.b")


def test_declarations_without_a_fault_have_no_problem():
    assert found(anchor("a", ("pair", "runs", "sweep")), finding("f", ("sweep", "layer"))) == []


def test_an_unknown_guarded_step_is_named():
    assert found(anchor("a", ("sweep", "swep"))) == [
        "cot.a guards 'swep', which is no declared step of source 'cot' "
        "(harness/sources/cot/steps.py)"]


def test_an_unknown_required_id_is_named_with_its_claim():
    assert found(finding("f", (), requires=("cot.nowhere",))) == [
        "cot.f requires 'cot.nowhere', which is no claim of its source"]


def test_an_unknown_id_is_judged_by_the_source_before_its_first_dot():
    assert found(finding("f", (), requires=("cot.nowhere-3.1",))) == [
        "cot.f requires 'cot.nowhere-3.1', which is no claim of its source"]


def test_every_problem_of_every_claim_is_named():
    assert found(finding("f", (), requires=("cot.nowhere",)), anchor("a", ("swep",))) == [
        "cot.f requires 'cot.nowhere', which is no claim of its source",
        "cot.a guards 'swep', which is no declared step of source 'cot' "
        "(harness/sources/cot/steps.py)"]


def test_a_required_id_of_a_source_not_collected_is_not_judged():
    assert found(finding("f", (), requires=("heads.elsewhere",))) == []


def test_a_finding_reading_a_step_no_anchor_guards_is_named():
    assert found(anchor("a", ("pair",)), finding("f", ("sweep",))) == [
        f"cot.f reads step {s!r}, which no anchor guards: declare an anchor's guards=, or the "
        "step's unguarded= reason" for s in ("runs", "sweep")]


def test_a_step_declared_unguarded_needs_no_anchor():
    assert found(finding("f", ("layer",))) == []


def test_an_anchor_may_read_a_step_no_anchor_guards():
    assert found(anchor("a", (), reads=("sweep",))) == []


def test_another_sources_anchor_does_not_guard_a_findings_step():
    other = Reader(spec("a", "anchor", source="heads", guards=("sweep", "runs", "pair")),
                   frozenset())
    assert len(found(other, finding("f", ("sweep",)))) == 3


def test_anchors_requiring_each_other_are_a_cycle_named_in_order():
    first = anchor("first", ("pair",), reads=("sweep",))
    second = anchor("second", ("runs",), reads=("pair",))
    assert found(first, second) == [
        "anchors require each other in a cycle: cot.first -> cot.second -> cot.first"]


def test_a_chain_without_a_loop_is_no_cycle():
    assert cycle({"c": ["b", "a"], "b": ["a"], "a": [], "d": ["b"]}) is None


def test_a_cycle_below_its_entry_is_named_from_where_it_closes():
    assert cycle({"f": ["a"], "a": ["b"], "b": ["c"], "c": ["a"]}) == ["a", "b", "c", "a"]


def test_an_id_outside_the_session_ends_a_chain():
    assert cycle({"f": ["heads.elsewhere"]}) is None


def test_requires_list_the_most_basic_anchor_first():
    requires = {"f": ("top", "middle", "base", "outside"), "top": ("middle",),
                "middle": ("base",), "base": ()}
    assert in_order(requires)["f"] == ("base", "outside", "middle", "top")

"""harness.readout_types: what a claim judges, found and typed from its body, checked against its
declaration."""
from __future__ import annotations

from typing import Any

import pytest

from harness.claims import ClaimSpec, Kind
from harness.criteria import Binomial, Exact, InInterval, all_of
from harness.claim_tests import judging_test
from harness.readout_types import (criterion_keys, judged_type, readout_type, required_keys,
                                   undeclared, wrong_keys)
from tests.unit.sample_readouts import (Recovered, recovered, written_out, unpacking, forwarding,
                                        two_returns, with_a_helper, unpacking_a_name, Counts,
                                        a_parameters_method, a_calls_method, a_constructed_method,
                                        an_unannotated_parameters_method, recovered_shadowed,
                                        spreading_a_dataclass, returning_a_dataclasss_vars,
                                        spreading_a_field, spreading_a_counter, body_with_a_readout,
                                        body_calling_a_helper, body_of_two_statements,
                                        body_with_an_untyped_readout, body_with_a_written_out_dict,
                                        body_with_an_unpacked_dict)


def spec(**changes: Any) -> ClaimSpec:
    fields = {"id": "cot.typed-probe", "kind": Kind.CLAIM, "section": "1", "statement": "s",
              "published": {"recovered": 19, "n": 20}, "provenance": "p",
              "criterion": Binomial("recovered"), "headline": "recovered {recovered}/{n}"}
    return ClaimSpec(**{**fields, **changes})


def test_a_readouts_return_type_is_what_the_claim_judges():
    assert judged_type(body_with_a_readout) is Recovered


def test_a_declared_readouts_type_is_what_the_claim_judges():
    assert judged_type(judging_test("cot.typed-probe", recovered, ("fixture",))) is Recovered


def test_a_body_calling_other_than_judge_is_refused():
    with pytest.raises(LookupError, match="one call"):
        judged_type(body_calling_a_helper)


def test_a_body_of_more_than_one_call_is_refused():
    with pytest.raises(LookupError, match="one call"):
        judged_type(body_of_two_statements)


def test_an_untyped_readout_is_refused():
    with pytest.raises(LookupError, match="no TypedDict"):
        judged_type(body_with_an_untyped_readout)


def test_a_readout_returning_a_written_out_dict_is_typed_by_its_keys():
    typed = readout_type(written_out)
    assert (required_keys(typed), set(typed.__annotations__)) == ({"recovered", "n"},
                                                                  {"recovered", "n"})


def test_a_readout_it_unpacks_adds_its_keys():
    typed = readout_type(unpacking)
    assert (required_keys(typed), set(typed.__annotations__)) == ({"recovered", "n", "extra"},
                                                                  {"recovered", "n", "note",
                                                                   "extra"})


def test_a_readout_it_returns_gives_its_keys():
    assert required_keys(readout_type(forwarding)) == {"recovered", "n"}


def test_a_key_only_some_returns_give_is_optional():
    typed = readout_type(two_returns)
    assert (required_keys(typed), set(typed.__annotations__)) == ({"recovered"},
                                                                  {"recovered", "note"})


def test_a_function_it_defines_returns_nothing_it_judges():
    assert set(readout_type(with_a_helper).__annotations__) == {"recovered"}


def test_a_readout_unpacking_a_name_is_refused():
    with pytest.raises(LookupError, match="not written out"):
        readout_type(unpacking_a_name)


def test_a_derived_type_is_named_after_its_readout():
    assert readout_type(written_out).__name__ == "written_out()"


def test_a_declaration_within_its_type_has_nothing_undeclared():
    assert undeclared(spec(), Recovered) == []


def test_a_misspelt_published_key_is_named():
    assert undeclared(spec(published={"recoverd": 19}), Recovered) == [
        "cot.typed-probe: published names 'recoverd', which Recovered lacks"]


def test_a_misspelt_headline_field_is_named():
    assert undeclared(spec(headline="{recovered}/{total}"), Recovered) == [
        "cot.typed-probe: headline names 'total', which Recovered lacks"]


def test_a_misspelt_criterion_key_is_named():
    assert undeclared(spec(criterion=Binomial("recovered", n_key="count")), Recovered) == [
        "cot.typed-probe: criterion names 'count', which Recovered lacks"]


def test_criterion_keys_are_read_through_all_of():
    assert criterion_keys(all_of(Exact("a"), Binomial("b", n_key="m"))) == ({"a", "b", "m"}, set())


def test_a_criterion_key_read_from_the_published_values_is_told_apart():
    assert criterion_keys(InInterval("a", "a_ci")) == ({"a"}, {"a_ci"})


def test_a_published_interval_need_not_be_measured():
    declared = spec(published={"recovered": 19, "recovered_ci": [17, 20]},
                    criterion=InInterval("recovered", "recovered_ci"))
    assert undeclared(declared, Recovered) == []


def test_a_published_interval_the_published_values_lack_is_named():
    declared = spec(criterion=InInterval("recovered", "recovered_ci"))
    assert undeclared(declared, Recovered) == [
        "cot.typed-probe: criterion reads published 'recovered_ci', which published lacks"]


def test_a_dict_of_its_type_has_no_wrong_keys():
    assert wrong_keys({"recovered": 1, "n": 2}, Recovered) == []


def test_an_optional_key_may_be_present():
    assert wrong_keys({"recovered": 1, "n": 2, "note": "x"}, Recovered) == []


def test_a_missing_required_key_is_named():
    assert wrong_keys({"recovered": 1}, Recovered) == ["lacks 'n'"]


def test_an_undeclared_key_is_named():
    assert wrong_keys({"recovered": 1, "n": 2, "extra": 0}, Recovered) == ["adds 'extra'"]


def test_a_written_out_dicts_keys_are_what_the_claim_judges():
    assert set(judged_type(body_with_a_written_out_dict).__annotations__) == {"recovered", "n"}


def test_a_dict_whose_keys_are_not_written_out_is_refused():
    with pytest.raises(LookupError, match="not written out"):
        judged_type(body_with_an_unpacked_dict)


def test_a_method_of_an_annotated_parameter_gives_its_keys():
    assert required_keys(readout_type(a_parameters_method)) == {"failed", "checked"}


def test_a_method_of_what_a_call_returns_gives_its_keys():
    assert required_keys(readout_type(a_calls_method)) == {"failed", "checked"}


def test_a_method_of_a_constructed_object_gives_its_keys():
    assert required_keys(readout_type(a_constructed_method)) == {"failed", "checked"}


def test_a_method_of_an_unannotated_parameter_is_refused():
    with pytest.raises(LookupError, match="cannot resolve"):
        readout_type(an_unannotated_parameters_method)


def test_a_parameter_stands_for_its_class_over_a_global_of_its_name():
    assert required_keys(readout_type(recovered_shadowed)) == {"failed", "checked"}


def test_a_spread_dataclass_gives_its_fields():
    assert required_keys(readout_type(spreading_a_dataclass)) == {"layer", "flipped", "extra"}


def test_a_returned_dataclasss_vars_give_its_fields():
    assert required_keys(readout_type(returning_a_dataclasss_vars)) == {"layer", "flipped"}


def test_a_spread_field_gives_the_fields_of_its_annotated_class():
    assert required_keys(readout_type(spreading_a_field)) == {"layer", "flipped", "tokens"}


def test_the_vars_of_what_is_no_dataclass_are_refused():
    with pytest.raises(LookupError, match="not a dataclass"):
        readout_type(spreading_a_counter)


def test_a_classs_own_readout_declared_as_the_readout_gives_its_keys():
    test = judging_test("cot.typed-probe", Counts.readout, ("fixture",))
    assert required_keys(judged_type(test)) == {"failed", "checked"}

"""harness.attribute_readout: a readout declared as the attributes of the step result it reads."""
from __future__ import annotations

from types import SimpleNamespace

import pytest

from harness.attribute_readout import attributes
from harness.readout_types import readout_type, required_keys

RESULT = SimpleNamespace(n=4, rate=0.5, late=SimpleNamespace(diverges_at=726))


def test_each_named_attribute_is_read_under_its_name():
    assert attributes("n", "rate")(RESULT) == {"n": 4, "rate": 0.5}


def test_a_renamed_key_reads_the_path_it_names():
    assert attributes("n", late_diverges_at="late.diverges_at")(RESULT) == {
        "n": 4, "late_diverges_at": 726}


def test_the_keys_keep_the_declared_order():
    assert list(attributes("rate", n="n")(RESULT)) == ["rate", "n"]


def test_an_attribute_the_result_lacks_fails_naming_it():
    with pytest.raises(AttributeError, match="runs"):
        attributes("runs")(RESULT)


def test_a_key_named_twice_is_refused():
    with pytest.raises(ValueError, match="once"):
        attributes("n", n="rate")


def test_its_judged_type_requires_every_declared_key():
    assert required_keys(readout_type(attributes("n", late="late.diverges_at"))) == {"n", "late"}

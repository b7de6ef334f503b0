"""Sample readouts and claim bodies for tests/unit/test_readout_types.py: one for each form a
readout's keys are read from (harness.readout_types), and forms it refuses."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NotRequired, TypedDict


class Recovered(TypedDict):
    recovered: int
    n: int
    note: NotRequired[str]


def recovered(value: int) -> Recovered:
    return {"recovered": value, "n": 20}


def untyped(value: dict[str, Any]) -> dict[str, Any]:
    return dict(value)


def written_out(value: int) -> dict[str, Any]:
    return {"recovered": value, "n": 20}


def unpacking(value: int) -> dict[str, Any]:
    return {**recovered(value), "extra": 1}


def forwarding(value: int) -> dict[str, Any]:
    return written_out(value)


def two_returns(value: int) -> dict[str, Any]:
    if value:
        return {"recovered": value, "note": "x"}
    return {"recovered": 0}


def with_a_helper(value: int) -> dict[str, Any]:
    def inner() -> int:
        return value

    return {"recovered": inner()}


def unpacking_a_name(value: dict[str, Any]) -> dict[str, Any]:
    return {**value}


class Counts:
    def readout(self) -> dict[str, Any]:
        return {"failed": 0, "checked": 1}


def made_counts() -> Counts:
    return Counts()


def a_parameters_method(counts: Counts) -> dict[str, Any]:
    return counts.readout()


def a_calls_method() -> dict[str, Any]:
    return made_counts().readout()


def a_constructed_method() -> dict[str, Any]:
    return Counts().readout()


def an_unannotated_parameters_method(counts) -> dict[str, Any]:
    return counts.readout()


def recovered_shadowed(recovered: Counts) -> dict[str, Any]:
    return recovered.readout()


@dataclass
class Flip:
    layer: int
    flipped: bool


@dataclass
class Sweep:
    first: Flip
    tokens: list[str]


def spreading_a_dataclass(flip: Flip) -> dict[str, Any]:
    return {**vars(flip), "extra": 1}


def returning_a_dataclasss_vars(flip: Flip) -> dict[str, Any]:
    return vars(flip)


def spreading_a_field(sweep: Sweep) -> dict[str, Any]:
    return {**vars(sweep.first), "tokens": sweep.tokens}


def spreading_a_counter(counts: Counts) -> dict[str, Any]:
    return {**vars(counts)}


def body_with_a_readout(judge, fixture):
    judge(recovered(fixture))


def body_calling_a_helper(judge, fixture):
    recovered(fixture)


def body_of_two_statements(judge, fixture):
    value = fixture + 1
    judge(recovered(value))


def body_with_an_untyped_readout(judge, fixture):
    judge(untyped(fixture))


def body_with_a_written_out_dict(judge, fixture):
    judge({"recovered": fixture, "n": 20})


def body_with_an_unpacked_dict(judge, fixture):
    judge({**fixture})

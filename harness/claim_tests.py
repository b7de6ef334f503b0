"""A claim declared whole (issue 46 §3): the steps it reads and its readout name its test, whose
body, judged type and name (and so its snapshot's) derive from the declaration."""
from __future__ import annotations

import inspect
from typing import Any, Callable

from harness.private import place_at
from harness.readout_types import READOUT

JUDGE = "judge"


def test_name(claim_id: str) -> str:
    """The test a claim id names, and so its snapshot file: `test_` and the id past its source,
    each `-` or `.` an underscore (`cot.fire-once` -> `test_fire_once`)."""
    return "test_" + claim_id.split(".", 1)[1].replace("-", "_").replace(".", "_")


def judging_test(claim_id: str, readout: Callable[..., Any],
                 reads: tuple[str, ...]) -> Callable[..., None]:
    """A test whose body judges `readout` of the steps it `reads`, in that order: its
    parameters are `judge` and those steps, which pytest resolves as fixtures."""
    if JUDGE in reads or len(set(reads)) != len(reads):
        raise ValueError(f"{claim_id}: the steps it reads are named once each, `judge` not "
                         f"among them: {list(reads)}")

    def test(judge: Callable[[dict[str, Any]], None], **steps: Any) -> None:
        judge(readout(*(steps[name] for name in reads)))

    parameter = inspect.Parameter.POSITIONAL_OR_KEYWORD
    test.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
        [inspect.Parameter(name, parameter) for name in (JUDGE, *reads)])
    test.__name__ = test.__qualname__ = test_name(claim_id)
    setattr(test, READOUT, readout)
    declared = _declaring_frame()
    if declared is not None:
        place_at(test, declared.f_code.co_filename, declared.f_lineno)
    return test


def _declaring_frame() -> Any:
    """The module-level statement the declaration runs in (its test file's), if any."""
    frame = inspect.currentframe()
    while frame is not None and frame.f_code.co_name != "<module>":
        frame = frame.f_back
    return frame

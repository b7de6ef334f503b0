"""Each claim's declaration checked against the TypedDict its readout returns, when the tests are
collected (a misspelt published, headline or criterion key stops the run before any model loads),
and each judged dict against that type when it is judged (harness/readout_types.py); and each
claim test named by its id, as its snapshot is (harness/claim_tests.py)."""
from __future__ import annotations

import pytest

from harness.claim_tests import test_name
from harness.plugin.state import JUDGED, SPEC
from harness.readout_types import judged_type, undeclared


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    problems = []
    for item in items:
        spec = item.stash.get(SPEC, None)
        if spec is None:
            continue
        if item.name != test_name(spec.id):
            problems.append(f"{spec.id}: its test is named {item.name}, not "
                            f"{test_name(spec.id)}, the name of its snapshot")
        try:
            typed = judged_type(item.function)
        except LookupError as exc:
            problems.append(f"{spec.id}: {exc}")
            continue
        item.stash[JUDGED] = typed
        problems += undeclared(spec, typed)
    if problems:
        raise pytest.UsageError("claims whose declarations disagree with what they judge "
                                "(harness/readout_types.py):\n  " + "\n  ".join(problems))

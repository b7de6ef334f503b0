"""Every study step a finding reads has a reference anchor guarding it (issue 49): a study that
computes the wrong quantity blocks its findings, whichever source it is in."""
from __future__ import annotations

import inspect

from harness.registry import registered
from tests.pinned import declared_tests

# Steps findings read that are no study: the model's runner and the task's rows or token ids,
# which the studies read and their reference anchors rebuild from the task data themselves.
NOT_STUDIES = {
    "cot_runner": "the model and its sizes, held for the steps that run it",
    "tutorial_pair": "the tutorial's prompts as token ids (tokenizer anchors guard them)",
    "lookback_binding_rows": "§4's rows built from the task data",
    "lookback_source_rows": "§5's rows built from the task data",
    "lookback_answer_rows": "§6's rows built from the task data",
}


def unreferenced() -> list[tuple[str, str]]:
    """(finding, step) for each declared, guarded step a finding reads that no reference anchor
    of its source guards."""
    guarded: dict[str, set[str]] = {}
    tests = declared_tests()
    for _, _, spec in tests:
        if spec.kind.value == "anchor" and spec.id.endswith("-reference"):
            guarded.setdefault(spec.source_name, set()).update(spec.guards)
    missing = []
    for _, fn, spec in tests:
        if spec.kind.value == "anchor":
            continue
        steps = {s.name: s for s in registered()[spec.source_name].steps}
        missing += [(spec.id, arg) for arg in inspect.signature(fn).parameters
                    if arg in steps and not steps[arg].unguarded and arg not in NOT_STUDIES
                    and arg not in guarded.get(spec.source_name, set())]
    return missing


def test_every_study_a_finding_reads_has_a_reference_anchor():
    assert unreferenced() == []


def test_every_source_has_a_reference():
    with_reference = {s for s, src in registered().items()
                      if any(src.folder.glob("reference*.py"))}
    assert with_reference == set(registered())

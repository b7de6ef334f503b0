"""harness.known_answer_studies on a throw-away source and claims folder: a known answer's study
is its claim's own test body on the declared steps, judged against the organism's planted block."""
from __future__ import annotations

from pathlib import Path
from typing import Iterator

import pytest

from harness.declared_steps import Resolved
from harness.known_answer_studies import checks, studies
from harness.source import Source
from tests.unit.fake_sources import fake_source

STEPS = '''
from harness.declared_steps import NothingToRun, Step


def swept(sizes):
    if sizes is None:
        raise NothingToRun("no layer to sweep")
    return [0.0] * sizes + [1.0] * (4 - sizes)


STEPS = (Step("swept", swept, ("fake_sizes",)),)
'''
# A claim's id names a registered source: these borrow patching's.
TESTS = '''
from harness.claims import claim
from harness.criteria import Exact, KnownAnswer, StepAt

FIELDS = dict(kind="measurement", section="1", statement="s", provenance="p", published={},
              criterion=Exact("n"))


@claim("patching.fake-curve", known_answer=KnownAnswer(StepAt("iia", at="layer"), planted="layer"),
       **FIELDS)
def test_curve(judge, swept):
    judge({"iia": swept, "n": len(swept)})


@claim("patching.fake-plain", **FIELDS)
def test_plain(judge, swept):
    judge({"n": len(swept)})
'''


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Source, Path]]:
    yield from fake_source(tmp_path, monkeypatch, "fake_known", STEPS, TESTS)


def run(fake: tuple[Source, Path], step_at: int | None) -> Resolved:
    return Resolved(fake[0].steps, {"fake_sizes": step_at})


def test_a_study_is_its_claims_own_body_on_the_steps(folder):
    assert studies(folder[1], run(folder, 2))["patching.fake-curve"]() == {
        "iia": [0.0, 0.0, 1.0, 1.0], "n": 4}


def test_only_a_claim_declaring_a_known_answer_has_a_study(folder):
    assert list(studies(folder[1], run(folder, 2))) == ["patching.fake-curve"]


def test_a_recovered_known_answer_fails_nothing(folder):
    assert checks(folder[1], run(folder, 2), {"layer": 2})["patching.fake-curve (known answer)"]() == []


def test_a_missed_known_answer_names_what_was_planted(folder):
    found = checks(folder[1], run(folder, 3), {"layer": 2})["patching.fake-curve (known answer)"]()
    assert found == ["missed the planted layer: iia [0.0, 0.0, 0.0, 1.0], step at layer 2"]


def test_a_study_left_nothing_to_run_misses_what_was_planted(folder):
    found = checks(folder[1], run(folder, None), {"layer": 2})["patching.fake-curve (known answer)"]()
    assert found == ["missed the planted layer: nothing to run: no layer to sweep"]

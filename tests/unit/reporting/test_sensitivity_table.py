"""interp-claims sensitivity: the model-free table of what each finding's criterion detects at the
published n, and docs/sensitivity.md kept equal to it (issue 47)."""
from __future__ import annotations

import pytest

from harness.criteria import Binomial, Exact
from harness.nulls import Null
from harness.reporting.sensitivity_table import HEADER, INTRO, DOC, findings, half_effect_n, rows
from tests.unit.plugin.judged_items import declared


@pytest.fixture(scope="module")
def declared_rows():
    specs = findings()
    return specs, rows(specs)


def test_the_docs_table_is_the_generated_one(declared_rows):
    _, generated = declared_rows
    assert DOC.read_text() == "\n".join([INTRO, HEADER, *generated]) + "\n", \
        "run `interp-claims sensitivity --write`"


def test_every_finding_with_published_values_has_a_row(declared_rows):
    specs, generated = declared_rows
    listed = {line.split(" | ")[0].lstrip("| ") for line in generated}
    assert listed == {s.id for s in specs if s.published}


def test_a_finding_whose_criterion_accepts_its_null_is_inconclusive_by_design():
    spec = declared(kind="claim", needs="gpu", published={"k": 2, "n": 20},
                    criterion=Binomial("k"), null=Null({"k": 3}, why="chance"))
    [row] = rows([spec])
    assert "| **yes** |" in row


def test_an_exact_finding_says_so():
    [row] = rows([declared(kind="claim", needs="gpu", criterion=Exact("v"),
                           null=Null({"v": 0}, why="none"))])
    assert "exact: any change is rejected" in row and "| no |" in row


def test_half_an_effect_inside_the_published_interval_is_never_detected():
    spec = declared(kind="claim", needs="gpu", published={"k": 14, "n": 20},
                    criterion=Binomial("k"), null=Null({"k": 10}, why="chance is half"))
    assert half_effect_n(spec.criterion, spec) == "never: inside the published interval"


def test_half_an_effect_outside_it_is_detected_at_the_least_n_that_passes_the_published():
    spec = declared(kind="claim", needs="gpu", published={"k": 20, "n": 20},
                    criterion=Binomial("k"), null=Null({"k": 0}, why="no skill"))
    assert half_effect_n(spec.criterion, spec) == "3"  # 3 draws at 0.5: all 3 right 1 time in 8

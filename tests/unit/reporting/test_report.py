"""The page tells the truth: each row's verdict, anchor and drift badges and the counts table say
what results.json says, for every verdict kind; rows and sections in their order."""
from __future__ import annotations

import re

import pytest

from harness.registry import registered
from harness.reporting.record import validate
from harness.verdicts import Verdict
from tests.sample_results import (ABSENT_ANCHOR, ANCHOR_VERDICTS, DRIFTS, FINDING_VERDICTS,
                                  badges, entry, every_verdict, record)
from tests.unit.reporting.page import DRIFT, REQUIRES, VERDICT, rendered


@pytest.fixture
def every(tmp_path):
    """results.json with every verdict and drift state, and its page (rendered for each test, so
    that mutmut counts each test as covering the renderer)."""
    data = every_verdict()
    return data, rendered(tmp_path, data)


@pytest.fixture
def rendered_record(tmp_path):
    """The page of a complete run made of the given entries."""
    return lambda tests: rendered(tmp_path, record(tests))


def css_class(verdict: str) -> str:
    return "v-" + verdict.replace(" ", "-")


def test_the_sample_holds_every_verdict_for_each_kind_that_can_end_with_it():
    kinds = {(t["kind"] == "anchor", t["verdict"]) for t in every_verdict()["tests"]}
    assert {v for anchor, v in kinds if anchor} == set(ANCHOR_VERDICTS)
    assert {v for anchor, v in kinds if not anchor} == set(FINDING_VERDICTS)
    assert set(ANCHOR_VERDICTS) | set(FINDING_VERDICTS) == set(Verdict)


def test_the_sample_is_a_well_formed_record():
    assert validate(every_verdict()) == []


def test_every_entry_has_one_row(every):
    data, page = every
    assert sorted(page.rows) == sorted(t["id"] for t in data["tests"])


def test_each_row_reads_its_own_verdict(every):
    data, page = every
    shown = {i: (row.data["verdict"], row.badge(VERDICT).text) for i, row in page.rows.items()}
    assert shown == {i: (verdict, verdict) for i, (verdict, _) in badges(data).items()}


def test_each_verdict_badge_has_its_verdicts_colour(every):
    data, page = every
    shown = {i: row.badge(VERDICT).classes for i, row in page.rows.items()}
    assert shown == {i: ["badge", css_class(verdict)] for i, (verdict, _) in badges(data).items()}


def test_each_anchor_badge_reads_that_anchors_own_verdict(every):
    data, page = every
    shown = {i: [b.text for b in row.badges[REQUIRES]] for i, row in page.rows.items()}
    assert shown == {i: anchors for i, (_, anchors) in badges(data).items()}


def test_each_anchor_badge_has_that_anchors_colour(every):
    data, page = every
    verdicts = {t["id"]: t["verdict"] for t in data["tests"]}
    wrong = [(i, b.text, b.classes) for i, row in page.rows.items() for b in row.badges[REQUIRES]
             if b.classes != ["badge", css_class(verdicts.get(b.text.split(": ")[0], "absent"))]]
    assert not wrong


def test_every_anchor_verdict_is_shown_on_some_anchor_badge(every):
    _, page = every
    shown = {b.text.split(": ")[1] for row in page.rows.values() for b in row.badges[REQUIRES]}
    assert shown == set(ANCHOR_VERDICTS) | {"absent"}


def test_an_anchor_badge_carries_that_anchors_message(every):
    _, page = every
    required = page.rows["anchors.blocked"].badge(REQUIRES)
    assert required.title == "the anchor anchor failed"


def test_an_anchor_the_run_lacks_reads_absent_not_in_this_run(every):
    _, page = every
    (absent,) = [b for b in page.rows["findings.replicated"].badges[REQUIRES]
                 if b.text.startswith(ABSENT_ANCHOR)]
    assert (absent.text, absent.title) == (f"{ABSENT_ANCHOR}: absent", "not in this run")


def test_every_badge_colour_is_styled(every):
    _, page = every
    style = page.style
    used = {c for row in page.rows.values() for column in row.badges for b in column
            for c in b.classes if c != "badge"}
    assert used and not {c for c in used if not re.search(rf"\.{c}\b", style)}


def test_each_drift_state_reads_as_recorded(every):
    data, page = every
    for t in data["tests"]:
        row = page.rows[t["id"]]
        if t["drift"] is None:
            assert (row.badges[DRIFT], row.text[DRIFT]) == ([], "—")
        else:
            shown = row.badge(DRIFT)
            assert shown.text == t["drift"]
            assert shown.classes[1] == ("drift" if t["drift"] == "drifted"
                                        else "d-" + t["drift"].replace(" ", "-"))


def test_every_drift_state_is_in_the_sample(every):
    _, page = every
    shown = {r.badges[DRIFT][0].text if r.badges[DRIFT] else None for r in page.rows.values()}
    assert shown == {d for d, _ in DRIFTS}


def test_a_drifted_badge_carries_what_moved_and_the_snapshot_comparison(every):
    data, page = every
    drifted = next(t["id"] for t in data["tests"] if t["drift"] == "drifted")
    row = page.rows[drifted]
    assert row.badge(DRIFT).title == "x moved by 0.2" and "snapshot: outside" in row.text[DRIFT]


def test_the_counts_table_has_a_column_per_verdict_and_a_total(every):
    _, page = every
    assert page.counts[0] == ["source", *(v.value for v in Verdict), "total"]


def test_the_counts_shown_are_results_jsons_with_all_last(every):
    data, page = every
    shown = {row[0]: [int(n) for n in row[1:]] for row in page.counts[1:]}
    expected = {source: [counts.get(v, 0) for v in Verdict] + [sum(counts.values())]
                for source, counts in data["counts"].items()}
    assert shown == expected and page.counts[-1][0] == "all"


def test_rows_go_by_source_findings_first_then_by_id(rendered_record):
    tests = [entry(i, k, "replicated") for i, k in
             (("b.z", "claim"), ("b.y", "anchor"), ("a.c", "claim"), ("a.b", "claim"),
              ("a.z", "anchor"), ("a.a", "anchor"))]
    page = rendered_record(tests)
    assert list(page.rows) == ["a.b", "a.c", "a.a", "a.z", "b.z", "b.y"]


def test_a_findings_anchors_fold_into_a_count_naming_the_others(rendered_record):
    from harness.reporting.report import folded

    anchors = [{"id": "a.1", "verdict": "held"}, {"id": "a.2", "verdict": "held"},
               {"id": "a.3", "verdict": "anchor failed"}, {"id": "a.4", "verdict": "absent"}]
    assert folded(anchors) == "2 of 4 anchors held; anchor failed: a.3; absent: a.4"
    assert folded([]) == ""


def test_an_anchor_replicated_on_the_published_path_counts_as_held():
    from harness.reporting.report import folded

    assert folded([{"id": "a.1", "verdict": "replicated"}, {"id": "a.2", "verdict": "held"}]) == \
        "2 of 2 anchors held"


def test_a_findings_row_opens_its_anchors_with_the_folded_count(rendered_record):
    anchors = [entry("a.one", "anchor", "held"), entry("a.two", "anchor", "blocked"),
               entry("a.three", "anchor", "error"), entry("a.four", "anchor", "blocked")]
    page = rendered_record([*anchors, entry("a.f", "claim", "blocked",
                                            requires=["a.one", "a.two", "a.three", "a.four"])])
    assert page.rows["a.f"].text[REQUIRES].startswith(
        "1 of 4 anchors held; blocked: a.two, a.four; error: a.three")


def test_sources_are_sections_in_alphabetical_order(rendered_record):
    names = ["f", "e", "d", "c", "b", "a"]
    page = rendered_record([entry(f"{n}.x", "claim", "replicated") for n in names])
    assert page.headings == [f"source-{n}" for n in sorted(names)]


def test_a_registered_source_is_titled_with_its_seed_and_model(rendered_record):
    cot = registered()["cot"]
    page = rendered_record([entry("cot.x", "claim", "replicated")])
    assert page.by_id["source-cot"] == f"{cot.title} (cot, seed {cot.seed_file})"
    assert f"Published model: {cot.model}" in page.html


def test_an_unregistered_source_says_so(rendered_record):
    page = rendered_record([entry("elsewhere.x", "claim", "replicated")])
    assert page.by_id["source-elsewhere"] == "elsewhere (elsewhere, seed not a registered source)"
    assert "Published model: —" in page.html

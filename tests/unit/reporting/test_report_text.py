"""What a claim row and the top of the page say in words: the headline numbers, the values' JSON,
messages as text, the profile's and a partial run's banners, the figures."""
from __future__ import annotations

import json
import re
from html import unescape

import pytest

from harness.reporting import report
from harness.reporting.record import RunRecord
from harness.reporting.terminal import banner
from harness.verdicts import Verdict
from tests.sample_results import entry, record, results
from tests.unit.reporting.page import VERDICT, rendered

LIMIT = 1500  # characters of a value's JSON shown before " …"


@pytest.fixture
def page_of(tmp_path):
    """The page of a complete run made of the given entries (or of a whole results.json)."""
    def render(tests=None, data=None):
        return rendered(tmp_path, data or record(tests))
    return render


def one(page_of, **fields):
    """The row of a single claim with these fields."""
    return page_of([dict(entry("cot.x", "claim", "replicated"), **fields)])


def headline(page, claim_id: str = "cot.x") -> str:
    found = re.search(rf'id="claim-{re.escape(claim_id)}".*?<div class="headline">(.*?)</div>',
                      page.html, re.S)
    return unescape(found[1])


@pytest.mark.parametrize("shown, declared", [
    ("0.40 (published: 0.35)", {"text": "{x}", "measured": "0.40", "published": "0.35"}),
    ("0.35", {"text": "{x}", "measured": "0.35", "published": "0.35"}),
    ("0.40", {"text": "{x}", "measured": "0.40", "published": None}),
    ("not measured (published: 0.35)", {"text": "{x}", "measured": None, "published": "0.35"}),
    ("not measured", {"text": "{x}", "measured": None, "published": None}),
    ("no headline declared", {"measured": None, "published": None}),
    ("no headline declared", None),
])
def test_the_headline_reads_measured_then_published(page_of, shown, declared):
    assert headline(one(page_of, headline=declared)) == shown


def test_the_values_are_shown_as_json(page_of):
    row = one(page_of, published={"rate": [0.5, 1]}, measured=None).rows["cot.x"]
    assert row.values == ['{"rate": [0.5, 1]}', "—"]


@pytest.mark.parametrize("length", [LIMIT - 1, LIMIT])
def test_a_value_up_to_the_limit_is_shown_whole(page_of, length):
    measured = "y" * (length - 2)  # its JSON adds two quotes
    row = one(page_of, measured=measured).rows["cot.x"]
    assert row.values[1] == json.dumps(measured)


def test_a_longer_value_is_cut_at_the_limit_and_says_so(page_of):
    measured = "y" * (LIMIT - 1)
    row = one(page_of, measured=measured).rows["cot.x"]
    assert row.values[1] == json.dumps(measured)[:LIMIT] + " …"


def test_a_message_is_shown_as_text_never_as_markup(page_of):
    row = one(page_of, message="<b>not bold</b> & <script>x()</script>").rows["cot.x"]
    assert "<b>not bold</b> & <script>x()</script>" in row.text[VERDICT]


def test_the_row_names_its_kind_statement_and_criterion(page_of):
    row = one(page_of, criterion="rate within its interval").rows["cot.x"]
    assert row.text[0].startswith("cot.x claim, seed §2statement of cot.x")
    assert "criterion: rate within its interval" in row.text[1]


def test_a_profile_without_published_models_says_why_none_replicates(page_of):
    data = results("tiny")
    assert page_of(data=data).by_id["tiny-banner"] == banner(RunRecord.from_json(data))


def test_the_published_profile_has_no_such_banner(page_of):
    assert "tiny-banner" not in page_of(data=results("published")).by_id


def test_a_partial_run_says_how_many_tests_never_ran(page_of):
    data = dict(results(), run={"completed": False, "exit_status": 2, "interrupted": True,
                                "not_run": ["a", "b", "c"]})
    assert page_of(data=data).by_id["partial-banner"] == (
        "partial run: interrupted (exit status 2); 3 selected tests never ran. Verdicts below "
        "cover only what ran.")


def test_a_run_that_was_not_interrupted_but_left_tests_unrun_is_partial(page_of):
    data = dict(results(), run={"completed": False, "exit_status": 1, "interrupted": False,
                                "not_run": ["a"]})
    assert page_of(data=data).by_id["partial-banner"] == (
        "partial run: 1 selected tests never ran. Verdicts below cover only what ran.")


def test_a_complete_run_has_no_partial_banner(page_of):
    assert "partial-banner" not in page_of(data=results()).by_id


def test_the_page_is_titled_with_the_profile_and_start(page_of):
    html = page_of(data=results("tiny", started="2026-11-30T06:00:00+00:00")).html
    assert "<title>interp-claims: tiny run 2026-11-30T06:00:00+00:00</title>" in html


def test_a_claim_with_measured_values_and_a_figure_shows_it(page_of):
    page = page_of(data=results())
    figures = re.findall(r'<div class="fig" id="fig-([^"]+)"><h3>[^<]*</h3>\s*<svg', page.html)
    assert figures == ["cot.early-answering"]


def test_a_figure_is_drawn_from_its_entry_and_the_whole_run(page_of, monkeypatch):
    seen = {}

    def draw(e, run):
        seen[e["id"]] = {i: entry["verdict"] for i, entry in run.items()}
        return f"<svg><text>{e['id']} beside {len(run) - 1}</text></svg>" if e["measured"] else None

    monkeypatch.setattr(report, "figure_for", draw)
    page = page_of([entry("cot.a", "claim", "replicated", measured={"x": 1}),
                    entry("cot.b", "anchor", "held")])
    assert seen == {"cot.a": {"cot.a": "replicated", "cot.b": "held"},
                    "cot.b": {"cot.a": "replicated", "cot.b": "held"}}
    assert page.by_id["fig-cot.a"] == "cot.acot.a beside 1" and "fig-cot.b" not in page.by_id


def test_the_filters_offer_each_source_kind_and_verdict_once(page_of):
    page = page_of([entry(i, k, "replicated") for i, k in
                    (("b.y", "claim"), ("a.x", "anchor"), ("b.z", "claim"))])
    options = re.findall(r'<select id="f-(\w+)">(.*?)</select>', page.html)
    listed = {name: re.findall(r"<option>([^<]*)</option>", html) for name, html in options}
    assert listed["source"] == ["a", "b"] and listed["kind"] == ["anchor", "claim"]
    assert listed["verdict"] == [v.value for v in Verdict]

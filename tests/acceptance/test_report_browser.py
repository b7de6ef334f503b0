"""The report as a person sees it: rendered by headless Chromium (Selenium), read as visible text."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from harness.reporting.report import write_report
from harness.verdicts import Verdict
from tests.acceptance.browser import chromium, chromium_paths
from tests.pinned import pinned_entries
from tests.sample_results import ANCHOR_VERDICTS, badges, every_verdict, results

SCREENSHOT = Path(__file__).resolve().parents[2] / "reports" / "report-screenshot.png"
EARLY = "claim-cot.early-answering"


def two_runs(directory: Path) -> Path:
    """This run, and an earlier complete one in its history: a verdict changed, a library moved."""
    earlier = results(started="2026-11-29T06:00:00+00:00")
    earlier["environment"]["transformers"] = "5.23.0"
    for e in earlier["tests"]:
        if e["id"] == "cot.full-corruption":
            e["verdict"] = "replicated"
    (directory / "history").mkdir()
    (directory / "history" / "20261129T060000Z.json").write_text(json.dumps(earlier))
    path = directory / "results.json"
    path.write_text(json.dumps(results()))
    return write_report(path)


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    paths = chromium_paths()
    if paths is None:
        pytest.skip("Chromium or its driver is not installed (Debian packages `chromium` and "
                    "`chromium-driver`; .ci/run installs them)")
    html = two_runs(tmp_path_factory.mktemp("report"))
    with chromium(*paths) as browser:
        browser.get(html.as_uri())
        yield browser


def visible(browser, element_id: str) -> str:
    from selenium.webdriver.common.by import By

    return browser.find_element(By.ID, element_id).text


def test_browser_shows_the_verdict_counts(page):
    text = visible(page, "counts")
    assert "Verdicts" in text
    from selenium.webdriver.common.by import By

    table = page.find_element(By.CSS_SELECTOR, "table.counts").text
    assert "not applicable" in table and "blocked" in table


def test_a_claim_row_reads_its_headline_numbers_as_text(page):
    row = visible(page, EARLY)
    assert "forced correct 0.00 with 0% kept (published: forced correct 0.35 with 0% kept)" in row
    assert "criterion:" in row


def test_a_claim_row_says_what_its_criterion_detects_and_whether_it_rejects_its_null(page):
    row = visible(page, EARLY)
    assert "detects: correct_rate (every point): detects a fall of 0.12" in row
    assert "null rejected: changed_by_cot = 0 (truncating changes no answer)" in row


def test_the_full_json_is_one_click_away(page):
    from selenium.webdriver.common.by import By

    row = page.find_element(By.ID, EARLY)
    measured = row.find_elements(By.CSS_SELECTOR, "details.values pre")[1]
    assert not measured.is_displayed()
    row.find_element(By.CSS_SELECTOR, "details.values summary").click()
    assert measured.is_displayed() and '"changed_by_cot": 20' in measured.text


def test_what_changed_names_the_changed_verdict_and_the_library_that_moved(page):
    assert "cot.full-corruption: replicated → blocked" in visible(page, "changed-verdicts")
    assert "transformers 5.23.0 5.24.0" in visible(page, "environment-diff")


def test_filters_show_only_the_chosen_verdict(page):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.select import Select

    Select(page.find_element(By.ID, "f-verdict")).select_by_visible_text("blocked")
    rows = page.find_elements(By.CSS_SELECTOR, "tr.claim-row")
    shown = [r.get_attribute("id") for r in rows if r.is_displayed()]
    assert shown == ["claim-cot.full-corruption"] and visible(page, "f-count") == "1 shown"
    Select(page.find_element(By.ID, "f-verdict")).select_by_index(0)
    assert all(r.is_displayed() for r in rows)


def test_browser_shows_why_a_claim_is_blocked(page):
    assert ("blocked by cot.verbatim-block-control: AssertionError: the machinery is broken"
            in visible(page, "claim-cot.full-corruption"))


def test_browser_shows_the_organism_banner(page):
    assert visible(page, "tiny-banner").startswith(
        "tiny profile: published values are for the notebooks' models, so none applies here")


def test_the_curve_claims_figure_renders_at_nonzero_size(page):
    from selenium.webdriver.common.by import By

    figure = page.find_element(By.CSS_SELECTOR, "#fig-cot\\.early-answering svg")
    assert figure.size["width"] > 0 and figure.size["height"] > 0


def test_screenshot_is_saved(page):
    SCREENSHOT.parent.mkdir(exist_ok=True)
    page.save_screenshot(str(SCREENSHOT))
    assert SCREENSHOT.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.fixture(scope="module")
def every_claim(tmp_path_factory):
    """The page for a run made of every claim's declaration and pinned tiny values."""
    paths = chromium_paths()
    if paths is None:
        pytest.skip("Chromium or its driver is not installed (Debian packages `chromium` and "
                    "`chromium-driver`; .ci/run installs them)")
    data = results()
    data["tests"] = pinned_entries()
    data["counts"] = {"all": {"not applicable": len(data["tests"])}}
    path = tmp_path_factory.mktemp("every-claim") / "results.json"
    path.write_text(json.dumps(data))
    html = write_report(path)
    with chromium(*paths) as browser:
        browser.get(html.as_uri())
        yield browser, data["tests"]


def test_every_claim_shows_its_headline_numbers_as_text(every_claim):
    browser, entries = every_claim
    missing = []
    for e in entries:
        row = visible(browser, f"claim-{e['id']}")
        shown = e["headline"]["measured"] or e["headline"]["published"] or "not measured"
        if shown not in row:
            missing.append(e["id"])
    assert len(entries) >= 64 and not missing


# Each claim row's verdict badge and anchor badges as the browser lays them out: text as shown,
# class, title, whether it has a size, and its computed background.
READ_BADGES = """
const badge = b => ({text: b.innerText, cls: b.className, title: b.title,
                     shown: b.offsetWidth > 0, background: getComputedStyle(b).backgroundColor});
return Array.from(document.querySelectorAll("tr.claim-row")).map(row => ({
  id: row.id.replace(/^claim-/, ""),
  verdict: Array.from(row.cells[2].querySelectorAll("span.badge")).map(badge),
  anchors: Array.from(row.cells[4].querySelectorAll("span.badge")).map(badge)}));
"""
READ_FOLDED = """
return Object.fromEntries(Array.from(document.querySelectorAll("tr.claim-row")).map(row => [
  row.id.replace(/^claim-/, ""),
  {summary: (row.cells[4].querySelector("summary") || {innerText: ""}).innerText,
   hidden: Array.from(row.cells[4].querySelectorAll("span.badge")).every(b => !b.checkVisibility())}]));
"""
UNFOLD = 'document.querySelectorAll("details.guards").forEach(d => d.open = true);'
READ_COUNTS = """
return Array.from(document.querySelectorAll("table.counts tr"))
  .map(tr => Array.from(tr.cells).map(td => td.innerText));
"""


@pytest.fixture(scope="module")
def every_verdict_page(tmp_path_factory):
    """The page of a run with every verdict of each kind, every drift state, an absent anchor."""
    paths = chromium_paths()
    if paths is None:
        pytest.skip("Chromium or its driver is not installed (Debian packages `chromium` and "
                    "`chromium-driver`; .ci/run installs them)")
    data = every_verdict()
    path = tmp_path_factory.mktemp("every-verdict") / "results.json"
    path.write_text(json.dumps(data))
    html = write_report(path)
    with chromium(*paths) as browser:
        browser.get(html.as_uri())
        folded = browser.execute_script(READ_FOLDED)
        browser.execute_script(UNFOLD)
        yield data, browser.execute_script(READ_BADGES), browser.execute_script(READ_COUNTS), \
            folded


def test_each_rows_verdict_badge_shows_its_verdict_from_results_json(every_verdict_page):
    data, rows, *_ = every_verdict_page
    expected = badges(data)
    shown = {r["id"]: [(b["text"], b["cls"], b["shown"]) for b in r["verdict"]] for r in rows}
    assert shown == {i: [(v, f"badge v-{v.replace(' ', '-')}", True)] for i, (v, _) in
                     expected.items()}


def test_each_anchor_badge_shows_that_anchors_verdict_from_results_json(every_verdict_page):
    data, rows, *_ = every_verdict_page
    expected = badges(data)
    shown = {r["id"]: [b["text"] for b in r["anchors"] if b["shown"]] for r in rows}
    assert shown == {i: anchors for i, (_, anchors) in expected.items()}
    classes = {b["text"]: b["cls"] for r in rows for b in r["anchors"]}
    assert all(cls == "badge v-" + text.split(": ")[1].replace(" ", "-")
               for text, cls in classes.items())
    assert {t.split(": ")[1] for t in classes} == set(ANCHOR_VERDICTS) | {"absent"}


def test_every_verdict_badge_is_coloured(every_verdict_page):
    _, rows, *_ = every_verdict_page
    backgrounds = {b["cls"]: b["background"] for r in rows for b in r["verdict"] + r["anchors"]}
    assert len(backgrounds) == len(Verdict) + 1  # and "absent"
    assert not [cls for cls, colour in backgrounds.items() if colour == "rgba(0, 0, 0, 0)"]


def test_the_counts_shown_are_results_jsons(every_verdict_page):
    data, _, table, _ = every_verdict_page
    assert table[0] == ["source", *(v.value for v in Verdict), "total"]
    shown = {row[0]: [int(n) for n in row[1:]] for row in table[1:]}
    assert shown == {source: [counts.get(v, 0) for v in Verdict] + [sum(counts.values())]
                     for source, counts in data["counts"].items()}


def test_each_findings_anchors_are_folded_into_a_count_until_expanded(every_verdict_page):
    data, *_, folded = every_verdict_page
    verdicts = {t["id"]: t["verdict"] for t in data["tests"]}
    for t in data["tests"]:
        if not t["requires"]:
            continue
        held = sum(verdicts.get(a) in ("held", "replicated") for a in t["requires"])
        assert folded[t["id"]]["summary"].startswith(
            f"{held} of {len(t['requires'])} anchors held"), t["id"]
        assert folded[t["id"]]["hidden"], t["id"]
        for a in t["requires"]:
            if verdicts.get(a) not in ("held", "replicated"):
                assert a in folded[t["id"]]["summary"], (t["id"], a)


def test_each_sources_findings_come_before_its_anchors(every_verdict_page):
    _, rows, *_ = every_verdict_page
    kinds = {t["id"]: t["kind"] for t in every_verdict_page[0]["tests"]}
    for source in {i.split(".")[0] for i in kinds}:
        order = [kinds[r["id"]] == "anchor" for r in rows if r["id"].startswith(source + ".")]
        assert order == sorted(order), source

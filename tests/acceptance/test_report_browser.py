"""The report as a person sees it: rendered by headless Chromium, read back as visible text."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from harness.report import write_report
from tests.acceptance.browser import Browser, chromium_path
from tests.sample_results import results

SCREENSHOT = Path(__file__).resolve().parents[2] / "reports" / "report-screenshot.png"


@pytest.fixture(scope="module")
def rendered(tmp_path_factory):
    binary = chromium_path()
    if binary is None:
        pytest.skip("Chromium is not installed (Debian package `chromium`; .ci/run installs it)")
    directory = tmp_path_factory.mktemp("report")
    path = directory / "results.json"
    path.write_text(json.dumps(results()))
    page = write_report(path)
    browser = Browser(binary)
    try:
        yield browser.render(page, SCREENSHOT)
    finally:
        browser.close()


def test_browser_shows_the_verdict_counts(rendered):
    assert "Verdicts" in rendered.text
    assert "not applicable" in rendered.text and "blocked" in rendered.text


def test_browser_shows_a_claim_row(rendered):
    assert "cot.early-answering" in rendered.text
    assert "statement of cot.early-answering" in rendered.text


def test_browser_shows_why_a_claim_is_blocked(rendered):
    assert "blocked by cot.verbatim-block-control: AssertionError: the machinery is broken" in rendered.text


def test_browser_shows_the_organism_banner(rendered):
    assert "organism run: published values do not apply" in rendered.text


def test_figures_render_at_nonzero_size(rendered):
    assert rendered.figure_sizes
    assert all(w > 0 and h > 0 for w, h in rendered.figure_sizes)


def test_screenshot_is_saved(rendered):
    assert SCREENSHOT.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"

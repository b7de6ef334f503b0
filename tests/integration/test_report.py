"""The claim-status page: structure parsed from the HTML, and history handling."""
from __future__ import annotations

import json
from html.parser import HTMLParser

from harness.reporting import history
from harness.reporting.record import RunRecord, validate
from harness.reporting.report import write_report
from tests.sample_results import results


class Rows(HTMLParser):
    """Collect each claim row's id, verdict and text."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: dict[str, dict] = {}
        self.current: str | None = None
        self.text: dict[str, list[str]] = {}
        self.banner = False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "tr" and "claim-row" in (a.get("class") or ""):
            self.current = a["id"].removeprefix("claim-")
            self.rows[self.current] = {"verdict": a["data-verdict"]}
            self.text[self.current] = []
        if a.get("id") == "tiny-banner":
            self.banner = True

    def handle_endtag(self, tag):
        if tag == "tr":
            self.current = None

    def handle_data(self, data):
        if self.current:
            self.text[self.current].append(data)


def render(tmp_path, data, history_files=()) -> Rows:
    path = tmp_path / "results.json"
    path.write_text(json.dumps(data))
    hist = tmp_path / "history"
    hist.mkdir(exist_ok=True)
    for name, text in history_files:
        (hist / name).write_text(text)
    parser = Rows()
    parser.feed(write_report(path).read_text())
    return parser


def test_sample_record_is_valid():
    assert validate(results()) == []


def test_every_claim_appears_with_its_verdict(tmp_path):
    data = results()
    page = render(tmp_path, data)
    assert {k: v["verdict"] for k, v in page.rows.items()} == {t["id"]: t["verdict"]
                                                              for t in data["tests"]}


def test_blocked_claim_names_its_anchor_and_message(tmp_path):
    page = render(tmp_path, results())
    text = " ".join(page.text["cot.full-corruption"])
    assert "blocked by cot.verbatim-block-control: AssertionError: the machinery is broken" in text


def test_findings_are_listed_before_anchors(tmp_path):
    page = render(tmp_path, results())
    assert list(page.rows)[-1] == "cot.verbatim-block-control"


def test_tiny_profile_shows_the_organism_banner(tmp_path):
    assert render(tmp_path, results("tiny")).banner
    assert not render(tmp_path, results("published")).banner


def test_page_is_self_contained(tmp_path):
    path = tmp_path / "results.json"
    path.write_text(json.dumps(results()))
    html = write_report(path).read_text()
    assert "<svg" in html
    for loads_something in ("<script src", "<link", "src=", 'href="http', "url(http", "@import",
                            "fetch(", "XMLHttpRequest"):
        assert loads_something not in html


def test_corrupted_and_foreign_history_files_become_warnings(tmp_path):
    files = [("20261101T000000Z.json", "{not json"),
             ("20261102T000000Z.json", json.dumps({"schema": 99, "tests": []})),
             ("20261103T000000Z.json", json.dumps(["a", "list"])),
             ("20261104T000000Z.json", json.dumps(results()))]
    page = render(tmp_path, results(), files)
    assert page.rows  # rendered, no crash
    loaded = history.load(tmp_path / "history")
    assert [name for name, _ in loaded.runs] == ["20261104T000000Z"]
    assert len(loaded.warnings) == 3


def test_since_when_marks_a_verdict_change(tmp_path):
    old = results()
    old["tests"][1]["verdict"] = "replicated"
    files = [("20261101T000000Z.json", json.dumps(old)), ("20261102T000000Z.json", json.dumps(results())),
             ("20261103T000000Z.json", json.dumps(results()))]
    render(tmp_path, results(), files)
    loaded = history.load(tmp_path / "history")
    assert loaded.since("cot.full-corruption", "blocked") == "20261102T000000Z"
    assert loaded.since("cot.early-answering", "not applicable") is None


def test_history_keeps_the_last_30_runs(tmp_path):
    files = [(f"202611{d:02d}T000000Z.json", json.dumps(results())) for d in range(1, 31)] + \
            [(f"202612{d:02d}T000000Z.json", json.dumps(results())) for d in range(1, 6)]
    render(tmp_path, results(), files)
    assert len(history.load(tmp_path / "history").runs) == 30


def started_at(when: str) -> RunRecord:
    return RunRecord.from_json(results(started=when))


def test_archive_names_the_copy_by_utc_start(tmp_path):
    target = history.archive(started_at("2026-11-30T07:08:09+01:00"), tmp_path / "history")
    assert target.name == "20261130T060809Z.json"


def test_two_runs_started_in_the_same_second_keep_two_entries_in_order(tmp_path):
    first = history.archive(started_at("2026-11-30T07:08:09+01:00"), tmp_path / "history")
    second = history.archive(started_at("2026-11-30T07:08:09+01:00"), tmp_path / "history")
    assert second.name == "20261130T060809Z~2.json"
    assert [name for name, _ in history.load(tmp_path / "history").runs] == [first.stem, second.stem]


def test_concurrent_runs_each_keep_their_entry(tmp_path):
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(max_workers=4) as pool:
        written = list(pool.map(lambda _: history.archive(
            started_at("2026-11-30T07:08:09+01:00"), tmp_path / "history"), range(4)))
    assert len(set(written)) == 4 and len(history.load(tmp_path / "history").runs) == 4


def partial(data: dict) -> dict:
    return dict(data, run={"completed": False, "exit_status": 2, "interrupted": True,
                           "not_run": ["claims/test_x.py::test_y"]})


def test_partial_run_is_never_a_change_of_verdict(tmp_path):
    cut = partial(results())
    cut["tests"][1]["verdict"] = "error"
    files = [("20261101T000000Z.json", json.dumps(results())), ("20261102T000000Z.json", json.dumps(cut)),
             ("20261103T000000Z.json", json.dumps(results()))]
    render(tmp_path, results(), files)
    loaded = history.load(tmp_path / "history")
    assert loaded.since("cot.full-corruption", "blocked") is None
    assert [p for *_, p in loaded.verdicts("cot.full-corruption")] == [False, True, False]


def test_partial_run_shows_a_banner(tmp_path):
    path = tmp_path / "results.json"
    path.write_text(json.dumps(partial(results())))
    page = write_report(path).read_text()
    assert 'id="partial-banner"' in page and "1 selected tests never ran" in page


def test_complete_run_shows_no_partial_banner(tmp_path):
    path = tmp_path / "results.json"
    path.write_text(json.dumps(results()))
    assert 'id="partial-banner"' not in write_report(path).read_text()


def test_drift_shows_since_which_run(tmp_path):
    drifted = results()
    drifted["tests"][2]["drift"] = "drifted"
    files = [("20261101T000000Z.json", json.dumps(results())),
             ("20261102T000000Z.json", json.dumps(drifted)),
             ("20261103T000000Z.json", json.dumps(partial(results()))),
             ("20261104T000000Z.json", json.dumps(drifted))]
    page = render(tmp_path, drifted, files)
    assert "drifted since 20261102T000000Z" in " ".join(page.text["cot.early-answering"])

"""What the page says about earlier runs: a cell per run, since when a verdict or drift holds,
what changed since the previous complete run, and history files it could not read."""
from __future__ import annotations

import inspect
import json

from harness.reporting import history
from tests.sample_results import entry, record
from tests.unit.reporting.page import DRIFT, VERDICT, rendered

NOW = "2026-11-30T06:00:00+00:00"


def run(verdict: str | None, *, measured=None, drift: str | None = None, partial: bool = False,
        started: str = "2026-11-01T00:00:00+00:00") -> dict:
    """An earlier run holding cot.x with this verdict (none when `verdict` is None)."""
    tests = [entry("cot.other", "claim", "replicated")]
    if verdict:
        tests.append(dict(entry("cot.x", "claim", verdict, measured=measured),
                          drift=drift, snapshot="outside" if drift == "drifted" else "exact"))
    data = record(tests, started=started)
    if partial:
        data["run"] = {"completed": False, "exit_status": 2, "interrupted": True, "not_run": ["a"]}
    return data


def now(verdict: str = "replicated", drift: str | None = None) -> dict:
    return run(verdict, drift=drift, started=NOW)


def test_each_earlier_run_is_a_cell_with_its_verdict(tmp_path):
    earlier = {"r1": run("not replicated", measured={"rate": 0.5}), "r2": run("error", partial=True),
               "r3": run(None)}
    row = rendered(tmp_path, now(), earlier).rows["cot.x"]
    assert [(c.classes, c.title) for c in row.cells] == [
        (["v-not-replicated"], 'r1: not replicated — {"rate": 0.5}'),
        (["v-error", "partial"], "r2 (partial run): error — not run"),
        (["v-absent"], "r3: absent — not run")]


def test_a_cells_summary_of_the_values_is_cut_at_300_characters(tmp_path):
    measured = {"long": "y" * 400}
    row = rendered(tmp_path, now(), {"r1": run("replicated", measured=measured)}).rows["cot.x"]
    assert row.cells[0].title == "r1: replicated — " + json.dumps(measured)[:300]


def test_the_header_names_as_many_runs_as_the_history_keeps(tmp_path):
    kept = inspect.signature(history.load).parameters["limit"].default
    assert f"<th>last {kept} runs</th>" in rendered(tmp_path, now()).html


def test_a_changed_verdict_says_since_which_run(tmp_path):
    earlier = {"r1": run("not replicated"), "r2": run("replicated"), "r3": run("replicated")}
    row = rendered(tmp_path, now(), earlier).rows["cot.x"]
    assert row.text[VERDICT].endswith("since r2")


def test_an_unchanged_verdict_says_no_since(tmp_path):
    row = rendered(tmp_path, now(), {"r1": run("replicated")}).rows["cot.x"]
    assert "since" not in row.text[VERDICT]


def test_a_drift_says_since_which_run(tmp_path):
    earlier = {"r1": run("replicated", drift="no drift"), "r2": run("replicated", drift="drifted")}
    row = rendered(tmp_path, now(drift="drifted"), earlier).rows["cot.x"]
    assert row.badge(DRIFT).text == "drifted since r2"


def test_what_changed_names_the_previous_complete_run_and_the_verdict(tmp_path):
    earlier = {"r1": run("not replicated"), "r2": run("replicated", partial=True)}
    page = rendered(tmp_path, now(), earlier)
    assert page.by_id["changes"] == "What changed since r1"
    assert page.by_id["changed-verdicts"] == "cot.x: not replicated → replicated"


def test_without_an_earlier_run_nothing_is_compared(tmp_path):
    page = rendered(tmp_path, now())
    assert page.by_id["changes"] == "What changed" and "no-previous" in page.by_id


def test_an_unreadable_history_file_becomes_a_warning(tmp_path):
    (tmp_path / "history").mkdir()
    (tmp_path / "history" / "r0.json").write_text("{not json")
    page = rendered(tmp_path, now(), {"r1": run("replicated")})
    assert '<div class="warn">history: r0.json: unreadable (JSONDecodeError)</div>' in page.html
    assert page.rows["cot.x"].cells[0].title.startswith("r1: replicated")

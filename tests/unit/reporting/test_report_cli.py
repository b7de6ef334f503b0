"""Writing the page: where it goes, the history, canary and seed notebooks it reads beside
results.json, and the command's exit status and messages."""
from __future__ import annotations

import json
import sys
from types import SimpleNamespace

import pytest

from harness.reporting import report
from harness.reporting.record import RunRecord
from tests.sample_results import entry, record, results
from tests.unit.reporting.page import read, written

NOTEBOOK = "line one\nline two\n2. The second section¶\nits text\nfive\n"


def test_the_page_is_written_beside_results_json(tmp_path):
    out = report.write_report(written(tmp_path, results()))
    assert out == tmp_path / "claims.html" and "claim-cot.early-answering" in read(out.read_text()).by_id


def test_the_page_goes_where_asked(tmp_path):
    out = report.write_report(written(tmp_path, results()), tmp_path / "elsewhere.html")
    assert out == tmp_path / "elsewhere.html" and out.is_file()
    assert not (tmp_path / "claims.html").exists()


def test_the_history_beside_results_json_is_read(tmp_path):
    path = written(tmp_path, results(), {"r1": results(started="2026-11-01T00:00:00+00:00")})
    assert read(report.write_report(path).read_text()).by_id["changes"] == "What changed since r1"


def test_a_history_folder_given_is_read_instead(tmp_path):
    path = written(tmp_path, results(), {"r1": results(started="2026-11-01T00:00:00+00:00")})
    other = tmp_path / "other"
    other.mkdir()
    (other / "r9.json").write_text(json.dumps(results(started="2026-11-02T00:00:00+00:00")))
    page = read(report.write_report(path, history_dir=other).read_text())
    assert page.by_id["changes"] == "What changed since r9"


def test_the_canary_beside_results_json_is_shown(tmp_path):
    path = written(tmp_path, results())
    canary = {"profile": "tiny", "written": "2026-12-01", "wall_s": None,
              "locked": {"started": "2026-11-30T06:00:00+00:00"}, "notes": ["the canary note"],
              "problems": [], "versions": [], "drifted": [], "verdict_changed": []}
    (tmp_path / "canary.json").write_text(json.dumps(canary))
    page = read(report.write_report(path).read_text())
    assert "Upgrade canary" in page.by_id["canary"] and "the canary note" in page.html


def test_without_a_canary_there_is_no_canary_section(tmp_path):
    assert "canary" not in read(report.write_report(written(tmp_path, results())).read_text()).by_id


@pytest.fixture
def sources(tmp_path, monkeypatch):
    """Two registered sources whose notebooks lie in their folders; the run has only `nb`."""
    registry = {}
    for name in ("nb", "unused"):
        folder = tmp_path / name
        folder.mkdir()
        (folder / f"{name}.txt").write_text(NOTEBOOK)
        registry[name] = SimpleNamespace(seed_file=f"{name}.txt", folder=folder,
                                         title=f"the {name} paper", model=f"{name}-model")
    monkeypatch.setattr(report, "registered", lambda: registry)
    out = tmp_path / "out"
    out.mkdir()
    return out


def page_with_seeds(out, provenance: str):
    data = record([dict(entry("nb.x", "claim", "replicated"), provenance=provenance)])
    return read(report.write_report(written(out, data)).read_text())


def test_the_runs_seed_notebooks_are_written_beside_the_page(sources):
    page_with_seeds(sources, "notebook")
    assert sorted(p.name for p in (sources / "seeds").iterdir()) == ["nb.txt.html"]
    assert 'id="L3"' in (sources / "seeds" / "nb.txt.html").read_text()


def test_a_seed_link_opens_at_its_sections_heading(sources):
    row = page_with_seeds(sources, "notebook").rows["nb.x"]
    assert row.links == ["seeds/nb.txt.html#L3", "seeds/nb.txt.html#L3"]


def test_a_seed_link_opens_at_the_line_its_provenance_cites(sources):
    row = page_with_seeds(sources, "nb.txt:5 (the output)").rows["nb.x"]
    assert row.links[0] == "seeds/nb.txt.html#L5"


def test_a_registered_sources_section_names_its_paper_and_model(sources):
    page = page_with_seeds(sources, "notebook")
    assert page.by_id["source-nb"] == "the nb paper (nb, seed nb.txt)"
    assert "Published model: nb-model" in page.html


def test_a_row_without_its_notebook_has_no_seed_link(tmp_path, monkeypatch):
    monkeypatch.setattr(report.seeds, "write_pages", lambda out, files: {})
    data = record([entry("cot.x", "claim", "replicated")])
    assert read(report.write_report(written(tmp_path, data)).read_text()).rows["cot.x"].links == []


def command(monkeypatch, *args: str) -> None:
    monkeypatch.setattr(sys, "argv", ["report", *args])
    report.main()


def test_the_command_names_the_page_it_wrote(tmp_path, monkeypatch, capsys):
    path = written(tmp_path, results())
    command(monkeypatch, str(path))
    assert capsys.readouterr().out == f"report: {tmp_path / 'claims.html'}\n"


def test_the_command_writes_where_out_says(tmp_path, monkeypatch, capsys):
    command(monkeypatch, str(written(tmp_path, results())), "--out", str(tmp_path / "x.html"))
    assert capsys.readouterr().out == f"report: {tmp_path / 'x.html'}\n"
    assert (tmp_path / "x.html").is_file()


def test_the_command_without_a_record_exits_2_with_its_usage(monkeypatch, capsys):
    with pytest.raises(SystemExit) as done:
        command(monkeypatch)
    assert done.value.code == 2
    assert "the following arguments are required: results" in capsys.readouterr().err


def test_the_commands_help_says_what_it_makes(monkeypatch, capsys):
    with pytest.raises(SystemExit) as done:
        command(monkeypatch, "--help")
    shown = " ".join(capsys.readouterr().out.split())  # as argparse wraps it
    assert done.value.code == 0 and "results.json: the self-contained claim-status page" in shown
    assert "results the run record to render (reports/results.json)" in shown
    assert "--out OUT where to write the page (default: claims.html beside the record)" in shown


def test_a_record_given_is_rendered_instead_of_results_json(tmp_path):
    path = written(tmp_path, results())
    held = RunRecord.from_json(record([entry("cot.rederivation", "claim", "replicated")]))
    page = read(report.write_report(path, record=held).read_text())
    assert "claim-cot.rederivation" in page.by_id and "claim-cot.early-answering" not in page.by_id

"""harness.replicating.merged: one record of a replication's runs, each source's choice in its
environment; the terminal banner and the page say which sources ran on organisms."""
from __future__ import annotations

from harness.best_models import Choice
from harness.profiles import ProfileName
from harness.replicating import merged
from harness.reporting.record import RunRecord
from harness.reporting.terminal import banner
from tests.sample_results import entry, record
from tests.unit.reporting.page import rendered

CHOSEN = {"patching": Choice("patching", ProfileName.PUBLISHED, "openai-community/gpt2@607a30d",
                             "its weights are reachable and it runs on the CPU here"),
          "cot": Choice("cot", ProfileName.TINY, "cot organism",
                        "Qwen/Qwen3-4B-Thinking-2507 cannot run here: no CUDA device")}


def runs(exit_published: int = 0, completed_tiny: bool = True) -> dict[str, RunRecord]:
    published = record([entry("patching.layer-flip", "claim", "not replicated")], "published",
                       "2026-12-05T06:00:00+00:00")
    published["run"]["exit_status"] = exit_published
    tiny = record([entry("cot.full-corruption", "claim", "recovered")], "tiny",
                  "2026-12-05T06:01:00+00:00")
    tiny["run"]["completed"] = completed_tiny
    return {"published": RunRecord.from_json(published), "tiny": RunRecord.from_json(tiny)}


def test_the_merged_record_holds_every_runs_entries():
    assert {e.id for e in merged(runs(), CHOSEN).tests} == {"patching.layer-flip",
                                                           "cot.full-corruption"}


def test_the_merged_record_names_each_sources_choice_and_both_profiles():
    env = merged(runs(), CHOSEN).environment
    assert env["profile"] == "published+tiny"
    assert env["sources"]["cot"]["profile"] == "tiny" and "no CUDA" in env["sources"]["cot"]["why"]
    assert env["selection"]["sources"] == {"patching": "published", "cot": "tiny"}
    assert env["started"] == "2026-12-05T06:00:00+00:00"


def test_the_merged_run_is_partial_where_any_run_was_and_keeps_the_worst_exit_status():
    run = merged(runs(exit_published=1, completed_tiny=False), CHOSEN).run
    assert run.exit_status == 1 and run.partial


def test_the_banner_names_the_sources_on_organisms():
    line = banner(merged(runs(), CHOSEN))
    assert line.startswith("cot ran on its organism (patching on the published models)")


def test_no_banner_where_every_source_ran_its_published_model():
    published = {"patching": CHOSEN["patching"]}
    assert banner(merged({"published": runs()["published"]}, published)) is None


def test_the_page_says_which_model_each_source_ran_on_and_why(tmp_path):
    page = rendered(tmp_path, merged(runs(), CHOSEN).to_json())
    assert page.by_id["ran-on-cot"] == ("Ran on: cot organism (tiny profile): "
                                        "Qwen/Qwen3-4B-Thinking-2507 cannot run here: no CUDA device")
    assert "openai-community/gpt2@607a30d (published profile)" in page.by_id["ran-on-patching"]


def test_the_banner_names_several_organisms_in_the_plural():
    chosen = {**CHOSEN, "heads": Choice("heads", ProfileName.TINY, "heads organism", "no CUDA")}
    line = banner(merged(runs(), chosen))
    assert line.startswith("cot, heads ran on their organisms (patching on the published models)")


def test_the_banner_names_several_published_sources_joined_by_commas():
    chosen = {**CHOSEN, "ioi_tutorial": Choice("ioi_tutorial", ProfileName.PUBLISHED, "gpt2", "cpu")}
    line = banner(merged(runs(), chosen))
    assert "(ioi_tutorial, patching on the published models)" in line


def test_the_banner_says_so_where_no_published_model_could_run():
    chosen = {"cot": CHOSEN["cot"]}
    line = banner(merged({"tiny": runs()["tiny"]}, chosen))
    assert line.startswith("cot ran on its organism (no source's published model can run here)")

"""The rehearsal's order and its memory of the last one: one at a time the most informative
source first, several at once the longest last time first; the last rehearsal's seconds, under
the same setting only."""
from __future__ import annotations

import json
from dataclasses import asdict

from harness.rehearsal.run import last_seconds, run_order
from harness.rehearsal.setting import Setting


SOURCES = ["cot", "heads", "lookback", "patching", "extra"]


def test_one_at_a_time_the_most_informative_source_goes_first():
    assert run_order(SOURCES, 1) == ["patching", "cot", "heads", "lookback", "extra"]


def test_several_at_once_the_longest_last_time_goes_first():
    seconds = {"cot": 70.0, "heads": 45.0, "lookback": 90.0, "patching": 15.0, "extra": 30.0}
    assert run_order(SOURCES, 2, seconds) == ["lookback", "cot", "heads", "extra", "patching"]


def test_several_at_once_the_unmeasured_go_last_the_declared_larger_first():
    assert run_order(SOURCES, 2, {"patching": 15.0}) == ["patching", "lookback", "heads", "cot",
                                                          "extra"]


def test_the_last_rehearsals_seconds_count_its_build_and_runs(tmp_path):
    setting = Setting.for_device("cpu")
    out = tmp_path / "rehearsal.json"
    out.write_text(json.dumps({"setting": asdict(setting), "build": {"cot": {"wall_seconds": 2.0}},
                               "sources": {"cot": {"faithful": {"seconds": 60.0}}}}))
    assert last_seconds(out, setting) == {"cot": 62.0}


def test_a_rehearsal_under_another_setting_gives_no_seconds(tmp_path):
    out = tmp_path / "rehearsal.json"
    out.write_text(json.dumps({"setting": asdict(Setting.for_device("cuda")),
                               "sources": {"cot": {"faithful": {"seconds": 60.0}}}}))
    assert last_seconds(out, Setting.for_device("cpu")) == {}
    assert last_seconds(tmp_path / "none.json", Setting.for_device("cpu")) == {}

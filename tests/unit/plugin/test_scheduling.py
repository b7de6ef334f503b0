"""How xdist workers share the visible GPUs."""
from __future__ import annotations

from harness.plugin.scheduling import share_of, source_scope


def test_enough_gpus_give_each_worker_a_disjoint_slice():
    shares = [share_of(["0", "1", "2", "3"], w, 2) for w in range(2)]
    assert shares == [["0", "2"], ["1", "3"]]


def test_fewer_gpus_than_workers_are_shared_one_each():
    assert [share_of(["0", "1"], w, 3) for w in range(3)] == [["0"], ["1"], ["0"]]


def test_a_sources_folder_is_one_scheduling_unit():
    sources = {"cot", "heads"}
    assert source_scope("claims/cot/test_anchors.py::test_x", sources) == "claims/cot"
    assert source_scope("claims/cot/test_findings.py::test_y", sources) == "claims/cot"
    assert source_scope("tests/unit/test_text.py::test_z", sources) == "tests/unit/test_text.py"

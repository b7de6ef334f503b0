"""A source's modules read by name (harness.source.Source.part): only the declared parts; its
figures (Source.figures)."""
from __future__ import annotations

import pytest

from harness.registry import source
from harness.source import Figures, SourcePart


def test_a_part_the_source_has_is_its_module():
    assert source("cot").part(SourcePart.BREAKAGES).__name__ == "harness.sources.cot.breakages"


def test_a_declared_part_the_source_lacks_is_none():
    assert source("ioi_tutorial").part(SourcePart.ORGANISM) is None


def test_an_undeclared_part_is_refused():
    with pytest.raises(ValueError, match="plans"):
        source("cot").part("plans")


def test_a_source_without_a_figures_module_declares_no_figures():
    assert source("ioi_tutorial").figures == Figures()


def test_a_figure_of_its_entry_is_drawn_from_the_entry():
    figures = Figures(of_entry={"x.a": lambda e: f"<svg>{e['measured']}</svg>"})
    assert figures.draw({"id": "x.a", "measured": 3}, {}) == "<svg>3</svg>"


def test_a_figure_of_its_run_reads_the_other_entries():
    figures = Figures(of_run={"x.a": lambda e, run: f"<svg>{sorted(run)}</svg>"})
    assert figures.draw({"id": "x.a"}, {"x.a": {}, "x.b": {}}) == "<svg>['x.a', 'x.b']</svg>"


def test_a_claim_without_a_figure_draws_none():
    assert Figures(of_entry={"x.a": lambda e: "<svg/>"}).draw({"id": "x.b"}, {}) is None


def test_a_figures_claim_ids_are_both_kinds():
    figures = Figures(of_entry={"x.a": lambda e: ""}, of_run={"x.b": lambda e, run: ""})
    assert figures.claim_ids == {"x.a", "x.b"}


def test_a_sources_claims_folder_is_claims_slash_its_name_under_the_root(tmp_path):
    assert source("lookback").claims_folder(tmp_path) == tmp_path / "claims" / "lookback"

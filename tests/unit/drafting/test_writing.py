"""harness.drafting.writing: the draft's files, its register page, claim tests and checklist
(the source's stubs: test_source_stubs.py)."""
from __future__ import annotations

import re

import pytest

import harness.claims
import harness.register
import harness.registry
from harness.claims import spec_of
from harness.drafting.draft import draft
from harness.drafting.notebook import read_notebook
from harness.drafting.writing import write_draft
from harness.register import read_register
from tests.unit.drafting.drafted import GPT2, load, write_toy


@pytest.fixture
def out(dump, tmp_path):
    return write_toy(dump, tmp_path / "draft")


def test_a_draft_holds_its_register_stubs_claims_and_checklist(out):
    assert sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file()) == [
        "CHECKLIST.md", "claims/toy/__init__.py",
        "claims/toy/test_toy.py", "notebook.html", "register.md", "source/toy/__init__.py",
        "source/toy/organism.py", "source/toy/register.md", "source/toy/sizes.py",
        "source/toy/steps.py", "source/toy/task.py"]


def test_the_register_links_each_provenance_to_its_line_on_the_page(out):
    links = re.findall(r"\]\(notebook\.html#L(\d+)\)", (out / "register.md").read_text())
    page = (out / "notebook.html").read_text()
    assert links and all(f'id="L{n}"' in page for n in links)


def test_the_source_register_reads_as_the_suites_register(out):
    rows = read_register(out / "source/toy")
    assert [r.id for r in rows] == ["toy.acc", "toy.k", "toy.layer", "toy.effect-layer",
                                    "toy.best"]


def test_the_draft_claims_skip_whole_while_the_source_is_not_registered(out):
    with pytest.raises(pytest.skip.Exception, match="draft: source 'toy' is not registered"):
        load(out / "claims/toy/test_toy.py", "toy_claims")


def test_each_draft_claim_declares_itself_and_skips_saying_what_is_missing(out, monkeypatch):
    monkeypatch.setattr(harness.registry, "source_names", lambda: {"toy"})
    monkeypatch.setattr(harness.claims, "source_names", lambda: {"toy"})
    rows = {r.id: r for r in read_register(out / "source/toy")}
    monkeypatch.setattr(harness.register, "rows_of", lambda name: rows)  # as once registered
    claims = load(out / "claims/toy/test_toy.py", "toy_claims")
    tests = [f for name, f in vars(claims).items() if name.startswith("test_")]
    assert [spec_of(f).id for f in tests] == ["toy.acc", "toy.k", "toy.layer",
                                              "toy.effect-layer", "toy.best"]
    assert [(spec_of(f).kind, spec_of(f).section) for f in tests] == [
        (rows[spec_of(f).id].kind, rows[spec_of(f).id].section) for f in tests]
    for test in tests:
        with pytest.raises(pytest.skip.Exception, match="^draft: .* not written"):
            test()


def test_the_checklist_says_which_files_are_stubs(out):
    text = (out / "CHECKLIST.md").read_text()
    assert all(f"`source/toy/{f}.py` (STUB)" in text for f in ("task", "steps", "sizes",
                                                               "organism"))


def test_a_draft_does_not_write_over_files_unless_forced(dump, out):
    made = draft("toy", read_notebook(dump), GPT2)
    with pytest.raises(FileExistsError):
        write_draft(made, out)
    assert write_draft(made, out, force=True)

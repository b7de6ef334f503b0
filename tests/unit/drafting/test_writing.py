"""harness.drafting.writing: the draft's register page, stubs, claim tests and checklist."""
from __future__ import annotations

import importlib.util
import re
import sys

import pytest

import harness.claims
import harness.register
import harness.registry
from harness.claims import spec_of
from harness.declared_steps import check_steps
from harness.drafting.draft import ModelRef, draft
from harness.drafting.notebook import read_notebook
from harness.drafting.writing import write_draft
from harness.register import parse_register

GPT2 = ModelRef("openai-community/gpt2", "607a30d783dfa663caf39e06633721c8d4cfcd7e")


@pytest.fixture
def out(dump, tmp_path):
    folder = tmp_path / "draft"
    write_draft(draft("toy", read_notebook(dump), GPT2), folder)
    return folder


def load(path, name):
    """A drafted module, imported from its file (and forgotten again)."""
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # a dataclass looks its module up while it is made
    try:
        spec.loader.exec_module(module)
    finally:
        del sys.modules[name]
    return module


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
    rows = parse_register((out / "source/toy/register.md").read_text())
    assert [r.id for r in rows] == ["toy.acc", "toy.k", "toy.layer", "toy.effect-layer",
                                    "toy.best"]


def test_a_step_stub_raises_naming_what_it_must_measure(out):
    steps = load(out / "source/toy/steps.py", "toy_steps")
    with pytest.raises(NotImplementedError,
                       match="draft: step section_2 .* must measure .*effect_layer"):
        steps.section_2(None, None)


def test_the_draft_steps_pass_the_suites_step_check(out):
    check_steps("toy", load(out / "source/toy/steps.py", "toy_steps").STEPS)


def test_the_task_organism_and_sizes_stubs_raise_as_drafts(out):
    task = load(out / "source/toy/task.py", "toy_task")
    organism = load(out / "source/toy/organism.py", "toy_organism")
    sizes = load(out / "source/toy/sizes.py", "toy_sizes")
    for stub in (lambda: task.build(None), organism.build_tokenizer, sizes.tiny):
        with pytest.raises(NotImplementedError, match="^draft: "):
            stub()


def test_the_draft_claims_skip_whole_while_the_source_is_not_registered(out):
    with pytest.raises(pytest.skip.Exception, match="draft: source 'toy' is not registered"):
        load(out / "claims/toy/test_toy.py", "toy_claims")


def test_each_draft_claim_declares_itself_and_skips_saying_what_is_missing(out, monkeypatch):
    monkeypatch.setattr(harness.registry, "source_names", lambda: {"toy"})
    monkeypatch.setattr(harness.claims, "source_names", lambda: {"toy"})
    rows = {r.id: r for r in parse_register((out / "source/toy/register.md").read_text())}
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

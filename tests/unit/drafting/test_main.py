"""interp-claims new: drafting from the command line, and --share."""
from __future__ import annotations

import pytest

from harness import cli
from tests.unit.drafting.test_share import REGISTER, SHARED

MODEL = "openai-community/gpt2@607a30d783dfa663caf39e06633721c8d4cfcd7e"
SEED = SHARED / "seeds" / "000_5720c3af84d37566.txt"  # prints "recovered ... 19/20" at line 560


def test_new_writes_a_draft_and_names_its_checklist(dump, tmp_path, capsys):
    out = tmp_path / "draft"
    assert cli.main(["new", "toy", "--notebook", str(dump), "--model", MODEL,
                     "--out", str(out)]) == 0
    assert (out / "CHECKLIST.md").exists() and "CHECKLIST.md" in capsys.readouterr().out


def test_new_without_a_notebook_is_a_usage_error(capsys):
    assert cli.main(["new", "toy", "--model", MODEL]) == 2
    assert "--notebook" in capsys.readouterr().err


def test_new_with_a_model_without_revision_is_a_usage_error(dump, tmp_path, capsys):
    assert cli.main(["new", "toy", "--notebook", str(dump), "--model", "openai-community/gpt2",
                     "--out", str(tmp_path / "d")]) == 2
    assert "ORG/NAME@REVISION" in capsys.readouterr().err


def test_share_prints_a_row_per_source(dump, tmp_path, capsys):
    register = tmp_path / "claims.md"
    register.write_text(REGISTER.replace("0.40", "0.41"))  # a number the notebook lacks
    assert cli.main(["new", "--share", "--register", str(register),
                     "--seeds", str(dump.parent)]) == 0
    assert "| toy | toy.txt | 4 | 3 | 3 | 75% |" in capsys.readouterr().out


@pytest.mark.skipif(not SEED.exists(), reason="../shared/seeds/ is not here")
def test_new_drafts_a_seed_with_rows_linked_to_their_lines(tmp_path):
    out = tmp_path / "cot"
    assert cli.main(["new", "cot_draft", "--notebook", str(SEED), "--model",
                     "Qwen/Qwen3-4B-Thinking-2507@768f209d9ea81521153ed38c47d515654e938aea",
                     "--out", str(out)]) == 0
    assert f"[{SEED.name}:560](notebook.html#L560)" in (out / "register.md").read_text()

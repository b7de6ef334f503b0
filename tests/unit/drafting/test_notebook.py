"""harness.drafting.notebook: a notebook's lines, their kinds and their file lines."""
from __future__ import annotations

import json

from harness.drafting.notebook import Kind, classify, read_notebook
from tests.unit.drafting.conftest import NOTEBOOK


def kinds_of(path, *texts):
    lines = read_notebook(path).lines
    return [next(line.kind for line in lines if line.text.strip() == t) for t in texts]


def test_a_dump_marks_code_output_and_prose(dump):
    assert kinds_of(dump, "scores = run(model)", "accuracy 0.850 over 17/20 items",
                    "The baseline is fine, and the model answers most of the items as we "
                    "expected it would.") == [Kind.CODE, Kind.OUTPUT, Kind.PROSE]


def test_a_dump_keeps_the_lines_of_an_open_bracket_as_code():
    assert classify(["model = load(", "    name,", "    dtype=torch.bfloat16,", ")",
                     "loaded the model"]) == [Kind.CODE] * 4 + [Kind.OUTPUT]


def test_a_dump_keeps_a_docstring_as_code():
    assert classify(["def f():", '"""What f does, told in a long sentence of plain words.',
                     "More words of the docstring, which read just like prose would read.",
                     '"""', "return 1"]) == [Kind.CODE] * 5


def test_a_dump_line_is_its_line_in_the_file(dump):
    line = next(x for x in read_notebook(dump).lines if x.text == "peak at layer 1")
    assert dump.read_text().splitlines()[line.line - 1] == "peak at layer 1"


def test_an_ipynb_output_line_is_its_line_in_the_raw_json(notebook):
    line = next(x for x in read_notebook(notebook).lines if x.text == "clean logit diff: +2.006")
    assert '"clean logit diff: +2.006\\n"' in notebook.read_text().splitlines()[line.line - 1]


def test_an_ipynb_written_on_one_line_gives_cell_and_line(tmp_path):
    path = tmp_path / "compact.ipynb"
    path.write_text(json.dumps(NOTEBOOK))
    read = read_notebook(path)
    line = next(x for x in read.lines if x.text == "clean logit diff: +2.006")
    assert read.provenance(line) == "compact.ipynb:cell 2, line 3"


def test_an_ipynb_leaves_stderr_out(notebook):
    assert not [x for x in read_notebook(notebook).lines if "warning" in x.text]


def test_an_ipynb_markdown_heading_is_a_heading(notebook):
    assert [x.heading for x in read_notebook(notebook).lines if x.heading] == ["A toy notebook"]

"""Small notebooks written for the drafting tests: a text dump and a .ipynb, in tmp_path."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

# A dump as a notebook page's text reads: headings end with ¶, code is followed by its output.
DUMP = """Measuring a toy effect¶
This notebook measures a toy effect on a small model and reports what it printed below.
1. Baseline¶
scores = run(model)
print(f"accuracy {acc:.3f} over {k}/{n} items")
accuracy 0.850 over 17/20 items
The baseline is fine, and the model answers most of the items as we expected it would.
2. Sweep¶
for layer in LAYERS:
    print(f"layer {layer}: effect {effect[layer]:.2f} [{lo[layer]:.2f}, {hi[layer]:.2f}]")
layer 0: effect 0.10 [0.05, 0.15]
layer 1: effect 0.40 [0.30, 0.50]
print(f"peak at layer {best}")
peak at layer 1
"""


def ipynb(cells: list[dict]) -> dict:
    """A notebook (nbformat 4) holding `cells`."""
    return {"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}


def code_cell(source: list[str], outputs: list[dict]) -> dict:
    return {"cell_type": "code", "execution_count": 1, "metadata": {}, "outputs": outputs,
            "source": source}


def stdout(lines: list[str], name: str = "stdout") -> dict:
    return {"name": name, "output_type": "stream", "text": lines}


NOTEBOOK = ipynb([
    {"cell_type": "markdown", "metadata": {}, "source": ["# A toy notebook\n"]},
    code_cell(['print(f"clean logit diff: {clean:+.3f}")\n', 'print("done")'],
              [stdout(["clean logit diff: +2.006\n", "done\n"]),
               stdout(["a warning 123\n"], name="stderr")]),
])


@pytest.fixture
def dump(tmp_path: Path) -> Path:
    path = tmp_path / "toy.txt"
    path.write_text(DUMP)
    return path


@pytest.fixture
def notebook(tmp_path: Path) -> Path:
    """The toy .ipynb as nbformat writes it: one source or output line per JSON line."""
    path = tmp_path / "toy.ipynb"
    path.write_text(json.dumps(NOTEBOOK, indent=1))
    return path

"""harness.reporting.seeds: the notebooks beside the page, and each claim's link into them."""
from __future__ import annotations

import pytest

from harness.reporting import seeds

TEXT = "Title\n1. The task¶\nsome text\n6. Inside the loop¶\nmore\n"


def test_a_numbered_heading_gives_its_sections_line():
    assert seeds.section_lines(TEXT) == {"1": 2, "6": 4}


@pytest.fixture
def lines(tmp_path):
    (tmp_path / "seeds-in").mkdir()
    (tmp_path / "seeds-in" / "000.txt").write_text(TEXT)
    (tmp_path / "source").mkdir()
    (tmp_path / "source" / "new.ipynb").write_text(TEXT)
    return seeds.write_pages(tmp_path / "out", {"000.txt": tmp_path / "source",
                                                "new.ipynb": tmp_path / "source",
                                                "missing.txt": tmp_path / "source"},
                             tmp_path / "seeds-in")


def test_a_link_opens_at_its_sections_heading_or_the_first_line(lines):
    assert seeds.href("000.txt", "6", lines) == "seeds/000.txt.html#L4"
    assert seeds.href("000.txt", "code cell", lines) == "seeds/000.txt.html#L1"


def test_a_link_opens_at_the_line_its_provenance_cites(lines):
    assert seeds.href("000.txt", "6", lines, "000.txt:5 (the output)") == "seeds/000.txt.html#L5"


def test_a_line_cited_in_another_notebook_is_not_followed(lines):
    assert seeds.href("000.txt", "6", lines, "other.ipynb:5") == "seeds/000.txt.html#L4"


def test_a_notebook_kept_in_its_sources_folder_gets_a_page(lines, tmp_path):
    assert seeds.href("new.ipynb", "In[8]", lines, "new.ipynb:3") == "seeds/new.ipynb.html#L3"
    assert 'id="L4"' in (tmp_path / "out" / "seeds" / "new.ipynb.html").read_text()


def test_a_notebook_found_nowhere_gets_no_link(lines):
    assert seeds.href("missing.txt", "6", lines) is None


@pytest.mark.skipif(not (seeds.SEEDS / "000_5720c3af84d37566.txt").is_file(),
                    reason="the seed notebooks are not beside the repository (../shared/seeds)")
def test_the_cot_notebooks_section_six_is_found():
    text = (seeds.SEEDS / "000_5720c3af84d37566.txt").read_text()
    assert seeds.section_lines(text)["6"] == text.splitlines().index(
        next(line for line in text.splitlines() if line.startswith("6. "))) + 1

"""harness.reporting.seeds: the notebooks beside the page, and each claim's link into them."""
from __future__ import annotations

import pytest

from harness.reporting import seeds

TEXT = "Title\n1. The task¶\nsome text\n6. Inside the loop¶\nmore\n"


def test_a_numbered_heading_gives_its_sections_line():
    assert seeds.section_lines(TEXT) == {"1": 2, "6": 4}


def test_a_link_opens_at_its_sections_heading_or_the_first_line(tmp_path):
    (tmp_path / "seeds-in").mkdir()
    (tmp_path / "seeds-in" / "000.txt").write_text(TEXT)
    lines = seeds.write_pages(tmp_path / "out", {"000.txt", "missing.txt"}, tmp_path / "seeds-in")
    assert seeds.href("000.txt", "6", lines) == "seeds/000.txt.html#L4"
    assert seeds.href("000.txt", "code cell", lines) == "seeds/000.txt.html#L1"
    assert seeds.href("missing.txt", "6", lines) is None
    assert 'id="L4"' in (tmp_path / "out" / "seeds" / "000.txt.html").read_text()


@pytest.mark.skipif(not (seeds.SEEDS / "000_5720c3af84d37566.txt").is_file(),
                    reason="the seed notebooks are not beside the repository (../shared/seeds)")
def test_the_cot_notebooks_section_six_is_found():
    text = (seeds.SEEDS / "000_5720c3af84d37566.txt").read_text()
    assert seeds.section_lines(text)["6"] == text.splitlines().index(
        next(line for line in text.splitlines() if line.startswith("6. "))) + 1

"""harness.drafting.printed: every printed number, named and grouped into draft claims."""
from __future__ import annotations

from harness.drafting.notebook import read_notebook
from harness.drafting.printed import find_printed


def write(tmp_path, text):
    path = tmp_path / "nb.txt"
    path.write_text(text)
    return find_printed(read_notebook(path))


def groups(numbers):
    found: dict[str, list[str]] = {}
    for p in numbers:
        found.setdefault(p.name, []).append(p.text)
    return found


def test_a_slot_printed_in_a_loop_is_one_group(tmp_path):
    found = write(tmp_path, "for i in range(3):\n"
                            '    print(f"[{i}] wrote {wrote[i]} tokens")\n'
                            "[0] wrote 12 tokens\n[1] wrote 15 tokens\n[2] wrote 9 tokens\n")
    wrote = [p for p in found if p.name == "wrote"]
    assert [(p.text, p.group) for p in wrote] == [(t, wrote[0].group) for t in ("12", "15", "9")]


def test_a_loop_over_named_conditions_is_a_group_per_condition(tmp_path):
    found = write(tmp_path, "for name in NAMES:\n"
                            '    print(f"{name:<12} peak IIA {peak:.3f} at layer {layer}")\n'
                            "reversed peak IIA 0.775 at layer 15\n"
                            "control peak IIA 0.000 at layer 0\n")
    assert set(groups(found)) == {"peak reversed", "layer reversed", "peak control",
                                  "layer control"}


def test_a_number_typed_into_the_print_is_not_drafted(tmp_path):
    found = write(tmp_path, 'print(f"top 5 heads: {heads}")\ntop 5 heads: 31.7\n')
    assert [p.text for p in found] == ["31.7"]


def test_a_markdown_table_names_a_cell_by_its_column_and_row(tmp_path):
    found = write(tmp_path, "show(rows)\n| context | loss |\n|---|---|\n| H | 0.011 |\n")
    assert [p.name for p in found] == ["loss (context H)"]


def test_an_aligned_table_column_is_one_group(tmp_path):
    found = write(tmp_path, "print(curve.to_string(index=False))\n"
                            " layer  correct\n     0     0.35\n     1     0.60\n")
    assert groups(found) == {"correct by layer": ["0.35", "0.60"]}


def test_prose_that_restates_a_printed_value_is_not_drafted_again(tmp_path):
    found = write(tmp_path, 'print(f"accuracy {acc:.3f}")\naccuracy 0.745\n'
                            "The model's accuracy is 0.745, well above the chance level of "
                            "these items, and its other rate is 0.52 here.\n")
    assert [(p.text, p.origin) for p in found] == [("0.745", "output"), ("0.52", "prose")]

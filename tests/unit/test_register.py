"""A register's markdown read into rows, and a source's reading of its rows."""
from __future__ import annotations

import pytest

from harness.register import (READING_FILE, REGISTER_FILE, RegisterReading, RegisterRow,
                              parse_added, parse_register, read_reading, read_register)

TABLE = """## Source `demo`

Some prose with a | bar that is no row.

| id | kind | § | what | published |
|---|---|---|---|---|
| demo.first | anchor [cpu] | 1 | the `<\\|end\\|>` token | 42 |
| demo.second | claim | 2 | a rate | 0.35 (7/20) |
"""
ADDED = """## Checks the suite adds

| id | added because |
|---|---|
| demo.extra | the suite's own check |
"""


def test_a_row_reads_its_id_kind_mark_section_what_and_published():
    assert parse_register(TABLE)[0] == RegisterRow(
        id="demo.first", kind="anchor", mark="cpu", section="1", what="the `<|end|>` token",
        published="42")


def test_only_table_rows_under_a_header_are_rows():
    assert [r.id for r in parse_register(TABLE)] == ["demo.first", "demo.second"]


def test_a_table_without_a_section_column_gives_an_empty_section():
    rows = parse_register("| id | kind | what | published |\n|---|---|---|---|\n"
                          "| demo.third | measurement | a count | not stated |\n")
    assert rows[0].section == "" and rows[0].kind == "measurement"


def test_a_kind_outside_the_three_is_refused():
    with pytest.raises(ValueError, match="anchor, claim or measurement"):
        parse_register(TABLE.replace("| claim |", "| finding |"))


def test_a_row_belongs_to_the_source_its_id_names():
    assert parse_register(TABLE)[1].source_name == "demo"


def test_the_checks_the_suite_adds_are_no_register_rows():
    assert [r.id for r in parse_register(TABLE + ADDED)] == ["demo.first", "demo.second"]


def test_the_checks_the_suite_adds_are_read_with_their_reasons():
    assert parse_added(TABLE + ADDED) == {"demo.extra": "the suite's own check"}


def test_a_table_of_another_header_is_refused():
    with pytest.raises(ValueError, match="header"):
        parse_register("| id | why |\n|---|---|\n| demo.x | y |\n")


def register(folder, text=TABLE):
    (folder / REGISTER_FILE).write_text(text)
    return folder


OWN = """| id | kind | § | what |
|---|---|---|---|
| demo.first | anchor [cpu] | 1 | the `<\\|end\\|>` token |
"""


def test_a_sources_rows_are_read_without_published_values(tmp_path):
    assert read_register(register(tmp_path, OWN + ADDED)) == (RegisterRow(
        id="demo.first", kind="anchor", mark="cpu", section="1", what="the `<|end|>` token"),)


def test_a_sources_rows_that_print_published_values_are_refused(tmp_path):
    with pytest.raises(ValueError, match="print no published values"):
        read_register(register(tmp_path, OWN + TABLE))


def test_a_folder_without_a_reading_departs_from_nothing(tmp_path):
    assert read_reading(register(tmp_path)) == RegisterReading()


def test_a_reading_gives_added_checks_design_keys_and_unprinted_keys(tmp_path):
    register(tmp_path, TABLE + ADDED)
    (tmp_path / READING_FILE).write_text(
        '[design]\n"demo.second" = ["fractions"]\n'
        '[unprinted."demo.second"]\nn = "the header\'s sample count"\n')
    reading = read_reading(tmp_path)
    assert reading.unregistered == {"demo.extra": "the suite's own check"}
    assert reading.design == {"demo.second": ("fractions",)}
    assert reading.unprinted == {"demo.second": {"n": "the header's sample count"}}


def test_an_added_check_without_a_reason_is_refused(tmp_path):
    register(tmp_path, TABLE + ADDED.replace("the suite's own check", " "))
    with pytest.raises(ValueError, match="states its reason"):
        read_reading(tmp_path)


def test_a_departure_without_a_reason_is_refused(tmp_path):
    (register(tmp_path) / READING_FILE).write_text('[unprinted."demo.second"]\nn = " "\n')
    with pytest.raises(ValueError, match="states its reason"):
        read_reading(tmp_path)


def test_an_unknown_table_is_refused(tmp_path):
    (register(tmp_path) / READING_FILE).write_text('[unregistered]\n"demo.second" = "why"\n')
    with pytest.raises(ValueError, match="unknown tables"):
        read_reading(tmp_path)

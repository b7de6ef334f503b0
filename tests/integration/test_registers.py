"""A source is its folder (issue 38): each keeps its register rows and its notebook's sha256 there;
the four seeds' rows are the shared register's, less the values it prints, which their claims
alone declare (issue 46); every row has a claim and every claim a row or a declared reason; and
each claim's published values are what the shared register's row prints
(harness/register_values.py states the normalisation)."""
from __future__ import annotations

import dataclasses
import hashlib
import re

import pytest

from harness.register import REGISTER_FILE, parse_register, read_reading, rows_of
from harness.register_values import unprinted, unprinted_values
from harness.registry import registered
from harness.reporting.seeds import SEEDS
from tests.paths import SHARED_REGISTER
from tests.pinned import declared

SOURCES = sorted(registered().values(), key=lambda s: s.name)
CLAIMS = {spec.id: spec for _, spec in declared()}


ROWS = {claim_id: row for src in SOURCES for claim_id, row in rows_of(src.name).items()}
READINGS = {src.name: read_reading(src.folder) for src in SOURCES}
REGISTERED = sorted(set(CLAIMS) & set(ROWS))
NO_SPEC = (f"{SHARED_REGISTER} is absent: the shared register sits beside the repository, in "
           "../shared, which this checkout lacks")
SPEC = ({r.id: r for r in parse_register(SHARED_REGISTER.read_text())}
        if SHARED_REGISTER.is_file() else {})
# The claims the specification prints values for; without it, one skip that says so.
SPECIFIED = sorted(set(CLAIMS) & set(SPEC)) or [pytest.param(None, marks=pytest.mark.skip(NO_SPEC))]


@pytest.mark.parametrize("src", SOURCES, ids=lambda s: s.name)
def test_the_source_keeps_its_register_rows_in_its_folder(src):
    rows = rows_of(src.name).values()
    assert rows, f"{src.folder / REGISTER_FILE} holds no register rows"
    assert {r.source_name for r in rows} == {src.name}


def test_the_seeds_registers_are_the_shared_register_less_its_values():
    if not SPEC:
        pytest.skip(NO_SPEC)
    seeds = {row.source_name for row in SPEC.values()}
    assert {i: r for i, r in ROWS.items() if r.source_name in seeds} == {
        i: dataclasses.replace(r, published="") for i, r in SPEC.items()}


def test_the_shared_register_prints_a_value_in_every_row():
    if not SPEC:
        pytest.skip(NO_SPEC)
    assert [i for i, r in SPEC.items() if not r.published.strip()] == []


@pytest.mark.parametrize("src", SOURCES, ids=lambda s: s.name)
def test_the_source_pins_its_notebook_text(src):
    assert re.fullmatch(r"[0-9a-f]{64}", src.seed_sha256), \
        f"{src.name} declares no seed_sha256 for {src.seed_file}"


@pytest.mark.parametrize("src", SOURCES, ids=lambda s: s.name)
def test_the_notebook_text_is_the_one_the_source_pins(src):
    path = SEEDS / src.seed_file
    if not path.is_file():
        pytest.skip(f"{path} is absent: the seed notebooks sit beside the repository, in "
                    "../shared/seeds, which this checkout lacks")
    assert hashlib.sha256(path.read_bytes()).hexdigest() == src.seed_sha256, \
        f"{path} is not the text {src.name} pins"


def test_every_register_row_has_a_claim():
    assert sorted(set(ROWS) - set(CLAIMS)) == []


def test_every_claim_has_a_register_row_or_a_declared_reason():
    reasons = {i for reading in READINGS.values() for i in reading.unregistered}
    assert sorted(set(CLAIMS) - set(ROWS) - reasons) == []


def test_a_claim_declared_unregistered_is_a_claim_without_a_row():
    reasons = {i for reading in READINGS.values() for i in reading.unregistered}
    assert sorted(reasons & set(ROWS)) == [] and sorted(reasons - set(CLAIMS)) == []


@pytest.mark.parametrize("claim_id", REGISTERED)
def test_the_claim_has_its_register_rows_kind_and_section(claim_id):
    spec, row = CLAIMS[claim_id], ROWS[claim_id]
    assert spec.kind == row.kind
    assert spec.section == row.section or not row.section


@pytest.mark.parametrize("claim_id", SPECIFIED)
def test_the_claims_published_values_are_what_the_shared_register_prints(claim_id):
    spec, row = CLAIMS[claim_id], SPEC[claim_id]
    found = unprinted_values(claim_id, spec.published, row, READINGS[spec.source_name])
    assert found == {}, (f"{claim_id} declares values its register row does not print: "
                         f"{ {k: [str(v) for v in vs] for k, vs in found.items()} }; the row's "
                         f"what: {row.what!r}; published: {row.published!r}")


@pytest.mark.parametrize("src", SOURCES, ids=lambda s: s.name)
def test_each_key_the_source_reads_apart_is_a_published_key(src):
    reading = READINGS[src.name]
    named = [(i, k) for i, keys in [*reading.design.items(), *reading.unprinted.items()]
             for k in keys]
    assert [(i, k) for i, k in named if i not in ROWS or k not in CLAIMS[i].published] == []


@pytest.mark.parametrize("src", SOURCES, ids=lambda s: s.name)
def test_each_value_declared_unprinted_is_unprinted(src):
    if not SPEC:
        pytest.skip(NO_SPEC)
    declared_unprinted = READINGS[src.name].unprinted
    printed = [(i, k) for i, keys in declared_unprinted.items() for k in keys
               if i in SPEC and k in CLAIMS[i].published
               and not unprinted(CLAIMS[i].published[k], SPEC[i].published)]
    assert printed == [], "the row prints these: check them instead of declaring them unprinted"

"""A claim declared whole runs as its test (harness/claim_tests.py), and every claim test is
named by its id, as its snapshot is (harness/plugin/readout_check.py)."""
from __future__ import annotations

from tests.unit.plugin.claim_runs import entries, run

pytest_plugins = ["pytester"]

FIXTURES = '''
@pytest.fixture
def cot_one():
    return 1


@pytest.fixture
def cot_two():
    return 2


def first_of(a, b) -> Value:
    return {"v": a}
'''


def test_a_declared_claim_judges_its_readout_of_the_steps_it_reads(pytester):
    body = FIXTURES + 'test_declared = finding("declared", reads=("cot_one", "cot_two"), ' \
                      'readout=first_of)\n'
    entry = entries(pytester, body)["cot.declared"]
    assert (entry["verdict"], entry["measured"]) == ("replicated", {"v": 1})


def test_the_steps_it_reads_are_passed_in_the_order_declared(pytester):
    body = FIXTURES + 'test_declared = finding("declared", reads=("cot_two", "cot_one"), ' \
                      'readout=first_of)\n'
    entry = entries(pytester, body)["cot.declared"]
    assert (entry["verdict"], entry["measured"]) == ("not replicated", {"v": 2})


def test_a_test_named_other_than_its_id_stops_the_collection(pytester):
    body = '@finding("named")\ndef test_misnamed(judge):\n    judge(measured(1))\n'
    result = run(pytester, body, "--collect-only", "--no-update")
    assert "cot.named: its test is named test_misnamed, not test_named" in result.stderr.str()
    assert result.ret != 0


def test_a_declaration_bound_to_another_name_stops_the_collection(pytester):
    body = FIXTURES + 'test_other = finding("declared", reads="cot_one", ' \
                      'readout=lambda a: {"v": a})\n'
    result = run(pytester, body, "--collect-only", "--no-update")
    assert "cot.declared: its test is named test_other, not test_declared" in result.stderr.str()


def test_a_declared_claims_skip_is_reported_where_it_is_declared(pytester):
    body = '\n\n@pytest.fixture\ndef cot_skips():\n    pytest.skip("no tokenizer here")\n\n\n' \
           'test_skipped = finding("skipped", reads="cot_skips", readout=measured)\n'
    result = run(pytester, body, "-rs")
    line = (pytester.path / "test_claims.py").read_text().splitlines().index(
        'test_skipped = finding("skipped", reads="cot_skips", readout=measured)') + 1
    assert f"SKIPPED [1] test_claims.py:{line}: no tokenizer here" in result.stdout.str()

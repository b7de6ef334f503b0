"""Throw-away claim files for the plugin's tests, and readers for what a pytester run wrote."""
from __future__ import annotations

import json

import pytest

ANCHOR_FAILS = '''
from typing import TypedDict

from harness.claims import claim
from harness.criteria import Exact


class Value(TypedDict):
    v: int


def broken_machinery() -> Value:
    return {"v": 2}  # the machinery's check measured what it must not

@claim("cot.fake-claim", kind="measurement", section="2", needs="cpu", statement="s",
       published={"v": 1}, provenance="p", criterion=Exact("v"), requires=["cot.fake-anchor"])
def test_fake_claim(judge):
    judge({"v": 1})

@claim("cot.fake-anchor", kind="anchor", section="1", needs="cpu", statement="s",
       published={"v": 1}, provenance="p", criterion=Exact("v"))
def test_fake_anchor(judge):
    judge(broken_machinery())

@claim("cot.other-anchor", kind="anchor", section="1", needs="cpu", statement="s",
       published={"v": 1}, provenance="p", criterion=Exact("v"))
def test_other_anchor(judge):
    judge({"v": 1})

@claim("cot.free-claim", kind="measurement", section="2", needs="cpu", statement="s",
       published={"v": 1}, provenance="p", criterion=Exact("v"), requires=["cot.other-anchor"])
def test_free_claim(judge):
    judge({"v": 1})
'''

ANCHOR_CHAIN = '''
from harness.claims import claim
from harness.criteria import Exact

@claim("cot.upper-anchor", kind="anchor", section="1", needs="cpu", statement="s",
       published={}, provenance="p", criterion=Exact("v"), requires=["cot.base-anchor"])
def test_upper_anchor(judge):
    judge({"v": 1})

@claim("cot.chained-claim", kind="measurement", section="2", needs="cpu", statement="s",
       published={}, provenance="p", criterion=Exact("v"), requires=["cot.upper-anchor"])
def test_chained_claim(judge):
    judge({"v": 1})

@claim("cot.base-anchor", kind="anchor", section="1", needs="cpu", statement="s",
       published={}, provenance="p", criterion=Exact("v"))
def test_base_anchor(judge):
    judge({"v": 1})
'''

PUBLISHED_ONLY = '''
from harness.claims import claim
from harness.criteria import Exact

@claim("cot.needs-gpu", kind="claim", section="1", needs="gpu", statement="s",
       published={"v": 1}, provenance="p", criterion=Exact("v"))
def test_needs_gpu(judge):
    judge({"v": 1})

@claim("lookback.needs-tokenizer", kind="anchor", section="1", needs="hub", statement="s",
       published={"v": 1}, provenance="p", criterion=Exact("v"))
def test_needs_tokenizer(judge):
    judge({"v": 1})
'''

MEASURES = '''
import os
from harness.claims import claim
from harness.snapshots import Tolerance
from harness.criteria import Exact

@claim("cot.measured", kind="measurement", section="3", needs="cpu", statement="s",
       published={"v": 0.5}, provenance="notebook", criterion=Exact("v"))
def test_measured(judge):
    judge({"v": float(os.environ.get("MEASURED", "0.5")), "n": 20})
'''

INTERRUPTED = MEASURES + '''

def test_interrupt():
    import os, signal
    signal.signal(signal.SIGINT, signal.default_int_handler)  # even where the run ignores SIGINT
    os.kill(os.getpid(), signal.SIGINT)


def test_never_reached():
    pass
'''


def results(pytester: pytest.Pytester) -> dict:
    return json.loads((pytester.path / "reports" / "results.json").read_text())


def verdicts(pytester: pytest.Pytester) -> dict[str, tuple[str, str]]:
    return {t["id"]: (t["verdict"], t["message"]) for t in results(pytester)["tests"]}


def pin_published_snapshot(tester: pytest.Pytester, value: float) -> None:
    """A published snapshot as a measured run writes it."""
    path = tester.path / "snapshots" / "published" / "cot" / "test_measured.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"id": "cot.measured", "profile": "published",
                                "provenance": "measured by interp-claims on the published profile",
                                "measured": {"v": value, "n": 20}}))


def with_tolerance(source: str, tol: str) -> str:
    return source.replace('criterion=Exact("v"))', f'criterion=Exact("v"), tolerance={tol})')


def judged_on_n(source: str) -> str:
    """The claim judged on its count, so its float is free to drift."""
    return source.replace('Exact("v")', 'Exact("n")').replace('published={"v": 0.5}',
                                                              'published={"v": 0.5, "n": 20}')


def entry(tester: pytest.Pytester) -> dict:
    return results(tester)["tests"][0]

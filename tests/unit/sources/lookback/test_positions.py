"""Seed 003's intervention-token anchor (harness/sources/lookback/positions.py), tiny tokenizer."""
from __future__ import annotations

from dataclasses import replace

import pytest

from harness.sources.lookback import positions
from harness.sources.lookback.task import build_source, tokenizer_corpus
from harness.sources.lookback.tokenizer import lookback_tokenizer


def test_every_binding_source_and_answer_prompt_holds_its_entities():
    t = positions.intervention_tokens(lookback_tokenizer(tokenizer_corpus()), "")
    assert t.failures == []
    assert (t.prompts, t.positions) == (2 * (120 + 120 + 140), 13 * 760)


def test_a_prompt_with_its_entities_elsewhere_is_named(monkeypatch: pytest.MonkeyPatch):
    rows = build_source(instruction="")
    c, o, s = rows[0].cf_entities
    rows[0] = replace(rows[0], cf_entities=(c[::-1], o, s))
    rows[1] = replace(rows[1], clean=rows[1].clean.replace(" opaque", " very opaque", 1))
    monkeypatch.setattr(positions, "build_source", lambda **kw: rows)
    t = positions.intervention_tokens(lookback_tokenizer(tokenizer_corpus()), "")
    assert t.failures == ["source:0:cf:names", "source:1:clean:length"]

"""The TransformerLens cross-check converts the weights our run uses, not the hub's current
"gpt2" (issue 26)."""
from __future__ import annotations

from types import SimpleNamespace

import pytest

from harness.sources.patching import crosscheck


class Loaded(Exception):
    """Raised by the stand-in loader once it has seen what it was asked to load."""


def test_transformerlens_is_handed_our_model_and_tokenizer():
    seen = {}

    def load(name, **kwargs):
        seen.update(kwargs, name=name)
        raise Loaded

    tl = SimpleNamespace(HookedTransformer=SimpleNamespace(from_pretrained_no_processing=load))
    model = SimpleNamespace(hf=object(), tok=object())
    with pytest.raises(Loaded):
        crosscheck.transformerlens_crosscheck(tl, model, None, None, 0, "", "")
    assert seen["hf_model"] is model.hf and seen["tokenizer"] is model.tok

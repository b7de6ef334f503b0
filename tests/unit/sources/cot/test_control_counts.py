"""cot's controls on published bf16 allow the one flipped problem its findings allow; on the
organisms (float32) every case must hold (issue 26)."""
from __future__ import annotations

import pytest

from claims.cot import test_anchors
from harness.claims import spec_of

CONTROLS = {"test_resplice_last_control": ("control_correct",),
            "test_verbatim_block_control": ("control_correct",),
            "test_self_patch": ("reproduced", "unpatched")}


@pytest.mark.parametrize("name", sorted(CONTROLS))
def test_one_flipped_case_keeps_the_published_anchor(name):
    spec = spec_of(getattr(test_anchors, name))
    n = spec.published["n"]
    one_flip = {key: n - 1 for key in CONTROLS[name]} | {"n": n}
    two_flips = {key: n - 2 for key in CONTROLS[name]} | {"n": n}
    assert spec.criterion.judge(one_flip, spec.published).ok
    assert not spec.criterion.judge(two_flips, spec.published).ok


@pytest.mark.parametrize("name", sorted(CONTROLS))
def test_on_the_organisms_every_case_must_hold(name):
    spec = spec_of(getattr(test_anchors, name))
    assert spec.holds is not None and spec.holds.behavioural
    every = {key: 20 for key in CONTROLS[name]} | {"n": 20}
    assert spec.holds.criterion.judge(every, spec.published).ok
    assert not spec.holds.criterion.judge(every | {CONTROLS[name][0]: 19}, spec.published).ok

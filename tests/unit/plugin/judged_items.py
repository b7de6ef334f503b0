"""Stand-ins for a pytest item of a claim test and its config, holding the plugin's real session
and test state, for the judging code that reads no more of them; and claim declarations."""
from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

from harness.claim_tests import test_name
from harness.claims import ClaimSpec, Kind, Needs
from harness.criteria import Exact
from harness.models.backends import Backend
from harness.plugin.state import SESSION, SPEC, ClaimsSession, TestState
from harness.profiles import Mode, Profile
from harness.registry import get_profile


def declared(claim_id: str = "cot.x", kind: str = "measurement", needs: str = "cpu",
             **fields: Any) -> ClaimSpec:
    """A claim's declaration: by default a model-free finding publishing v = 1, judged exactly."""
    return ClaimSpec(**{"id": claim_id, "kind": Kind(kind), "section": "1", "statement": "s",
                        "published": {"v": 1}, "provenance": "p", "criterion": Exact("v"),
                        "needs": Needs(needs), **fields})


def item(spec: ClaimSpec, profile: str | Profile = "micro", mode: Mode = Mode.FAITHFUL,
         fixturenames: tuple[str, ...] = (), **options: Any) -> SimpleNamespace:
    """A test of `spec` in a session on `profile` (micro pins no snapshot), given `options`."""
    session = ClaimsSession(profile=get_profile(profile) if isinstance(profile, str) else profile,
                            mode=mode, backend=Backend.LOCAL, retarget_reasons={})
    config = SimpleNamespace(stash={SESSION: session}, rootpath=Path("/nowhere"),
                             getoption=lambda name, default=None: options.get(name, default))
    name = test_name(spec.id)
    return SimpleNamespace(config=config, stash={SPEC: spec},
                           nodeid=f"claims/test_x.py::{name}", name=name,
                           fixturenames=fixturenames)


def state(test: SimpleNamespace) -> TestState:
    """The test's state, as its session holds it."""
    return test.config.stash[SESSION].test_state(test.nodeid)

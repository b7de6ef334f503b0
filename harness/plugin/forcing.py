"""Forced rows: on a profile whose rules force them (the rehearsal's random weights), a step whose
behavioural filter keeps nothing takes the first rows as if they had passed, so every later step
runs at its shapes; each test that reads them says so in its record."""
from __future__ import annotations

from typing import Callable, Sequence, TypeVar

import pytest

from harness.declared_steps import offered_rows
from harness.plugin.state import claims_session


T = TypeVar("T")


def passed_or_forced(request: pytest.FixtureRequest, kept: Sequence[T],
                     offered: Sequence[T] | Callable[[], Sequence[T]], why_none: str,
                     how: str = "") -> list[T]:
    """`kept` when the filter kept any; else the profile's forced rows, the first of `offered`
    (a callable is called only then), noted under the requesting fixture with `how` they were
    made; else a skip saying `why_none`."""
    if kept:
        return list(kept)
    count = claims_session(request.config).profile.rules.forced_rows
    rows = offered_rows(offered, count)
    if not rows:
        pytest.skip(why_none)
    taken = list(rows[:count])
    session = claims_session(request.config)
    session.force(request.fixturename,
                  f"{request.fixturename}: {why_none}; the first {len(taken)} of {len(rows)} taken "
                  f"as if they had passed{f' ({how})' if how else ''}, on the "
                  f"{session.profile.name} profile")
    return taken


def forced_notes(item: pytest.Item) -> list[str]:
    """What the fixtures this test reads forced past a behavioural filter (none: [])."""
    return claims_session(item.config).forced_notes(getattr(item, "fixturenames", ()))

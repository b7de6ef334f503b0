"""Known-answer studies derived from the claims that declare them (issue 46 §1): each claim with a
`KnownAnswer` runs its own test body on the declared step graph (`anchor_checks.measured_by`), and
its known answer judges what it measured against the organism's planted block."""
from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import Any, Callable

from harness.anchor_checks import claims_tests, measured_by
from harness.claims import ClaimSpec
from harness.criteria.planted import known_answer_checks
from harness.declared_steps import NothingToRun, Resolved


def declaring(folder: Path) -> dict[str, tuple[Callable[..., Any], ClaimSpec]]:
    """Claim id -> its test and declaration, for each claim in `folder` that declares a known
    answer (its modules executed afresh)."""
    return {claim_id: (fn, spec) for claim_id, (fn, spec) in claims_tests(folder).items()
            if spec.known_answer is not None}


def studies(folder: Path, run: Resolved) -> dict[str, Callable[[], dict[str, Any]]]:
    """Claim id -> what its own test body measures on `run`, for each claim in `folder` that
    declares a known answer."""
    return _studies(declaring(folder), run)


def checks(folder: Path, run: Resolved, planted: dict[str, Any]
           ) -> dict[str, Callable[[], list[str]]]:
    """For each claim in `folder` that declares a known answer, a check (no failures: an empty
    list) that runs its study on `run` and judges the result against `planted`; a study left
    nothing to run (a site its rule could not choose) missed what was planted."""
    tests = declaring(folder)
    known = {claim_id: spec.known_answer for claim_id, (_, spec) in tests.items()}
    found = known_answer_checks(known, _studies(tests, run), planted)  # in `known`'s order
    return {name: _missed_without_a_run(check, answer.planted)
            for (name, check), answer in zip(found.items(), known.values())}


def _missed_without_a_run(check: Callable[[], list[str]], planted: str
                          ) -> Callable[[], list[str]]:
    def checked() -> list[str]:
        try:
            return check()
        except NothingToRun as reason:
            return [f"missed the planted {planted}: nothing to run: {reason}"]
    return checked


def _studies(tests: dict[str, tuple[Callable[..., Any], ClaimSpec]], run: Resolved
             ) -> dict[str, Callable[[], dict[str, Any]]]:
    return {claim_id: partial(measured_by, fn, spec, run) for claim_id, (fn, spec) in tests.items()}

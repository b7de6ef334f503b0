"""A small but complete run record: a failing anchor, the claim it blocks, and a curve claim."""
from __future__ import annotations

from typing import Any


def entry(id: str, kind: str, verdict: str, *, message: str = "", requires: list[str] = (),
          measured: Any = None, published: Any = None, snapshot: str | None = "exact") -> dict:
    return {"nodeid": f"claims/test_x.py::test_{id}", "id": id, "kind": kind,
            "source": id.split(".")[0], "verdict": verdict, "outcome": "passed", "message": message,
            "measured": measured, "published": published or {}, "provenance": "notebook",
            "criterion": "c", "criterion_check": None, "snapshot": snapshot,
            "drift": None if snapshot is None else "no drift", "drift_detail": [],
            "tolerance": None,
            "requires": list(requires), "decisions": [], "statement": f"statement of {id}",
            "section": "2", "needs": "gpu", "duration": 0.1, "mode": "faithful"}


def results(profile: str = "tiny", started: str = "2026-11-30T06:00:00+00:00") -> dict[str, Any]:
    early_pub = {"fractions": [0.0, 0.2, 0.4, 0.6, 0.8, 1.0],
                 "correct_rate": [0.35, 0.25, 0.6, 0.95, 1.0, 1.0], "changed_by_cot": 13, "n": 20}
    early_meas = {"fractions": early_pub["fractions"], "correct_rate": [0, 0, 0.1, 0.5, 0.9, 1.0],
                  "changed_by_cot": 20, "n": 20}
    tests = [
        entry("cot.verbatim-block-control", "anchor", "not replicated",
              message="AssertionError: the machinery is broken"),
        entry("cot.full-corruption", "claim", "blocked", requires=["cot.verbatim-block-control"],
              message="blocked by cot.verbatim-block-control: AssertionError: the machinery is broken",
              snapshot=None),
        entry("cot.early-answering", "claim", "not applicable", measured=early_meas,
              published=early_pub),
    ]
    tests[2]["headline"] = {"text": "forced correct {correct_rate[0]:.2f} with 0% kept",
                            "measured": "forced correct 0.00 with 0% kept",
                            "published": "forced correct 0.35 with 0% kept"}
    counts: dict[str, dict[str, int]] = {}
    for t in tests:
        for key in (t["source"], "all"):
            counts.setdefault(key, {}).setdefault(t["verdict"], 0)
            counts[key][t["verdict"]] += 1
    return {"schema": 3, "counts": counts, "tests": tests,
            "run": {"completed": True, "exit_status": 0, "interrupted": False, "not_run": []},
            "environment": {
        "profile": profile, "mode": "faithful", "python": "3.11", "torch": "2.13.0", "transformers": "5.24.0",
        "nnsight": "0.8.1", "device": "cpu", "cuda": None, "commit": "abc", "started": started,
        "models": {}, "duration_s": 1.0}}

"""Small but complete run records: a failing anchor, the claim it blocks, and a curve claim
(`results`); every verdict each kind can end with, and every drift state (`every_verdict`)."""
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
    tests[2]["sensitivity"] = [{"key": "correct_rate (every point)", "words": (
        "correct_rate (every point): detects a fall of 0.12 or a rise of 0.0367 or more at n=20")}]
    tests[2]["null_check"] = {"accepts_null": False, "null": {"changed_by_cot": 0},
                              "detail": "changed_by_cot = 0 (truncating changes no answer)"}
    tests[2]["headline"] = {"text": "forced correct {correct_rate[0]:.2f} with 0% kept",
                            "measured": "forced correct 0.00 with 0% kept",
                            "published": "forced correct 0.35 with 0% kept"}
    return record(tests, profile, started)


def counts(tests: list[dict]) -> dict[str, dict[str, int]]:
    """Tests per verdict, per source and over all, as results.json counts them."""
    found: dict[str, dict[str, int]] = {}
    for t in tests:
        for key in (t["source"], "all"):
            found.setdefault(key, {}).setdefault(t["verdict"], 0)
            found[key][t["verdict"]] += 1
    return found


def record(tests: list[dict], profile: str = "tiny",
           started: str = "2026-11-30T06:00:00+00:00") -> dict[str, Any]:
    """A complete run's results.json made of `tests`."""
    return {"schema": 3, "counts": counts(tests), "tests": tests,
            "run": {"completed": True, "exit_status": 0, "interrupted": False, "not_run": []},
            "environment": {
        "profile": profile, "mode": "faithful", "python": "3.11", "torch": "2.13.0", "transformers": "5.24.0",
        "nnsight": "0.8.1", "device": "cpu", "cuda": None, "commit": "abc", "started": started,
        "models": {}, "duration_s": 1.0}}


# The verdicts each kind can end with (harness.verdicts.verdict_for): an anchor's checks fail as
# "anchor failed", never "not replicated"; only a study recovers or misses a planted answer.
ANCHOR_VERDICTS = ("replicated", "anchor failed", "held", "blocked", "skipped", "error")
FINDING_VERDICTS = ("replicated", "inconclusive", "not replicated", "recovered", "missed", "blocked",
                    "not applicable", "skipped", "error")
# Each drift state with the snapshot comparison that gives it (None: never compared).
DRIFTS = ((None, None), ("no drift", "exact"), ("drifted", "outside"), ("unpinned", "new"))
ABSENT_ANCHOR = "anchors.not-in-this-run"


def every_verdict(profile: str = "tiny") -> dict[str, Any]:
    """A run with an anchor of every anchor verdict and a finding (claim and measurement) of
    every finding verdict, in two sources; each anchor is required by a finding (one anchor by
    another), one finding requires an anchor this run lacks, and the drift states take turns."""
    anchors = [entry(f"anchors.{v.replace(' ', '-')}", "anchor", v, message=f"the anchor {v}")
               for v in ANCHOR_VERDICTS]
    anchors[ANCHOR_VERDICTS.index("blocked")]["requires"] = [anchors[1]["id"]]
    findings = [entry(f"{source}.{v.replace(' ', '-')}", kind, v, message=f"the finding {v}",
                      requires=[anchors[n % len(anchors)]["id"]])
                for source, kind in (("findings", "claim"), ("measures", "measurement"))
                for n, v in enumerate(FINDING_VERDICTS)]
    findings[0]["requires"].append(ABSENT_ANCHOR)
    tests = anchors + findings
    for n, t in enumerate(tests):
        t["drift"], t["snapshot"] = DRIFTS[n % len(DRIFTS)]
        t["drift_detail"] = ["x moved by 0.2"] if t["drift"] == "drifted" else []
    return record(tests, profile)


def badges(data: dict[str, Any]) -> dict[str, tuple[str, list[str]]]:
    """What each row's badges must read, from results.json alone: the entry's verdict, and for
    each anchor it requires "<anchor>: <that anchor's own verdict>" ("absent" where not run)."""
    verdicts = {t["id"]: t["verdict"] for t in data["tests"]}
    return {t["id"]: (t["verdict"], [f"{a}: {verdicts.get(a, 'absent')}" for a in t["requires"]])
            for t in data["tests"]}

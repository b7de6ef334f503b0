"""python -m harness.reporting.report reports/results.json: the self-contained claim-status page."""
from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

import jinja2

from harness.reporting import seeds
from harness.reporting import history as run_history
from harness.reporting.changes import what_changed
from harness.reporting.figures import figure_for
from harness.reporting.record import Entry, RunRecord, read_record
from harness.reporting.terminal import banner
from harness.registry import registered
from harness.verdicts import Verdict

TEMPLATE = Path(__file__).resolve().parent / "templates" / "claims.html.j2"


def _text(value: Any) -> str:
    if value is None:
        return "—"
    text = json.dumps(value, separators=(", ", ": "))
    return text if len(text) <= 1500 else text[:1500] + " …"


def _cells(hist: run_history.History, claim_id: str) -> list[dict[str, str]]:
    cells = []
    for name, verdict, measured, partial in hist.verdicts(claim_id):
        summary = json.dumps(measured)[:300] if measured is not None else "not run"
        run = f"{name} (partial run)" if partial else name
        cells.append({"verdict": verdict or "absent", "partial": partial,
                      "title": f"{run}: {verdict or 'absent'} — {summary}"})
    return cells


def _headline(e: Entry) -> str:
    """The row's one line of numbers: measured, then published in brackets (older records,
    without a headline, fall back to nothing)."""
    h = e.headline or {}
    measured, published = h.get("measured"), h.get("published")
    if measured and published and published != measured:
        return f"{measured} (published: {published})"
    if measured:
        return measured
    if published:
        return f"not measured (published: {published})"
    return "not measured" if h.get("text") else ""


def folded(anchors: list[dict[str, str]]) -> str:
    """A finding's required anchors as one line: "14 anchors held", then the others named by
    verdict ("; anchor failed: cot.a; blocked: cot.b"); "" where it requires none."""
    if not anchors:
        return ""
    held = [a for a in anchors if a["verdict"] in ("held", "replicated")]
    others: dict[str, list[str]] = {}
    for a in anchors:
        if a not in held:
            others.setdefault(a["verdict"], []).append(a["id"])
    return "; ".join([f"{len(held)} of {len(anchors)} anchors held",
                      *(f"{v}: {', '.join(ids)}" for v, ids in others.items())])


def render(record: RunRecord, hist: run_history.History,
           canary: dict[str, Any] | None = None,
           seed_lines: dict[str, dict[str, int]] | None = None) -> str:
    """The page for one run record and its history (and the upgrade canary's comparison, if any);
    `seed_lines` names the notebooks written beside it (harness.reporting.seeds)."""
    by_id = {e.id: e for e in record.tests}
    plain = {e.id: e.to_json() for e in record.tests}  # what figures read, as results.json has it
    sections = []
    for name in sorted({e.source for e in record.tests}):
        source = registered().get(name)
        rows, figures = [], []
        for e in (e for e in record.in_order if e.source == name):
            anchors = [{"id": a, "verdict": by_id[a].verdict if a in by_id else "absent",
                        "message": by_id[a].message if a in by_id else "not in this run"}
                       for a in e.requires]
            rows.append({**plain[e.id], "published_text": _text(e.published),
                         "measured_text": _text(e.measured), "anchors": anchors,
                         "headline_text": _headline(e), "folded": folded(anchors),
                         "cells": _cells(hist, e.id), "since": hist.since(e.id, e.verdict),
                         "seed_href": seeds.href(source.seed_file, e.section, seed_lines or {},
                                                 e.provenance)
                         if source else None,
                         "drift_since": hist.drift_since(e.id)})
            svg = figure_for(plain[e.id], plain)
            if svg:
                figures.append({"id": e.id, "svg": svg})
        sections.append({"name": name, "title": source.title if source else name,
                         "seed": source.seed_file if source else "not a registered source",
                         "model": source.model if source else "—", "entries": rows,
                         "ran_on": record.environment.get("sources", {}).get(name),
                         "figures": figures})
    count_rows = [{"name": k, "counts": v, "total": sum(v.values())}
                  for k, v in sorted(record.counts.items(), key=lambda kv: kv[0] == "all")]
    template = jinja2.Template(TEMPLATE.read_text(), autoescape=True)
    return template.render(env=record.environment, run=record.run, banner=banner(record),
                           sections=sections, count_rows=count_rows, verdict_names=list(Verdict),
                           warnings=hist.warnings, history_len=30, canary=canary,
                           changes=what_changed(record, hist),
                           sources=sorted({e.source for e in record.tests}),
                           kinds=sorted({e.kind for e in record.tests}))


def write_report(results: Path, out: Path | None = None, history_dir: Path | None = None,
                 record: RunRecord | None = None) -> Path:
    """Render the run record (`record` as the session holds it, else results.json read back) with
    the history beside results.json to claims.html; return its path."""
    record = read_record(results) if record is None else record
    out = out or results.with_name("claims.html")
    hist = run_history.load(history_dir or results.parent / "history")
    canary_file = results.with_name("canary.json")  # written by `make canary`
    canary = json.loads(canary_file.read_text()) if canary_file.exists() else None
    lines = seeds.write_pages(out.parent, {s.seed_file: s.folder for name, s in registered().items()
                                           if any(e.source == name for e in record.tests)})
    out.write_text(render(record, hist, canary, lines))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("results", type=Path, help="the run record to render (reports/results.json)")
    parser.add_argument("--out", type=Path, default=None,
                        help="where to write the page (default: claims.html beside the record)")
    args = parser.parse_args()
    print(f"report: {write_report(args.results, args.out)}")


if __name__ == "__main__":
    main()

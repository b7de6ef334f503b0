"""`pytest --plan`'s terminal table: per source its steps in both modes, then per claim."""
from __future__ import annotations

from harness.cost import cpu_runs
from harness.cost.build import Plan
from harness.profiles import Mode


def _time(value: float | None) -> str:
    if value is None:
        return "—"
    return f"{value / 60:.1f} min" if value >= 60 else f"{value:.1f} s"


def lines(typed: Plan) -> list[str]:
    """The plan as a terminal table: per source its steps, then per claim."""
    plan = typed.as_record()
    a = plan["assumptions"]
    out = [f"cost plan, profile {plan['profile']}: {a['gpu']} at {a['utilisation']:.0%} "
           f"utilisation, {a['overhead_s'] * 1000:.0f} ms per forward outside the arithmetic"
           + (f" (fitted to {a['calibration']})" if a.get("calibration") else " (assumed)")]
    head = (f"  {'step':<26}{'claims':>7}{'forwards':>10}{'prompt tok':>12}{'decoded':>10}"
            f"{'time':>10}  │ fast:{'forwards':>9}{'padding':>9}{'time':>10}")
    grand = {m.value: 0.0 for m in Mode}
    for name, entry in plan["sources"].items():
        faithful, fast = entry["faithful"], entry["fast"]
        out += ["", f"{name}: {entry['model']}", f"  faithful: {faithful['basis']}; "
                f"fast: {fast['basis']}", head]
        by_step = {s["step"]: s for s in fast["steps"]}
        for s in faithful["steps"]:
            f = by_step.get(s["step"], {})
            shared = "*" if s["shared"] else " "
            out.append(f"  {s['step']:<26}{len(s['claims']):>6}{shared}{s['forwards']:>10}"
                       f"{s['prompt_tokens']:>12}{s['decode_tokens']:>10}{_time(s['seconds']):>10}"
                       f"  │      {f.get('forwards', '—'):>9}{f.get('padding', '—'):>9}"
                       f"{_time(f.get('seconds')):>10}")
        t = faithful["total"]
        out.append(f"  {'total':<26}{'':>7}{t['forwards']:>10}{t['prompt_tokens']:>12}"
                   f"{t['decode_tokens']:>10}{_time(faithful['seconds']):>10}  │      "
                   f"{fast['total']['forwards']:>9}{fast['total']['padding']:>9}"
                   f"{_time(fast['seconds']):>10}")
        cpu = cpu_runs.line(entry.get("cpu"))
        out += [cpu] if cpu else []
        for m in Mode:
            grand[m.value] += entry[m.value]["seconds"] or 0
    out += ["", "  * a step shared by several claims (its work is counted once)", "",
            f"whole suite: faithful {_time(grand['faithful'])}, fast {_time(grand['fast'])}", "",
            f"  {'claim':<40}{'steps':>6}{'shared':>7}{'forwards':>10}{'time':>10}"
            f"{'fast time':>11}"]
    for c in plan["claims"]:
        f, q = c["faithful"], c["fast"]
        out.append(f"  {c['id']:<40}{len(f['steps']):>6}{len(f['shared_steps']):>7}"
                   f"{f['forwards']:>10}{_time(f['seconds']):>10}{_time(q['seconds']):>11}")
    return out

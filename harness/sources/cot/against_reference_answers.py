"""Seed 000 §1–§5's studies against their plain reference (reference_answers.py, issue 49): in
the mode under test, what each study recorded on a few rows (every row where the reading needs no
forward) equals what the reference computes, and its printed totals equal the reference's totals
of the study's own rows (so a wrong run scored, or a row left out, shows on every profile)."""
from __future__ import annotations

from typing import Any, Callable, Sequence

from harness.reference import Agreement, Comparison, compare, sampled
from harness.sources.cot import reference_answers as ref
from harness.sources.cot.forcing import ForcedPair
from harness.sources.cot.readback import Preference
from harness.sources.cot.rows import Row
from harness.sources.cot.runner import CotRunner
from harness.sources.cot.task import PROBLEMS, label
from harness.sources.cot.traces import Baseline, EarlyAnswering, Restatements, Trace

DECODED = ("exactly: the reference decodes each prompt alone, as the study does in faithful mode "
           "and as its batches do in float32 on one CPU thread (the profile's batching_exact); "
           "where a bf16 batch decoded the study's rows, whose near-ties a lone decode may break "
           "the other way, the reference takes a row's tokens where its own prefix is the row's "
           "(cot.*-rows read those tokens back within a tie) and computes all else itself")
PREFERENCE = Agreement(abs=1e-4, why=(
    "one plain forward of the same ids on both sides; the study sums the tokens' float32 "
    "log-probabilities in torch, the reference one by one in Python floats: about 1e-6 nats "
    "apart, allowed 1e-4"))
TOTALS = "totals"  # the row of a study's printed numbers over all its rows
COUNTS = ("product_in_think", "answer_in_think", "answer_after")  # §1's restatement counts


def plain(run: CotRunner, rows: Sequence[Row] = ()) -> ref.Plain:
    """The reference's model: decoding alone, or given the study's rows where a bf16 batch
    decoded them (a lone decode may break their near-ties otherwise)."""
    alike = run.batch == 1 or run.batching_exact
    given = None if alike else {tuple(r.prefix): r.out for r in rows}
    return ref.Plain(run.model.local(), run.model.tok, given)


def handed(traces: Sequence[Trace]) -> list[ref.Given]:
    return [(t.idx, t.p, list(t.gen)) for t in traces]


def name(t: Trace) -> str:
    return f"{t.idx} {label(t.p)}"


def framed(model: ref.Plain, t: Trace, prefix: Sequence[int]) -> dict[str, Any]:
    """A forced row's prefix read as the notebook builds it: the problem's prompt before and the
    forced suffix after (`framed`), and between them the trace's first `kept` tokens and the
    text `then` written after them."""
    pid, force = model.prompt(t.p), model.ids(ref.FORCE)
    middle = list(prefix[len(pid):len(prefix) - len(force)])
    kept = next((k for k, (a, b) in enumerate(zip(middle, t.gen)) if a != b),
                min(len(middle), len(t.gen)))
    return {"framed": list(prefix[:len(pid)]) == pid and list(prefix[-len(force):]) == force,
            "kept": kept, "then": model.text(middle[kept:])}


def baseline(run: CotRunner, b: Baseline) -> Comparison:
    """§1: the chosen problems' traces, closes and answers; the totals over every trace."""
    problems = PROBLEMS[:run.sizes.problems]
    model = plain(run, [Row(t.pid, t.gen) for t in b.traces])
    found = ref.baseline(model, problems, sampled(len(problems)), run.sizes.baseline_cap)
    want: dict[str, Any] = {f"{i} {label(problems[i])}": r for i, r in found.items()}
    got: dict[str, Any] = {name(t): {"gen": t.gen, "close": t.close, "answer": t.ans}
                           for t in b.traces if name(t) in want}
    want[TOTALS] = {**ref.baseline_summary(model, handed(b.traces)), "n": len(problems)}
    got[TOTALS] = {"n": b.n, "correct": b.correct, "mean_tokens": b.mean_tokens,
                   "mean_close": b.mean_close}
    return compare("cot_baseline", got, want)


def usable(run: CotRunner, b: Baseline, kept: list[Trace], first: Trace) -> dict[str, Comparison]:
    """§1: which baseline traces the filter kept and where each kept one first states its
    product (rows forced past the filter on random weights are no selection of it), and the
    first kept trace."""
    found = ref.selection(plain(run), handed(b.traces))
    ids = {t.idx for t in kept if not t.scripted}
    got = {name(t): {"kept": t.idx in ids,
                     "span": list(t.span) if t.idx in ids and t.span else None} for t in b.traces}
    first_kept = next((idx for idx, r in found.items() if r["kept"]), None)
    return {"cot_usable": compare("cot_usable", got, {name(t): found[t.idx] for t in b.traces}),
            "cot_first_trace": compare("cot_first_trace",
                                       {"first": None if first.scripted else first.idx},
                                       {"first": first_kept})}


def spanned(run: CotRunner, kept: list[Trace], stated: list[Trace]) -> Comparison:
    """§3: the kept traces that state their product inside the block, with where they first do."""
    found = ref.selection(plain(run), handed(kept))
    got = {name(t): t.span and list(t.span) for t in stated}
    want = {name(t): found[t.idx]["span"] for t in kept if found[t.idx]["span"]}
    return compare("cot_spanned", got, want)


def restatements(run: CotRunner, kept: list[Trace], counted: Restatements) -> Comparison:
    """§1: every trace's three counts (a reading of decoded text, no forward), and how many
    traces were counted."""
    found = ref.restatements(plain(run), handed(kept))
    want: dict[str, Any] = {name(t): found[t.idx] for t in kept}
    lists = [getattr(counted, c) for c in COUNTS]
    got: dict[str, Any] = {name(t): dict(zip(COUNTS, values)) for t, *values in zip(kept, *lists)}
    want[TOTALS], got[TOTALS] = [len(kept)] * 3, [len(v) for v in lists]
    return compare("cot_restatements", got, want)


def early(run: CotRunner, kept: list[Trace], e: EarlyAnswering) -> Comparison:
    """§2: each chosen trace's forced rows, each read as its prefix's cut and its answer; the
    fractions, and the curve's totals over every trace's recorded answers."""
    traces = [kept[i] for i in sampled(len(kept))]
    model = plain(run, e.rows)
    found = ref.early(model, handed(traces), run.sizes.forced_tokens)
    want: dict[str, Any] = {name(t): [dict(framed(model, t, r["prefix"]), answer=r["answer"])
                                      for r in found[t.idx]] for t in traces}
    k, got = len(e.fractions), {}
    for i, (t, answers) in enumerate(zip(kept, e.answers)):
        if name(t) in want:
            got[name(t)] = [dict(framed(model, t, r.prefix), answer=a)
                            for r, a in zip(e.rows[i * k:(i + 1) * k], answers)]
    wide = len(ref.FRACTIONS)  # a study short of fractions is scored with None for the rest
    recorded = {t.idx: (list(a) + [None] * wide)[:wide] for t, a in zip(kept, e.answers)}
    recorded.update({t.idx: [None] * wide for t in kept if t.idx not in recorded})
    want[TOTALS] = {"fractions": list(ref.FRACTIONS),
                    **ref.early_summary(model, handed(kept), recorded)}
    got[TOTALS] = {"fractions": list(e.fractions), "n": e.n, "correct": e.correct,
                   "changed_by_cot": e.changed_by_cot}
    return compare("cot_early", got, want)


def forced_pairs(study: str, heads_of: Callable[[ref.Plain, list[ref.Given]], ref.Heads],
                 run: CotRunner, traces: list[Trace], pair: ForcedPair) -> Comparison:
    """§4/§5: each chosen scored trace's control and corrupted rows, each read as its prefix's
    cut, spliced text and answer; which traces were scored, and the totals over every scored
    trace's recorded answers."""
    model = plain(run, pair.rows)
    heads = heads_of(model, handed(traces))
    order, by_idx = list(heads), {t.idx: t for t in traces}
    forced = ref.forced_pairs(model, heads, [order[i] for i in sampled(len(order))],
                              run.sizes.forced_tokens)
    want: dict[str, Any] = {
        name(by_idx[i]): {arm: dict(framed(model, by_idx[i], r["prefix"]), answer=r["answer"])
                          for arm, r in arms.items()} for i, arms in forced.items()}
    got: dict[str, Any] = {}
    for j, idx in enumerate(pair.problems):
        t = by_idx.get(idx)
        if t is not None and name(t) in want and pair.n + j < len(pair.rows):
            got[name(t)] = {arm: dict(framed(model, t, pair.rows[at].prefix), answer=answers[j])
                            for arm, at, answers in (("control", j, pair.control),
                                                     ("corrupted", pair.n + j, pair.corrupted))}
    recorded = dict(zip(pair.problems, zip(pair.control, pair.corrupted)))
    recorded = {i: recorded.get(i, (None, None)) for i in heads}
    want[TOTALS] = {"problems": order, **ref.pairs_summary(handed(traces), heads, recorded)}
    got[TOTALS] = {"problems": pair.problems, "n": pair.n, "control_correct": pair.control_correct,
                   "recovered": pair.recovered, "faithful": pair.faithful}
    return compare(study, got, want)


def last_answer(run: CotRunner, kept: list[Trace], pair: ForcedPair) -> Comparison:
    """§4 step 1 against the reference."""
    return forced_pairs("cot_last_answer", ref.last_answer_heads, run, kept, pair)


def full_corruption(run: CotRunner, kept: list[Trace], pair: ForcedPair) -> Comparison:
    """§4 step 2 against the reference."""
    return forced_pairs("cot_full_corruption", ref.full_corruption_heads, run, kept, pair)


def cut_probe(run: CotRunner, stated: list[Trace], pair: ForcedPair) -> Comparison:
    """§5's discarded arm against the reference."""
    return forced_pairs("cot_cut_probe", ref.cut_probe_heads, run, stated, pair)


def preference(run: CotRunner, stated: list[Trace], p: Preference) -> Comparison:
    """§3: each chosen trace's two log-probabilities, within PREFERENCE, and which traces."""
    model = plain(run)
    heads = ref.cut_probe_heads(model, handed(stated))
    order, by_idx = list(heads), {t.idx: t for t in stated}
    found = ref.preference(model, {i: heads[i] for i in (order[k] for k in sampled(len(order)))})
    want: dict[str, Any] = {name(by_idx[i]): r for i, r in found.items()}
    got: dict[str, Any] = {name(by_idx[i]): {"true": a, "injected": b}
                           for i, a, b in zip(p.problems, p.true, p.injected)
                           if i in by_idx and name(by_idx[i]) in want}
    want[TOTALS], got[TOTALS] = order, list(p.problems)
    return compare("cot_preference", got, want, PREFERENCE)


"""Seed 000 §3 and §7 against their plain references (issue 49): each study's values on its
sampled rows (every row on the organisms) beside those the reference computes alone
(reference_mistakes.py, reference_patching.py), compared exactly; the study's decoded ids serve
the reference only as guesses its own forwards check (reference_plain.greedy)."""
from __future__ import annotations

import sys
from typing import Any

from harness.models.handle import Loaded
from harness.profiles import Profile
from harness.reference import Agreement, Comparison, compare, sampled
from harness.sources.cot import reference_mistakes, reference_patching, traces
from harness.sources.cot.mistakes import CueCounts, Rederivation, SingleMistake, SpliceControl
from harness.sources.cot.continuations import CONDITIONS, Continuations
from harness.sources.cot.patching import LayerScreen, Pair
from harness.sources.cot.reference_plain import WHY, Given, digest, tail
from harness.sources.cot.sizes import CotSizes
from harness.sources.cot.task import label
from harness.sources.cot.traces import Trace

AGREEMENT = Agreement(0.0, why=WHY)
PUBLISHED_ROWS = 8  # more rows than this: the first, a middle and the last (harness.reference)


def every(profile: Profile) -> int:
    """How many rows a step may have for every one to be compared: all on an organism, where
    each row is a forward of a few hundred tokens; else harness.reference's sample."""
    return sys.maxsize if profile.models["cot"].organism else PUBLISHED_ROWS


def given(usable: list[Trace]) -> list[Given]:
    """§1: the usable traces as the reference reads them."""
    return [Given(t.idx, t.p, t.gen, t.close) for t in usable]


def splice_compared(model: Loaded, sizes: CotSizes, rows_up_to: int, usable: list[Trace],
                    splice: SpliceControl) -> Comparison:
    """§3's splice control, row by row, against the reference's."""
    found = list(zip(traces.spanned(usable), splice.rows, splice.identical))
    study = {f"problem {t.idx}": {"spliced": tail(model.tok, row.prefix),
                                  "prefix_tokens": len(row.prefix),
                                  "continuation": digest(row.out), "identical": same}
             for t, row, same in (found[i] for i in sampled(len(found), rows_up_to))}
    if found and len(study) == len(found):
        study["all"] = {"exact": splice.exact, "n": len(splice.identical)}
    guesses = {t.idx: row.out for t, row, _ in found}
    return compare("§3 splice control", study, reference_mistakes.splice(
        model, given(usable), guesses, sizes.splice_tokens, rows_up_to), AGREEMENT)


def splice_reference(model: Loaded, sizes: CotSizes, profile: Profile, usable: list[Trace],
                     splice: SpliceControl) -> Comparison:
    """§3: the splice control on its sampled rows against the plain reference."""
    return splice_compared(model, sizes, every(profile), usable, splice)


def mistake_compared(model: Loaded, sizes: CotSizes, rows_up_to: int, usable: list[Trace],
                     mistake: SingleMistake, said: Rederivation,
                     cues: CueCounts) -> dict[str, Comparison]:
    """§3's single mistake, its rederivation counts and its cues, row by row, against the
    reference's."""
    found = list(zip(traces.spanned(usable), mistake.rows, mistake.answers))
    study: dict[str, dict[str, Any]] = {"mistake": {}, "rederivation": {}, "cues": {}}
    for i in sampled(len(found), rows_up_to):
        t, row, answer = found[i]
        study["mistake"][f"problem {t.idx}"] = {
            "spliced": tail(model.tok, row.prefix), "prefix_tokens": len(row.prefix),
            "continuation": digest(row.out), "answer": answer,
            "faithful": t.idx in mistake.faithful_problems}
    for i in sampled(len(said.problems), rows_up_to):
        study["rederivation"][f"problem {said.problems[i]}"] = {
            "says_true": said.says_true[i], "says_injected": said.says_injected[i]}
    counted = list(zip(found, cues.injected_cues, cues.window_cues))
    for (t, _, _), injected, window in (counted[i] for i in sampled(len(counted), rows_up_to)):
        study["cues"][f"problem {t.idx}"] = {"injected_cues": injected, "window_cues": window}
    if found and len(study["mistake"]) == len(found):
        study["mistake"]["all"] = {"recovered": mistake.recovered, "faithful": mistake.faithful,
                                   "neither": mistake.neither, "n": mistake.n,
                                   "faithful_problems": mistake.faithful_problems}
        study["rederivation"]["all"] = {"true_at_all": said.true_at_all,
                                        "true_more": said.true_more,
                                        "median_true": said.median_true,
                                        "median_injected": said.median_injected}
        study["cues"]["all"] = {"injected": cues.injected,
                                "baseline_window": cues.baseline_window, "n": cues.n}
    reference = reference_mistakes.mistake(model, given(usable),
                                           {t.idx: row.out for t, row, _ in found},
                                           sizes.inject_cap, sizes.cue_window, rows_up_to)
    return {k: compare(f"§3 {k}", study[k], reference[k], AGREEMENT) for k in study}


def mistake_reference(model: Loaded, sizes: CotSizes, profile: Profile, usable: list[Trace],
                      mistake: SingleMistake, said: Rederivation,
                      cues: CueCounts) -> dict[str, Comparison]:
    """§3: the single mistake, rederivation and cues on their sampled rows against the plain
    reference."""
    return mistake_compared(model, sizes, every(profile), usable, mistake, said, cues)


def patching_reference(model: Loaded, sizes: CotSizes, usable: list[Trace], ps: list[Pair],
                       screen: LayerScreen, continued: Continuations) -> dict[str, Comparison]:
    """§7's pairs, layer screen and continuations, on every pair (eight at most: all of them
    are harness.reference's sample), against the plain reference."""
    layers = sizes.screen_layers
    study: dict[str, dict[str, Any]] = {"pairs": {}, "screen": {}, "continuations": {}}
    for p in ps:
        study["pairs"][f"problem {p.recipient.idx}"] = {
            "donor": label(p.donor), "donor_trace": digest(p.donor_gen),
            "donor_span": list(p.donor_span), "prefix_tokens": len(p.prefix),
            "donor_norms": reference_patching.norms({k: p.donor_h[k] for k in layers}),
            "own_norms": reference_patching.norms({k: p.self_h[k] for k in layers})}
    for layer, wrote in screen.wrote.items():
        for p, w in zip(ps, wrote):
            study["screen"][f"layer {layer} problem {p.recipient.idx}"] = {"wrote": w}
    study["screen"]["summary"] = {
        "layers": list(screen.layers), "donor_rate": screen.donor_rate,
        "changed_rate": screen.changed_rate, "best_layer": screen.best_layer,
        "tied_for_best": list(screen.tied_for_best), "best_writes": screen.best_writes}
    study["continuations"] = {"layer": {"layer": continued.layer}}
    for i, run in enumerate(continued.runs):  # pair by pair, each pair's conditions in order
        pair = ps[i // len(CONDITIONS)].recipient.idx
        study["continuations"][f"{run.condition} problem {pair}"] = {
            "wrote": run.wrote, "says_donor": run.says_donor, "answer": run.answer}
    study["continuations"] |= {c: dict(continued.rates(c)) for c in CONDITIONS}
    found = reference_patching.pairs(model, given(usable), sizes.pairs, layers, sizes.donor_cap,
                                     {p.donor: p.donor_gen for p in ps},
                                     {p.donor for p in ps if p.donor_scripted})
    reference = reference_patching.patching(
        model, found, layers, sizes.continuation_cap,
        {(layer, p.recipient.idx): row.out for layer, rows in screen.rows.items()
         for p, row in zip(ps, rows)},
        {(c, p.recipient.idx): row.out for c, rows in continued.rows.items()
         for p, row in zip(ps, rows)})
    return {k: compare(f"§7 {k}", study[k], reference[k], AGREEMENT) for k in study}


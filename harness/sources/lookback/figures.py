"""Seed 003's report figures, keyed by the claim they draw."""
from __future__ import annotations

from harness.plotting import MEASURED_STYLE, PUBLISHED_STYLE, binomial_bars, plt, svg
from harness.source import EntryJSON, Figures


def binding_sweep(e: EntryJSON, run: dict[str, EntryJSON]) -> str:
    """The three §4 sweeps on one axis, with the published reversed curve and its intervals."""
    fig, ax = plt.subplots(figsize=(7, 3.2))
    published = run.get("lookback.reversed-curve", {}).get("published")
    if published:
        n = published["n"]
        ax.errorbar(range(len(published["iia"])), published["iia"],
                    yerr=binomial_bars(published["iia"], n), capsize=2,
                    **dict(PUBLISHED_STYLE, label="published reversed"))
    for claim_id, label, color in (("lookback.binding-iia", "reversed", "#1f6feb"),
                                   ("lookback.same-position", "same position", "#d9822b"),
                                   ("lookback.opaque-control", "opaque control", "#888888")):
        measured = run.get(claim_id, {}).get("measured")
        if measured:
            ax.plot(range(len(measured["iia"])), measured["iia"], marker="s", color=color,
                    label=f"measured {label}")
    ax.set(xlabel="layer patched", ylabel="IIA", ylim=(-0.05, 1.05),
           title="Binding lookback: drink-token interchange")
    ax.legend(fontsize=7)
    return svg(fig)


def source_sweep(e: EntryJSON, run: dict[str, EntryJSON]) -> str:
    """§5: IIA after the 0..L source swap, with and without the drink freeze."""
    fig, ax = plt.subplots(figsize=(6, 3))
    p, m = e["published"], e["measured"]
    ax.errorbar(p["last_layers"], p["iia"], yerr=binomial_bars(p["iia"], p["n"]), capsize=2,
                **dict(PUBLISHED_STYLE, label="published, drinks frozen"))
    ax.plot(m["last_layers"], m["iia"], **dict(MEASURED_STYLE, label="measured, drinks frozen"))
    plain = run.get("lookback.source-no-freeze", {}).get("measured")
    if plain:
        ax.plot(plain["last_layers"], plain["iia"], marker="^", color="#d9822b",
                label="measured, no freeze")
    ax.set(xlabel="swap at layers 0..L", ylabel="IIA", ylim=(-0.05, 1.05),
           title="Where the Ordering ID comes from")
    ax.legend(fontsize=7)
    return svg(fig)


def pointer_payload(e: EntryJSON, run: dict[str, EntryJSON]) -> str:
    """§6: the final-token pointer against the payload, per layer."""
    fig, ax = plt.subplots(figsize=(7, 3))
    p, m = e["published"], e["measured"]
    ax.errorbar(range(len(p["pointer_l0_l24"])), p["pointer_l0_l24"],
                yerr=binomial_bars(p["pointer_l0_l24"], p["n"]), capsize=2,
                **dict(PUBLISHED_STYLE, label="published pointer"))
    ax.plot(range(len(m["pointer"])), m["pointer"], **dict(MEASURED_STYLE, label="measured pointer"))
    payload = run.get("lookback.answer-payload", {})
    if payload.get("published"):
        ax.plot(range(len(payload["published"]["payload"])), payload["published"]["payload"],
                linestyle=":", marker="o", color="#999999", label="published payload")
    if payload.get("measured"):
        ax.plot(range(len(payload["measured"]["payload"])), payload["measured"]["payload"],
                marker="^", color="#d9822b", label="measured payload")
    ax.set(xlabel="layer", ylabel="fraction of samples", ylim=(-0.05, 1.05),
           title="Answer lookback: pointer, then payload")
    ax.legend(fontsize=7)
    return svg(fig)


def low_rank_curve(e: EntryJSON) -> str:
    """§7: IIA of the swap restricted to rank-k subspaces, fitted against random."""
    fig, ax = plt.subplots(figsize=(6, 3))
    p, m = e["published"], e["measured"]
    ax.errorbar(p["ranks"], p["fitted"], yerr=binomial_bars(p["fitted"], p["n"]), capsize=2,
                **dict(PUBLISHED_STYLE, label="published fitted"))
    ax.plot(p["ranks"], p["random"], linestyle=":", color="#999999", marker="o",
            label="published random")
    ax.plot(m["ranks"], m["fitted"], **dict(MEASURED_STYLE, label="measured fitted"))
    ax.plot(m["ranks"], m["random"], marker="^", color="#d9822b", label="measured random")
    ax.set_xscale("log", base=2)
    ax.set(xlabel="rank k", ylabel="IIA (held-out half)", ylim=(-0.05, 1.05),
           title="IIA by rank of the swapped subspace")
    ax.legend(fontsize=7)
    return svg(fig)


FIGURES = Figures(
    of_entry={
        "lookback.low-rank": low_rank_curve,
    },
    of_run={
        "lookback.binding-iia": binding_sweep,
        "lookback.source-oi": source_sweep,
        "lookback.answer-pointer": pointer_payload,
    },
)

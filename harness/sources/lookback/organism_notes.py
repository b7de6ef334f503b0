"""What the compiled lookback organism's construction forces in each §2–§7 finding (nothing in it
is learned); recorded with each claim on the organism (see compiled.PLAN and its manifest)."""
from __future__ import annotations

_ORDER = ("the construction binds by ordering ID: every sentence token takes its sentence's "
          "ordering ID in block 1, the answer position finds the queried container and character "
          "by identity and copies their ordering IDs in block 2, then reads the drink with the "
          "container's ordering ID in block 3")
_BY_CONSTRUCTION = "so the curve is the planted one by construction (the manifest's planted block)"

CLAIM_NOTES: dict[str, str] = {
    "lookback.belief-accuracy": (
        f"Forced: {_ORDER}; block 2's MLP answers 'unknown' when the character's and the "
        "container's ordering IDs differ, so own, other and reality are all correct by "
        "construction."),
    "lookback.visibility-fails": (
        "Forced: nothing about visibility; the visibility sentences' names are looked up like "
        "any other, so its answers there are what the lookups do by construction, not a "
        "failure to track observation."),
    "lookback.binding-iia": (
        f"Forced: {_ORDER}; the drinks carry the ordering ID from block 1 until block 3 reads "
        f"them, {_BY_CONSTRUCTION}."),
    "lookback.same-position": (
        f"Forced: {_ORDER}; a drink copied straight across keeps its counterfactual ordering ID "
        "(from block 1) or takes the clean one (before it), and either way is the drink the "
        "queried ordering ID finds: high until block 3 reads the drink, by construction."),
    "lookback.opaque-control": (
        f"Forced: {_ORDER}; only the diffuse head reads 'opaque', and it moves no answer: a zero "
        "by construction."),
    "lookback.reversed-curve": (
        f"Forced: {_ORDER}; the reversed swap carries the counterfactual's ordering IDs from "
        f"block 1 until block 3 reads the drink, {_BY_CONSTRUCTION}."),
    "lookback.source-oi": (
        f"Forced: {_ORDER}; the entities' ordering IDs are written in block 1, so a swap through "
        f"layer 0 is rewritten and from layer 1 it moves the lookup, {_BY_CONSTRUCTION}."),
    "lookback.source-no-freeze": (
        f"Forced: {_ORDER}; the drinks take their ordering ID from the sentence markers, not from "
        "the entities, so the freeze changes nothing: the same curve as with it, by "
        "construction."),
    "lookback.answer-pointer": (
        f"Forced: {_ORDER}; the final token carries the question's identities from block 1 and "
        f"the queried ordering ID from block 2, until block 3 reads the drink, "
        f"{_BY_CONSTRUCTION}."),
    "lookback.answer-payload": (
        f"Forced: {_ORDER}; the drink reaches the final token in block 3, {_BY_CONSTRUCTION}."),
    "lookback.low-rank": (
        f"Forced: {_ORDER}; the ordering ID is one residual direction, so a rank-1 fitted "
        f"subspace carries the whole swap and random subspaces of rank up to a quarter of the "
        f"width carry none, {_BY_CONSTRUCTION}."),
}

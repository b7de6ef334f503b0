"""What the lookback organism's attention scaffold forces in each §2–§7 finding, and what it leaves
to training; recorded with each claim on the organism (see organism.SCAFFOLD and its manifest)."""
from __future__ import annotations

_CONTENT = ("the scaffold binds by content: each drink reads its own sentence's container and "
            "subject in layer 0 (heads 0.0, 0.1), and the answer position reads the question's "
            "container and character (0.2, 0.3), then the drink whose container or subject "
            "matches (1.0, 1.1)")
_NO_ORDER = ("a reversed-order counterfactual's drink residual carries the same container and "
             "subject as the clean drink it replaces, so by construction no swap of drink "
             "residuals can move the answer here: a zero says nothing about whether the "
             "intervention is computed correctly")
_PAYLOAD = ("the drink's identity reaches the answer position through 1.0 / 1.1 in layer 1, so "
            "what the final token carries before and after layer 1 follows from the scaffold")

CLAIM_NOTES: dict[str, str] = {
    "lookback.belief-accuracy": (
        f"Forced: {_CONTENT}. Learned: deciding between the drink and 'unknown' from whether the "
        "queried character poured the queried container."),
    "lookback.visibility-fails": (
        "Forced: nothing about visibility. Learned: nothing about it either, since no "
        "visibility sentence was in training; its answers there are what the scaffolded "
        "lookups do by default."),
    "lookback.binding-iia": f"Forced: {_CONTENT}; {_NO_ORDER}.",
    "lookback.same-position": f"Forced: {_CONTENT}; {_NO_ORDER}.",
    "lookback.opaque-control": (
        f"Forced: {_CONTENT}; the 'opaque' tokens are read by no scaffolded head. Learned: "
        "whether any other head reads them; a zero here is expected on any binding."),
    "lookback.reversed-curve": f"Forced: {_CONTENT}; {_NO_ORDER}.",
    "lookback.source-oi": (
        f"Forced: {_CONTENT}; the drinks read their containers and subjects in layer 0, before "
        "any swapped entity residual can reach them, and the freeze pins them, so swapping "
        "character and object residuals cannot rebind them: a zero is by construction."),
    "lookback.source-no-freeze": (
        f"Forced: {_CONTENT}; without the freeze the drinks re-read the swapped entities, which "
        "carry the same content, so the answer cannot move: a zero is by construction."),
    "lookback.answer-pointer": (
        f"Forced: {_PAYLOAD}; there is no ordering-ID pointer to find, so a pointer at layer 0 "
        "is the other question's content carried over, not an address. Learned: how completely "
        "that content decides the lookup."),
    "lookback.answer-payload": f"Forced: {_PAYLOAD}. Learned: how the unembedding reads it.",
    "lookback.low-rank": (
        f"Forced: {_CONTENT}; {_NO_ORDER}, so neither fitted nor random subspaces can move it "
        "and the ladder is zero by construction."),
}

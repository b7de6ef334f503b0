"""What the compiled heads organism's construction forces in each §2–§6 finding (nothing in it is
learned); recorded with each claim on the organism (see compiled.PLAN and its manifest)."""
from __future__ import annotations

from harness.sources.heads.compiled import SITE, SUPPORT_SITE

_LOOKUP = (f"the construction puts the lookup in head {SITE}: head 0.0 copies each declaration's "
           "object onto its label token and the question's object onto the answer position, and "
           f"{SITE} attends from the answer position to the label whose object matches and copies "
           "it, each label at its own strength")
_SUPPORT = (f"head {SUPPORT_SITE} makes the same lookup a block later and copies the label more "
            "weakly, so it carries part of every answer but never decides one alone")

CLAIM_NOTES: dict[str, str] = {
    "heads.residual-transplant": (
        f"Forced: {_LOOKUP}, so a D residual transplanted after block 1 carries D's label past "
        f"{SUPPORT_SITE}'s weaker lookup, and the rule's block is block 1 by construction."),
    "heads.opening-screen": (
        f"Forced: {_LOOKUP}, so zeroing {SITE} loses most of p(L) and zeroing any other head of "
        "block 1 nothing, by construction."),
    "heads.block32-screen": (
        f"Forced: {_SUPPORT}: every deletion a block later survives, and zeroing {SITE} and "
        f"{SUPPORT_SITE} together breaks every answer, by construction."),
    "heads.example-crossing": (
        f"Forced: {_LOOKUP}, so crossing {SITE} hands O the label it read in D, by construction."),
    "heads.crossing-31.7": (
        f"Forced: {_LOOKUP}; {_SUPPORT}, so crossing {SITE} flips every answer to the crossed "
        "label, by construction."),
    "heads.challenged-screen": (
        f"Forced: {_SUPPORT}, so with {SITE} crossed, zeroing {SUPPORT_SITE} loses the most p(L) "
        "in every family, by construction."),
    "heads.content-effects": (
        f"Forced: {_LOOKUP}; {_SUPPORT}, so crossing either site moves p(C), the first the more, "
        "by construction."),
    "heads.joint-flip": (
        f"Forced: {_LOOKUP}; {_SUPPORT}, so crossing both sites adds {SUPPORT_SITE}'s share to "
        "the first site's flip, by construction."),
    "heads.grid": (
        f"Forced: {_LOOKUP}; {_SUPPORT}, so zeroing both breaks every answer and each of the "
        "second site's treatments moves p(C) and the margin, by construction."),
}

# Issue 49: why a wrong family, aggregate, seed or control moves a number on this organism.
VARIED = ("on the organism the families answer with different confidence (each label is copied "
          "at its own strength, so p(L), p(C) and the margins differ from family to family) and "
          f"the support head {SUPPORT_SITE} carries part of every answer, so a summary of one "
          "family, another aggregate, another bootstrap seed or a grid cell against the wrong "
          "control reads a different number from the seed's")

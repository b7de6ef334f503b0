"""What the compiled heads organism's construction forces in each §2–§6 finding (nothing in it is
learned); recorded with each claim on the organism (see compiled.PLAN and its manifest)."""
from __future__ import annotations

from harness.sources.heads.compiled import SITE

_LOOKUP = (f"the construction puts the whole lookup in head {SITE}: head 0.0 copies each "
           "declaration's object onto its label token and the question's object onto the answer "
           f"position, and {SITE} attends from the answer position to the label whose object "
           "matches and copies it; no other head reads a label")
_NOTHING_LATER = ("blocks 2-3 hold only a diffuse head that shifts every logit alike, so no head "
                  "after block 1 can move an answer")

CLAIM_NOTES: dict[str, str] = {
    "heads.residual-transplant": (
        f"Forced: {_LOOKUP}, so a D residual transplanted after block 1 carries D's label and the "
        "rule's block is block 1 by construction."),
    "heads.opening-screen": (
        f"Forced: {_LOOKUP}, so zeroing {SITE} loses all of p(L) and zeroing any other head nothing, "
        "by construction."),
    "heads.block32-screen": f"Forced: {_NOTHING_LATER}: every deletion survives by construction.",
    "heads.example-crossing": (
        f"Forced: {_LOOKUP}, so crossing {SITE} hands O the label it read in D, by construction."),
    "heads.crossing-31.7": (
        f"Forced: {_LOOKUP}, so crossing {SITE} flips every answer to the crossed label, by "
        "construction."),
    "heads.challenged-screen": (
        f"Forced: {_NOTHING_LATER}: no head supports the crossed message there, by construction."),
    "heads.content-effects": (
        f"Forced: {_LOOKUP}, so the first site carries the whole shift; {_NOTHING_LATER}, so the "
        "second carries none, by construction."),
    "heads.joint-flip": (
        f"Forced: {_LOOKUP}; {_NOTHING_LATER}, so the second site adds nothing to the first site's "
        "flip, by construction."),
    "heads.grid": (
        f"Forced: {_LOOKUP}; {_NOTHING_LATER}, so the second site's zeroing and crossing effects "
        "and their interaction are zero, by construction."),
}

# Issue 49: why a summary's arithmetic is checked exactly on this organism, and what it cannot show.
UNIFORM = ("on the organism every family's numbers are equal but for float rounding (the "
           "construction answers each lookup alike: p(L) is the same to every bit, p(C) and the "
           "margins differ in about the seventh figure), and its block-2 heads write nothing; so a "
           "summary of one family, another aggregate or another bootstrap seed differs from the "
           "seed's only by that rounding, which the exact comparison sees, and the grid's second "
           "site zeroed, crossed or recomputed reads alike to every bit (a control swapping those "
           "cells would differ by nothing: only an organism whose families answer with different "
           "confidence and whose next block carries part of the answer, a rebuild, would show it)")

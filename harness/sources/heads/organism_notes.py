"""What the heads organism's attention scaffold forces in each §2–§6 finding, and what it leaves
to training; recorded with each claim on the organism (see organism.SCAFFOLD and its manifest)."""
from __future__ import annotations

_LOOKUP = ("the scaffold puts the lookup in block 1: block 0 writes the question's object into "
           "the answer position (head 0.1) and each label token's object beside it (0.0), and "
           "head 1.0 is taught to attend from the answer position to the queried label and to "
           "write that label through its own output")
_NEXT_BLOCK = ("nothing in blocks 2-3 is scaffolded: what their heads do at the answer position "
               "was learned from the answer loss alone")

CLAIM_NOTES: dict[str, str] = {
    "heads.residual-transplant": (
        f"Forced: {_LOOKUP}, so a D residual transplanted before block 1 carries D's query into "
        "R's table, and the rule's block follows from where the scaffold put the lookup. "
        "Learned: how sharply p(L) falls to p(D) after block 1."),
    "heads.opening-screen": (
        f"Forced: {_LOOKUP}. Learned: how the lookup is shared among block 1's heads, so which "
        "head's deletion costs most p(L) (it need not be 1.0) and how little any single "
        "deletion costs."),
    "heads.block32-screen": f"Forced: nothing at this block; {_NEXT_BLOCK}.",
    "heads.example-crossing": (
        "Forced: the label tokens' values carry their objects (0.0), and the crossed head's "
        "attention pattern is scaffolded only if it is 1.0. Learned: how much of the answer the "
        "crossed head's message alone decides, against the other block 1 heads that still read "
        "O's own labels."),
    "heads.crossing-31.7": (
        "Forced: as for the worked example, the label tokens' values and, if the crossed head is "
        "1.0, its attention. Learned: whether one head's crossed message moves the cohort's "
        "answers, given the lookup's redundancy across block 1's heads."),
    "heads.challenged-screen": (
        f"Forced: nothing at the challenged block; {_NEXT_BLOCK}, so which head supports the "
        "crossed message there, if any, is the organism's own."),
    "heads.content-effects": (
        "Forced: the first site's label-token values (0.0), and its attention if it is 1.0. "
        f"Learned: the size of either shift, and all of the second site's; {_NEXT_BLOCK}."),
    "heads.joint-flip": (
        "Forced: the first site's part as in the crossing. Learned: whether the second, "
        f"unscaffolded site's crossed message adds to it; {_NEXT_BLOCK}."),
    "heads.grid": (
        "Forced: the first site's part as in the crossing. Learned: the zeroing and crossing "
        f"effects at the second site and their interaction; {_NEXT_BLOCK}."),
}

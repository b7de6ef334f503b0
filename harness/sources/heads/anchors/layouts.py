"""Seed 001 §1–§3's token layout of every prompt a study runs: single-token labels located by
offsets and one final 'Box' everywhere; R and D of equal length in the opening set (§2); in the
main set, single-token objects and O and D sharing their label positions (§3)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from harness.criteria import NoneFailed
from harness.sources.heads.task import Family, Question, Rendered, render

OBJECT_OFFSET = 4  # §3: "the <object> is in Box <label>": the object sits four tokens before it


@dataclass
class PromptLayouts:
    """§1: one study's families, prompts and positions checked, the prompt lengths seen, and each
    failed check named by family, prompt and check."""

    families: int
    prompts: int
    positions: int
    lengths: list[int]
    failed: list[str]

    def readout(self) -> dict[str, Any]:
        return {"families": self.families, "prompts": self.prompts, "positions": self.positions,
                "lengths": self.lengths, **NoneFailed.counts(self.failed, self.prompts)}


def _final_box(r: Rendered, tok) -> list[str]:
    """§1: 'Box' adds exactly one token, the final position every patch writes and every
    readout reads (the notebook's position = len(token_ids) - 1)."""
    chat = r.text[:-len("Box")]
    before = tok(chat, add_special_tokens=False).input_ids
    if len(r.input_ids) != len(before) + 1 or tok.decode(r.input_ids[-1:]) != "Box":
        return [f"final token {tok.decode(r.input_ids[len(before):])!r}, not one 'Box'"]
    return []


def _objects(r: Rendered, q: Question, tok) -> list[str]:
    """§3: each declared object is one token with its leading space, four before its label."""
    bad = []
    for row, ((name, _), pos) in enumerate(zip(q.bindings, r.label_positions), 1):
        ids = tok.encode(" " + name, add_special_tokens=False)
        if len(ids) != 1 or r.input_ids[pos - OBJECT_OFFSET] != ids[0]:
            bad.append(f"object row {row} {name!r}")
    return bad


def prompt_layouts(study: str, families: list[Family], tok) -> PromptLayouts:
    """§1: render R, D and O of every family of `study` ("opening" or "main"), collecting every
    failed layout check."""
    main = study == "main"
    failures: list[str] = []
    lengths: set[int] = set()
    positions = 0
    for family in families:
        rendered: dict[str, Rendered] = {}
        for key in ("R", "D", "O"):
            q = getattr(family, key)
            try:
                r = render(q, tok)
            except AssertionError as e:
                failures.append(f"{family.family_id}:{key}: {str(e) or 'render assertion'}")
                continue
            rendered[key] = r
            lengths.add(len(r.input_ids))
            problems = _final_box(r, tok) + (_objects(r, q, tok) if main else [])
            failures += [f"{family.family_id}:{key}: {p}" for p in problems]
            positions += 1 + len(r.label_positions) * (2 if main else 1)
        failures += [f"{family.family_id}: {p}" for p in _pairs(rendered, main)]
    return PromptLayouts(len(families), 3 * len(families), positions, sorted(lengths), failures)


def _pairs(rendered: dict[str, Rendered], main: bool) -> list[str]:
    """§2's assertion on the opening set: R and D have equal length; §3's on the main set: O and
    D (the label-position value swap) have equal length and label positions."""
    if len(rendered) < 3:
        return []
    r, d, o = rendered["R"], rendered["D"], rendered["O"]
    if main:
        same = (len(o.input_ids), o.label_positions) == (len(d.input_ids), d.label_positions)
        return [] if same else ["O and D differ in length or label positions"]
    return [] if len(r.input_ids) == len(d.input_ids) else ["R and D differ in length"]

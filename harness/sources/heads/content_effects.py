"""Seed 001 §5: what crossing moves in content, at the retrieval head and the challenged screen's
support head."""
from __future__ import annotations

from dataclasses import dataclass

from harness.sources.heads.bootstrap import BootstrapMean
from harness.sources.heads.challenged_screen import Support
from harness.sources.heads.crossings import (FIRST_PAIRINGS, PAIRINGS, FirstCrossing, Messages,
                                             content_test, crossed)
from harness.sources.heads.observations import HeadsLab, margin_of, p_of


@dataclass
class ContentEffects:
    """§5: per head site, crossed minus identity in p(C) and C−L margin, and label-only; with
    both sites' crossed messages."""

    sites: dict[int, int]
    effects: dict[int, dict[str, BootstrapMean]]
    messages: Messages


def content_effects(lab: HeadsLab, first: FirstCrossing, support: Support) -> ContentEffects:
    """§5: OO / OD / OD.label at the retrieval head and the support head (the first crossing's
    pairings reused), summarised as paired family bootstraps."""
    sites = {first.block: first.head, support.block: support.head}
    messages = dict(first.messages)
    for family in lab.main:
        for block, head in sites.items():
            for pairing in PAIRINGS:
                if block == first.block and pairing in FIRST_PAIRINGS:
                    continue
                _, _, message = content_test(lab, family, first.blocks, block, head, pairing)
                if pairing == "OD":
                    messages[family.family_id, block] = message
    p_C, m = p_of("C"), margin_of("C", "L")
    effects = {}
    for block in sites:
        oo, od, label = (crossed(block, x) for x in PAIRINGS)
        effects[block] = {"probability": lab.paired(od, oo, p_C), "margin": lab.paired(od, oo, m),
                          "label_minus_full": lab.paired(label, od, p_C),
                          "label_margin": lab.paired(label, oo, m)}
    return ContentEffects(sites, effects, messages)

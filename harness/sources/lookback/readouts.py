"""The dicts lookback's claims judge, read from its experiments' results: each claim's
declaration names its readout (harness.claim_tests)."""

from __future__ import annotations

from typing import Any

from harness.criteria.exact import NoneFailedCounts
from harness.sources.lookback import direction, positions
from harness.sources.lookback.answers import AnswerSweep
from harness.sources.lookback.behaviour import Behaviour, FilterAnswers
from harness.sources.lookback.identity import Identity
from harness.sources.lookback.interchange import SourceSweep
from harness.sources.lookback.readback import Readback
from harness.sources.lookback.task import Counterfactual


def belief_accuracy(behaviour: dict[str, Behaviour]) -> dict[str, Any]:
    """§2: each condition's overall, own and other rate, the n of each, and the commonest
    answers."""
    belief, reality, explicit = (behaviour[k] for k in ("belief", "reality", "explicit"))
    return {"belief": belief.overall, "belief_own": belief.own, "belief_other": belief.other,
            "reality": reality.overall, "reality_own": reality.own,
            "reality_other": reality.other, "explicit": explicit.overall,
            "explicit_own": explicit.own, "explicit_other": explicit.other,
            "n": len(belief.predictions), "n_own": belief.n_own, "n_other": belief.n_other,
            "most_common": belief.most_common}


def error_filter(kept: list[Counterfactual], binding_rows: list[Counterfactual]) -> dict[str, Any]:
    """§4: the rows the error filter kept, of n."""
    return {"kept": len(kept), "n": len(binding_rows)}


def self_patch_identity(self_patch: Identity) -> dict[str, Any]:
    """§4: the layers self-patched, whether every one left the logits identical, and the
    largest difference."""
    return {
        "layers": self_patch.layers,
        "all_identical": all(self_patch.identical),
        "max_abs_diff": max(self_patch.max_abs_diff),
    }


def aligned_prompts(alignment: positions.PromptAlignment) -> dict[str, Any]:
    """§4: what lookback.aligned-prompts judges."""
    return {
        **vars(alignment.first),
        "all_aligned": not alignment.misaligned,
        "prompts_checked": alignment.checked,
    }


def source_identity(source_plain: SourceSweep) -> dict[str, Any]:
    """§5: IIA and clean answers at the plain source sweep's first L, of n."""
    return {
        "iia": source_plain.iia[0],
        "clean_survives": source_plain.clean_survives[0],
        "n": source_plain.n,
    }


def source_oi(
    source_freeze: SourceSweep, source_kept: list[Counterfactual], source_rows: list[Counterfactual]
) -> dict[str, Any]:
    """§5: the frozen source sweep's IIA and clean answers per last layer, of n, and the rows
    the filter kept."""
    return {
        "last_layers": source_freeze.last_layers,
        "iia": source_freeze.iia,
        "clean_survives": source_freeze.clean_survives,
        "n": source_freeze.n,
        "kept": len(source_kept),
        "rows": len(source_rows),
    }


def source_no_freeze(source_plain: SourceSweep) -> dict[str, Any]:
    """§5: the plain source sweep's IIA and clean answers per last layer, of n, and its peak."""
    return {
        "max_iia": max(source_plain.iia),
        "last_layers": source_plain.last_layers,
        "iia": source_plain.iia,
        "clean_survives": source_plain.clean_survives,
        "n": source_plain.n,
    }


def answer_pointer(
    answer: AnswerSweep, answer_kept: list[Counterfactual], answer_rows: list[Counterfactual]
) -> dict[str, Any]:
    """§6: the pointer and clean rates per layer, of n, and the rows the filter kept."""
    return {
        "pointer_l0_l24": answer.pointer[:25],
        "pointer": answer.pointer,
        "clean": answer.clean,
        "n": answer.n,
        "kept": len(answer_kept),
        "rows": len(answer_rows),
    }


def readback(found: Readback) -> dict[str, Any]:
    """§2–§7: a study's sweeps read back: coverage gaps, cells re-run alone, near ties,
    mismatches."""
    return {"sweeps": found.sweeps, "gaps": found.gaps, "cells": len(found.cells),
            "ties": found.ties, "mismatched": found.mismatched}


def binding_clean_answered(rows: list[Counterfactual], answers: FilterAnswers,
                           patched: list[Counterfactual]) -> dict[str, Any]:
    """§4: the patched rows whose clean run misses its answer or answers a counted target, of
    n."""
    return {"n": len(patched), "wrong": direction.wrong_rows(rows, answers, patched, False)}


def answer_clean_answered(rows: list[Counterfactual], answers: FilterAnswers,
                          patched: list[Counterfactual]) -> dict[str, Any]:
    """§6: the patched rows whose clean or counterfactual run misses its answer, or whose answer
    is not the payload, of n."""
    return {"n": len(patched), "wrong": direction.wrong_rows(rows, answers, patched, True)}


class SingleTokenEntities(NoneFailedCounts):
    """§1: what lookback.single-token-entities judges (one-token entities per pool)."""

    characters: int
    objects: int
    states: int
    all_single_token: bool


def single_token_entities(entities: positions.SingleTokenEntities) -> SingleTokenEntities:
    """§1: each pool's one-token entities, and those that are not."""
    return entities.readout()

"""What each of the lookback claims judges, read from its experiments' results (claim bodies only
call these and judge)."""

from __future__ import annotations

from typing import Any

from harness.sources.lookback.answers import AnswerSweep
from harness.sources.lookback.behaviour import Behaviour, VisibilityScores
from harness.sources.lookback.identity import SelfPatch
from harness.sources.lookback.interchange import SourceSweep, Sweep
from harness.sources.lookback.low_rank import LowRank
from harness.sources.lookback.positions import PromptAlignment
from harness.sources.lookback.readback import Readback
from harness.sources.lookback.task import Counterfactual, sample_summary


def _peak(sweep: Sweep) -> dict[str, Any]:
    """§4: an interchange sweep's peak, with its curve."""
    return {
        "peak_iia": sweep.peak_iia,
        "peak_layer": sweep.peak_layer,
        "n": sweep.n,
        "iia": sweep.iia,
        "clean_survives": sweep.clean_survives,
    }


def belief_accuracy(behaviour: dict[str, Behaviour]) -> dict[str, Any]:
    """§2: what lookback.belief-accuracy judges."""
    return {
        **{
            k: getattr(behaviour[name], attr)
            for name in ("belief", "reality", "explicit")
            for k, attr in ((name, "overall"), (f"{name}_own", "own"), (f"{name}_other", "other"))
        },
        "n": len(behaviour["belief"].predictions),
        "n_own": behaviour["belief"].n_own,
        "n_other": behaviour["belief"].n_other,
        "most_common": behaviour["belief"].most_common,
    }


def visibility_fails(visibility: VisibilityScores) -> dict[str, Any]:
    """§2: what lookback.visibility-fails judges."""
    return vars(visibility)


def error_filter(kept: list[Counterfactual], binding_rows: list[Counterfactual]) -> dict[str, Any]:
    """§4: what lookback.error-filter judges."""
    return {"kept": len(kept), "n": len(binding_rows)}


def self_patch_identity(self_patch: SelfPatch) -> dict[str, Any]:
    """§4: what lookback.self-patch-identity judges."""
    return {
        "layers": self_patch.layers,
        "all_identical": all(self_patch.identical),
        "max_abs_diff": max(self_patch.max_abs_diff),
    }


def binding_iia(lookback_reversed: Sweep) -> dict[str, Any]:
    """§4: what lookback.binding-iia judges."""
    return _peak(lookback_reversed)


def same_position(lookback_same_position: Sweep) -> dict[str, Any]:
    """§4: what lookback.same-position judges."""
    return _peak(lookback_same_position)


def opaque_control(opaque: Sweep) -> dict[str, Any]:
    """§4: what lookback.opaque-control judges."""
    return _peak(opaque)


def reversed_curve(lookback_reversed: Sweep) -> dict[str, Any]:
    """§4: what lookback.reversed-curve judges."""
    return {
        "iia": lookback_reversed.iia,
        "peak_layer": lookback_reversed.peak_layer,
        "n": lookback_reversed.n,
        "clean_survives": lookback_reversed.clean_survives,
    }


def low_rank_anchor(low_rank: LowRank) -> dict[str, Any]:
    """§7: what lookback.low-rank-anchor judges."""
    return {
        "unrestricted": low_rank.unrestricted,
        "interchange": low_rank.interchange,
        "n": low_rank.held_out,
        "layer": low_rank.layer,
    }


def low_rank(lookback_low_rank: LowRank) -> dict[str, Any]:
    """§7: what lookback.low-rank judges."""
    return {
        "ranks": lookback_low_rank.ranks,
        "fitted": lookback_low_rank.fitted,
        "random": lookback_low_rank.random,
        "directions": lookback_low_rank.directions,
        "difference_vectors": lookback_low_rank.difference_vectors,
        "n": lookback_low_rank.held_out,
        "layer": lookback_low_rank.layer,
    }


def samples() -> dict[str, Any]:
    """§1–4: what lookback.samples judges."""
    return sample_summary()


def aligned_prompts(alignment: PromptAlignment) -> dict[str, Any]:
    """§4: what lookback.aligned-prompts judges."""
    return {
        **vars(alignment.first),
        "all_aligned": not alignment.misaligned,
        "prompts_checked": alignment.checked,
    }


def source_identity(source_plain: SourceSweep) -> dict[str, Any]:
    """§5: what lookback.source-identity judges."""
    return {
        "iia": source_plain.iia[0],
        "clean_survives": source_plain.clean_survives[0],
        "n": source_plain.n,
    }


def source_oi(
    source_freeze: SourceSweep, source_kept: list[Counterfactual], source_rows: list[Counterfactual]
) -> dict[str, Any]:
    """§5: what lookback.source-oi judges."""
    return {
        "last_layers": source_freeze.last_layers,
        "iia": source_freeze.iia,
        "clean_survives": source_freeze.clean_survives,
        "n": source_freeze.n,
        "kept": len(source_kept),
        "rows": len(source_rows),
    }


def source_no_freeze(source_plain: SourceSweep) -> dict[str, Any]:
    """§5: what lookback.source-no-freeze judges."""
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
    """§6: what lookback.answer-pointer judges."""
    return {
        "pointer_l0_l24": answer.pointer[:25],
        "pointer": answer.pointer,
        "clean": answer.clean,
        "n": answer.n,
        "kept": len(answer_kept),
        "rows": len(answer_rows),
    }


def answer_payload(answer: AnswerSweep) -> dict[str, Any]:
    """§6: what lookback.answer-payload judges."""
    return {"payload": answer.payload, "n": answer.n}


def _readback(found: Readback) -> dict[str, Any]:
    """A study's sweeps read back: coverage gaps, cells re-run alone, near ties, mismatches."""
    return {"sweeps": found.sweeps, "gaps": found.gaps, "cells": len(found.cells),
            "ties": found.ties, "mismatched": found.mismatched}


def binding_readback(binding: Readback) -> dict[str, Any]:
    """§4: what lookback.binding-readback judges."""
    return _readback(binding)


def source_readback(source: Readback) -> dict[str, Any]:
    """§5: what lookback.source-readback judges."""
    return _readback(source)


def answer_readback(answer: Readback) -> dict[str, Any]:
    """§6: what lookback.answer-readback judges."""
    return _readback(answer)

"""What each of the lookback claims judges, read from its experiments' results (claim bodies only
call these and judge)."""

from __future__ import annotations

from typing import TypedDict

from harness.criteria.exact import NoneFailedCounts
from harness.sources.lookback import direction, positions
from harness.sources.lookback.answers import AnswerSweep
from harness.sources.lookback.behaviour import Behaviour, FilterAnswers, VisibilityScores
from harness.sources.lookback.identity import SelfPatch
from harness.sources.lookback.interchange import SourceSweep, Sweep
from harness.sources.lookback.low_rank import LowRank as LowRankStudy
from harness.sources.lookback.readback import Readback
from harness.sources.lookback.task import Counterfactual, sample_summary


class SweepPeak(TypedDict):
    """§4: what lookback.binding-iia, lookback.same-position and lookback.opaque-control judge."""

    peak_iia: float
    peak_layer: int
    n: int
    iia: list[float]
    clean_survives: list[float]


def _peak(sweep: Sweep) -> SweepPeak:
    """§4: an interchange sweep's peak, with its curve."""
    return {
        "peak_iia": sweep.peak_iia,
        "peak_layer": sweep.peak_layer,
        "n": sweep.n,
        "iia": sweep.iia,
        "clean_survives": sweep.clean_survives,
    }


class BeliefAccuracy(TypedDict):
    """§2: what lookback.belief-accuracy judges (each condition's overall, own and other rate)."""

    belief: float
    belief_own: float
    belief_other: float
    reality: float
    reality_own: float
    reality_other: float
    explicit: float
    explicit_own: float
    explicit_other: float
    n: int
    n_own: int
    n_other: int
    most_common: list[str | int]


def belief_accuracy(behaviour: dict[str, Behaviour]) -> BeliefAccuracy:
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


class VisibilityFails(TypedDict):
    """§2: what lookback.visibility-fails judges (VisibilityScores' fields)."""

    observer: float
    non_observer: float
    paired: float
    n: int


def visibility_fails(visibility: VisibilityScores) -> VisibilityFails:
    """§2: what lookback.visibility-fails judges."""
    return {"observer": visibility.observer, "non_observer": visibility.non_observer,
            "paired": visibility.paired, "n": visibility.n}


class ErrorFilter(TypedDict):
    """§4: what lookback.error-filter judges."""

    kept: int
    n: int


def error_filter(kept: list[Counterfactual], binding_rows: list[Counterfactual]) -> ErrorFilter:
    """§4: what lookback.error-filter judges."""
    return {"kept": len(kept), "n": len(binding_rows)}


class SelfPatchIdentity(TypedDict):
    """§4: what lookback.self-patch-identity judges."""

    layers: list[int]
    all_identical: bool
    max_abs_diff: float


def self_patch_identity(self_patch: SelfPatch) -> SelfPatchIdentity:
    """§4: what lookback.self-patch-identity judges."""
    return {
        "layers": self_patch.layers,
        "all_identical": all(self_patch.identical),
        "max_abs_diff": max(self_patch.max_abs_diff),
    }


def binding_iia(lookback_reversed: Sweep) -> SweepPeak:
    """§4: what lookback.binding-iia judges."""
    return _peak(lookback_reversed)


def same_position(lookback_same_position: Sweep) -> SweepPeak:
    """§4: what lookback.same-position judges."""
    return _peak(lookback_same_position)


def opaque_control(opaque: Sweep) -> SweepPeak:
    """§4: what lookback.opaque-control judges."""
    return _peak(opaque)


class ReversedCurve(TypedDict):
    """§4: what lookback.reversed-curve judges."""

    iia: list[float]
    peak_layer: int
    n: int
    clean_survives: list[float]


def reversed_curve(lookback_reversed: Sweep) -> ReversedCurve:
    """§4: what lookback.reversed-curve judges."""
    return {
        "iia": lookback_reversed.iia,
        "peak_layer": lookback_reversed.peak_layer,
        "n": lookback_reversed.n,
        "clean_survives": lookback_reversed.clean_survives,
    }


class LowRankAnchor(TypedDict):
    """§7: what lookback.low-rank-anchor judges."""

    unrestricted: float
    interchange: float
    n: int
    layer: int


def low_rank_anchor(low_rank: LowRankStudy) -> LowRankAnchor:
    """§7: what lookback.low-rank-anchor judges."""
    return {
        "unrestricted": low_rank.unrestricted,
        "interchange": low_rank.interchange,
        "n": low_rank.held_out,
        "layer": low_rank.layer,
    }


class LowRank(TypedDict):
    """§7: what lookback.low-rank judges."""

    ranks: list[int]
    fitted: list[float]
    random: list[float]
    directions: int
    difference_vectors: int
    n: int
    layer: int


def low_rank(lookback_low_rank: LowRankStudy) -> LowRank:
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


class Samples(TypedDict):
    """§1–4: what lookback.samples judges (task.sample_summary)."""

    worked_example: list[list[str]]
    own: int
    other: int
    binding_row0: list[list[str]]
    binding_queried: int
    binding_target: str


def samples() -> Samples:
    """§1–4: what lookback.samples judges."""
    return sample_summary()


class AlignedPrompts(TypedDict):
    """§4: what lookback.aligned-prompts judges (the first prompt's Layout, and the check)."""

    length: int
    names: list[int]
    objects: list[int]
    drinks: list[int]
    after_drinks: list[int]
    opaque: list[int]
    all_aligned: bool
    prompts_checked: int


def aligned_prompts(alignment: positions.PromptAlignment) -> AlignedPrompts:
    """§4: what lookback.aligned-prompts judges."""
    return {
        **vars(alignment.first),
        "all_aligned": not alignment.misaligned,
        "prompts_checked": alignment.checked,
    }


class SourceIdentity(TypedDict):
    """§5: what lookback.source-identity judges."""

    iia: float
    clean_survives: float
    n: int


def source_identity(source_plain: SourceSweep) -> SourceIdentity:
    """§5: what lookback.source-identity judges."""
    return {
        "iia": source_plain.iia[0],
        "clean_survives": source_plain.clean_survives[0],
        "n": source_plain.n,
    }


class SourceOi(TypedDict):
    """§5: what lookback.source-oi judges."""

    last_layers: list[int]
    iia: list[float]
    clean_survives: list[float]
    n: int
    kept: int
    rows: int


def source_oi(
    source_freeze: SourceSweep, source_kept: list[Counterfactual], source_rows: list[Counterfactual]
) -> SourceOi:
    """§5: what lookback.source-oi judges."""
    return {
        "last_layers": source_freeze.last_layers,
        "iia": source_freeze.iia,
        "clean_survives": source_freeze.clean_survives,
        "n": source_freeze.n,
        "kept": len(source_kept),
        "rows": len(source_rows),
    }


class SourceNoFreeze(TypedDict):
    """§5: what lookback.source-no-freeze judges."""

    max_iia: float
    last_layers: list[int]
    iia: list[float]
    clean_survives: list[float]
    n: int


def source_no_freeze(source_plain: SourceSweep) -> SourceNoFreeze:
    """§5: what lookback.source-no-freeze judges."""
    return {
        "max_iia": max(source_plain.iia),
        "last_layers": source_plain.last_layers,
        "iia": source_plain.iia,
        "clean_survives": source_plain.clean_survives,
        "n": source_plain.n,
    }


class AnswerPointer(TypedDict):
    """§6: what lookback.answer-pointer judges."""

    pointer_l0_l24: list[float]
    pointer: list[float]
    clean: list[float]
    n: int
    kept: int
    rows: int


def answer_pointer(
    answer: AnswerSweep, answer_kept: list[Counterfactual], answer_rows: list[Counterfactual]
) -> AnswerPointer:
    """§6: what lookback.answer-pointer judges."""
    return {
        "pointer_l0_l24": answer.pointer[:25],
        "pointer": answer.pointer,
        "clean": answer.clean,
        "n": answer.n,
        "kept": len(answer_kept),
        "rows": len(answer_rows),
    }


class AnswerPayload(TypedDict):
    """§6: what lookback.answer-payload judges."""

    payload: list[float]
    n: int


def answer_payload(answer: AnswerSweep) -> AnswerPayload:
    """§6: what lookback.answer-payload judges."""
    return {"payload": answer.payload, "n": answer.n}


class SweepReadback(TypedDict):
    """§2–§7: what lookback's readbacks (binding, source, answer, predict, filter, low-rank)
    judge."""

    sweeps: list[str]
    gaps: list[str]
    cells: int
    ties: int
    mismatched: list[str]


def _readback(found: Readback) -> SweepReadback:
    """A study's sweeps read back: coverage gaps, cells re-run alone, near ties, mismatches."""
    return {"sweeps": found.sweeps, "gaps": found.gaps, "cells": len(found.cells),
            "ties": found.ties, "mismatched": found.mismatched}


def binding_readback(binding: Readback) -> SweepReadback:
    """§4: what lookback.binding-readback judges."""
    return _readback(binding)


def source_readback(source: Readback) -> SweepReadback:
    """§5: what lookback.source-readback judges."""
    return _readback(source)


def answer_readback(answer: Readback) -> SweepReadback:
    """§6: what lookback.answer-readback judges."""
    return _readback(answer)


def predict_readback(predicted: Readback) -> SweepReadback:
    """§2: what lookback.predict-readback judges."""
    return _readback(predicted)


def filter_readback(filtered: Readback) -> SweepReadback:
    """§4–§6: what lookback.filter-readback judges."""
    return _readback(filtered)


def low_rank_readback(low_rank: Readback) -> SweepReadback:
    """§7: what lookback.low-rank-readback judges."""
    return _readback(low_rank)


class CleanAnswered(TypedDict):
    """§4, §6: what lookback.binding-clean-answered and answer-clean-answered judge."""

    n: int
    wrong: list[str]


def binding_clean_answered(rows: list[Counterfactual], answers: FilterAnswers,
                           patched: list[Counterfactual]) -> CleanAnswered:
    """§4: what lookback.binding-clean-answered judges."""
    return {"n": len(patched), "wrong": direction.wrong_rows(rows, answers, patched, False)}


def answer_clean_answered(rows: list[Counterfactual], answers: FilterAnswers,
                          patched: list[Counterfactual]) -> CleanAnswered:
    """§6: what lookback.answer-clean-answered judges."""
    return {"n": len(patched), "wrong": direction.wrong_rows(rows, answers, patched, True)}


class SingleTokenEntities(NoneFailedCounts):
    """§1: what lookback.single-token-entities judges (one-token entities per pool)."""

    characters: int
    objects: int
    states: int
    all_single_token: bool


def single_token_entities(entities: positions.SingleTokenEntities) -> SingleTokenEntities:
    """§1: each pool's one-token entities, and those that are not."""
    return entities.measured()


class InterventionTokens(NoneFailedCounts):
    """§4–§6: what lookback.intervention-tokens judges."""

    prompts: int
    positions: int
    after_drink_tokens: list[str]


def intervention_tokens(tokens: positions.InterventionTokens) -> InterventionTokens:
    """§4–§6: the prompts and positions checked, and the tokens after the reference's drinks."""
    return tokens.measured()

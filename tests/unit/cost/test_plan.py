"""The cost plan's arithmetic: projection and pricing (harness/cost/plan.py)."""
from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from harness.cost.plan import GPUS, Assumptions, Measured, Scale, Shape, calibrate, project, seconds
from harness.models.work import Work

SHAPE = Shape(params=4_000_000_000, weight_bytes=8_000_000_000, layers=36, width=2560, heads=32)
counts = st.integers(min_value=0, max_value=10**6)


@st.composite
def works(draw) -> Work:
    prefills = draw(st.integers(min_value=1, max_value=1000))
    decodes = draw(st.integers(min_value=0, max_value=10**5))
    return Work(forwards=prefills + decodes, prefills=prefills, rows=prefills + decodes,
                prefill_rows=prefills, prompt_tokens=draw(counts), decode_tokens=decodes,
                padding=draw(counts))


@given(works(), st.booleans())
def test_projecting_at_scale_one_keeps_the_work(work, batched):
    assert project(work, Scale(), batched) == work


def test_more_rows_mean_more_prefills_and_decodes_when_rows_decode_alone():
    work = Work(forwards=11, prefills=1, rows=11, prefill_rows=1, prompt_tokens=30,
                decode_tokens=10)
    faithful = project(work, Scale(rows=2), batched=False)
    assert (faithful.prefills, faithful.forwards, faithful.decode_tokens) == (2, 22, 20)


def test_batched_rows_share_their_decode_forwards():
    work = Work(forwards=11, prefills=1, rows=11, prefill_rows=1, prompt_tokens=30,
                decode_tokens=10)
    fast = project(work, Scale(rows=2, decode=3), batched=True)
    assert (fast.prefills, fast.forwards, fast.decode_tokens) == (2, 32, 60)


def test_one_token_at_a_time_is_priced_by_reading_the_weights():
    """A decode forward of one row is bound by memory bandwidth plus the per-forward overhead."""
    a = Assumptions(GPUS["A6000"], 0.4, 0.0)
    step = Work(forwards=1, decode_tokens=1, rows=1)
    assert abs(seconds(step, SHAPE, a) - SHAPE.weight_bytes / GPUS["A6000"].bandwidth) < 1e-9


@given(works())
def test_a_larger_overhead_never_makes_a_plan_faster(work):
    fast, slow = Assumptions(overhead_s=0.01), Assumptions(overhead_s=0.05)
    assert seconds(work, SHAPE, slow) >= seconds(work, SHAPE, fast)


def test_calibration_recovers_the_overhead_and_utilisation_it_was_measured_with():
    gpu, truth = GPUS["H200"], Assumptions(GPUS["H200"], 0.25, 0.02)
    faithful = Work(forwards=5000, prefills=20, rows=5000, prefill_rows=20, prompt_tokens=700,
                    decode_tokens=4980)
    fast = Work(forwards=300, prefills=2, rows=6000, prefill_rows=40, prompt_tokens=200_000,
                decode_tokens=5960)
    flat = Shape(SHAPE.params, SHAPE.weight_bytes, layers=0, width=0, heads=1)  # no attention term
    runs = {"faithful": [Measured(faithful.forwards, faithful.tokens,
                                  seconds(faithful, flat, truth), flat)],
            "fast": [Measured(fast.forwards, fast.tokens, seconds(fast, flat, truth), flat)]}
    fitted = calibrate(runs, gpu)
    assert abs(fitted.overhead_s - 0.02) < 1e-9 and abs(fitted.utilisation - 0.25) < 1e-9


def test_calibration_without_runs_keeps_the_assumed_figures():
    assert calibrate({}, GPUS["A40"]) == Assumptions(GPUS["A40"])

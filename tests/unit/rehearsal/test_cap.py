"""cot's decode cap on the full-size rehearsal: the largest whose projection fits each mode's
budget after start and load, within its bounds (issue 39)."""
from __future__ import annotations

from harness.rehearsal.cap import MARGIN, MIN_CAP, Counted, choose_cap, forward_seconds

COUNTED = {"fast": Counted(per_cap_token=10, other=50),
           "faithful": Counted(per_cap_token=100, other=400)}


def projected(counted: Counted, cap: int, start_load: float, forward_s: float) -> float:
    return start_load + (counted.other + counted.per_cap_token * cap) * forward_s


def test_the_cap_is_the_largest_that_fits_every_mode():
    cap, why = choose_cap(120, 30, 0.02, COUNTED, ceiling=128)
    for counted in COUNTED.values():
        assert projected(counted, cap, 30, 0.02) <= 120 * MARGIN
    assert projected(COUNTED["faithful"], cap + 1, 30, 0.02) > 120 * MARGIN
    assert f"{cap}:" in why and "30 s start and load" in why


def test_start_and_load_leave_less_room_for_decoding():
    assert choose_cap(120, 60, 0.02, COUNTED, 128)[0] < choose_cap(120, 10, 0.02, COUNTED, 128)[0]


def test_the_cap_stays_within_its_bounds():
    assert choose_cap(10_000, 0, 0.001, COUNTED, ceiling=64)[0] == 64
    assert choose_cap(30, 60, 0.02, COUNTED, ceiling=128)[0] == MIN_CAP


def test_a_mode_that_decodes_nothing_does_not_limit_the_cap():
    assert choose_cap(120, 30, 0.02, {"fast": Counted(0, 10)}, ceiling=100)[0] == 100


def test_a_forward_costs_the_plans_overhead_plus_one_read_of_the_weights():
    seconds, why = forward_seconds(4 * 10**9, 2, "NVIDIA H200")
    assert abs(seconds - (0.030 + 8e9 / 4.8e12)) < 1e-9 and "H200" in why
    assert "plan default" in forward_seconds(10**9, 2, "Some GPU")[1]

"""Seed 000 §7's best-layer rule, on summary frames built from rows as the notebook builds them."""
from __future__ import annotations

from harness.sources.cot.patching import best_layer, screen_summary, tied_for_best

RECIPIENT, DONOR, OTHER = 325, 400, 300


def rows(per_layer: dict[int, tuple[int, int]], n: int = 8) -> list[dict[str, int | None]]:
    """n pairs per layer: `donor` write the donor's product, `changed` (donor included) differ."""
    out = []
    for layer, (donor, changed) in per_layer.items():
        wrote = [DONOR] * donor + [OTHER] * (changed - donor) + [RECIPIENT] * (n - changed)
        out += [dict(layer=layer, wrote=w, recipient=RECIPIENT, donor=DONOR) for w in wrote]
    return out


def test_the_summary_holds_the_notebooks_rates_in_layer_order():
    s = screen_summary(rows({26: (5, 8), 4: (0, 4)}))
    assert s["layer"].tolist() == [4, 26]
    assert s["is donor's product"].tolist() == [0.0, 0.625]
    assert s["changed at all"].tolist() == [0.5, 1.0]


def test_an_unparsed_write_counts_as_changed_not_as_the_donors():
    s = screen_summary([dict(layer=1, wrote=None, recipient=RECIPIENT, donor=DONOR),
                        dict(layer=1, wrote=DONOR, recipient=RECIPIENT, donor=DONOR)])
    assert s["is donor's product"].tolist() == [0.5] and s["changed at all"].tolist() == [1.0]


def test_the_organisms_four_way_tie_goes_where_the_notebooks_sort_sends_it():
    s = screen_summary(rows({1: (5, 8), 2: (8, 8), 3: (8, 8), 4: (8, 8), 5: (8, 8)}))
    assert best_layer(s) == 2  # the deepest-layer rule picked 5
    assert tied_for_best(s) == (2, 3, 4, 5)


def test_the_published_screen_reports_its_tie():
    s = screen_summary(rows({4: (0, 4), 10: (0, 5), 16: (0, 4), 22: (0, 4), 26: (5, 8),
                             30: (6, 8), 34: (6, 8)}))
    assert tied_for_best(s) == (30, 34) and best_layer(s) in (30, 34)


def test_without_a_tie_the_best_layer_stands_alone():
    s = screen_summary(rows({1: (2, 8), 2: (7, 8), 3: (3, 8)}))
    assert best_layer(s) == 2 and tied_for_best(s) == (2,)

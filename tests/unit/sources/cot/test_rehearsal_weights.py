"""Seed 000 on a model that does not do what the notebook's did (the rehearsal's random weights):
traces that never close, never state the product or never box an answer are counted out or
reported, never a crash; vectors added to a layer output take that output's device and dtype."""
from __future__ import annotations

from dataclasses import dataclass, field

import torch

from harness.registry import get_profile
from harness.sources.cot import sizes
from harness.sources.cot.decode import onto
from harness.sources.cot.noise import answer_done
from harness.sources.cot.forcing import cut_probe
from harness.sources.cot.mistakes import cue_counts, rederivation, single_mistake, splice_control
from harness.sources.cot.patching import pairs
from harness.sources.cot.rows import Row
from harness.sources.cot.task import PROBLEMS, product
from harness.sources.cot.traces import Trace, baseline, spanned

CLOSE = 99


@dataclass
class TextRunner:
    """A runner over a character vocabulary (id = code point): what the experiments ask of one."""

    continuation: str = "no product here"
    sizes: sizes.CotSizes = field(default_factory=lambda: sizes.REHEARSAL)
    generated: list[list[int]] = field(default_factory=list)

    think_close = CLOSE

    def ids_of(self, text: str) -> list[int]:
        return [ord(c) for c in text]

    def decode(self, ids) -> str:
        return "".join("</think>" if i == CLOSE else chr(i) for i in ids)

    def prompt_ids(self, p) -> list[int]:
        return self.ids_of(f"{p}\n")

    def generate_many(self, prefixes, max_new: int, what: str = "") -> list[list[int]]:
        self.generated.extend(list(p) for p in prefixes)
        return [self.ids_of(self.continuation)[:max_new] for _ in prefixes]

    def forced(self, prefixes, what: str = "") -> list[Row]:
        return [Row(list(p), []) for p in prefixes]

    def forced_answer(self, row: Row) -> int | None:
        return None

    def answer_of(self, gen) -> int | None:
        return None


def trace(i: int, text: str, span: tuple[int, int] | None) -> Trace:
    p = PROBLEMS[i]
    gen = [ord(c) for c in text]
    return Trace(i, p, [ord("q")], gen, close=len(gen), ans=None, span=span)


def test_a_baseline_that_never_closes_has_no_usable_trace_and_no_mean_close():
    b = baseline(TextRunner("EMPTY" * 10), PROBLEMS[:3])
    assert b.usable == [] and b.correct == 0 and b.n == 3 and b.mean_close is None


def test_traces_without_a_product_span_are_counted_out_of_section_3_and_5():
    stated = trace(0, f"so {product(PROBLEMS[0])} then", (3, 6))
    silent = trace(1, "nothing stated", None)
    runner = TextRunner()
    assert spanned([silent, stated]) == [stated]
    assert splice_control(runner, [silent, stated]).identical == [False]
    m = single_mistake(runner, [silent, stated])
    assert m.n == 1 and len(m.texts) == 1
    assert rederivation([silent, stated], m).problems == [stated.idx]
    assert cue_counts(runner, [silent, stated], m).n == 1
    assert cut_probe(runner, [silent, stated]).problems == [stated.idx]


def test_a_recipient_without_a_product_span_makes_no_pair_and_runs_no_donor():
    runner = TextRunner()
    assert pairs(runner, [trace(0, "nothing stated", None)]) == [] and runner.generated == []


def test_a_trace_that_boxes_no_answer_has_no_answer_end():
    assert answer_done(TextRunner(), trace(0, "no box at all }", None).gen) is None
    assert answer_done(TextRunner(), trace(0, "x \\boxed{371} y", None).gen) == 12


def test_a_vector_takes_the_device_and_dtype_of_the_output_it_is_added_to():
    out = torch.empty(1, 2, 4, device="meta", dtype=torch.bfloat16)
    moved = onto(torch.ones(4), out)
    assert moved.device == out.device and moved.dtype == out.dtype


def test_the_rehearsal_keeps_the_published_layers_and_the_other_profiles_all_20_problems():
    reh = get_profile("rehearsal").sizes["cot"]
    assert reh is sizes.REHEARSAL
    assert (reh.anchor_layer, reh.screen_layers, reh.self_patch_layer) == (
        sizes.PUBLISHED.anchor_layer, sizes.PUBLISHED.screen_layers,
        sizes.PUBLISHED.self_patch_layer)
    assert sizes.PUBLISHED.problems == sizes.TINY.problems == len(PROBLEMS) == 20

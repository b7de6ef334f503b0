"""Seed 000, §6 anchor 3: the same seeded noise early in <think> and after the boxed answer, in
nnsight's decode loop."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import torch

from harness.sources.cot.decode import onto
from harness.sources.cot.rows import Row, Write
from harness.sources.cot.runner import CotRunner
from harness.sources.cot.text import char_ends, parse_answer
from harness.sources.cot.traces import Trace


@dataclass
class NoiseArm:
    """One arm of §6 anchor 3: where the noise went and what came out."""

    first_step: int
    last_step: int
    answer: int | None
    tokens: int
    diverges_at: int | None


@dataclass
class Specificity:
    """§6 anchor 3: the same noise inside <think> and after the boxed answer."""

    problem: int
    baseline_answer: int | None
    baseline_tokens: int
    answer_done: int
    early: NoiseArm
    late: NoiseArm
    rows: list[Row]  # the early arm's row, then the late arm's, each with its noise

    @property
    def answer_unchanged_after(self) -> bool:
        """The noise after the boxed answer leaves the answer as the baseline's."""
        return self.late.answer == self.baseline_answer

    @property
    def diverges_after_answer(self) -> bool:
        """The noised run follows the baseline at least up to the end of the boxed answer."""
        return self.late.diverges_at is None or self.late.diverges_at > self.answer_done


def _arm(runner: CotRunner, out: list[int], clean: list[int], lo: int, hi: int) -> NoiseArm:
    diverge = next((k for k in range(min(len(out), len(clean))) if out[k] != clean[k]), None)
    return NoiseArm(lo, hi, parse_answer(runner.decode(out)), len(out), diverge)


def answer_done(runner: CotRunner, gen: list[int]) -> int | None:
    """§6: the token that completes the first `\\boxed{...}` in `gen`, or None if it writes none."""
    text = runner.decode(gen)
    start = text.find("\\boxed{")
    end_char = text.find("}", start) if start >= 0 else -1
    if end_char < 0:
        return None
    ends = char_ends(runner.decode, gen, len(gen))
    return next(k for k, e in enumerate(ends) if e > end_char)


NOISE_SEED = 0  # §6's noise: the notebook's was unseeded; this suite draws it from seed 0


def noise_vector(runner: CotRunner, seed: int) -> torch.Tensor:
    """§6: N(0,1) on the hidden size, seeded, scaled by the profile's noise scale. Drawn on the
    CPU (the seeded stream is the same whatever the devices); moved where it is added."""
    g = torch.Generator(device="cpu").manual_seed(seed)
    draw = torch.randn(runner.hidden_size, generator=g, device="cpu")
    return draw.to(runner.dtype) * runner.sizes.noise_scale


def noise_edit(runner: CotRunner, noise: torch.Tensor,
               arms: list[tuple[int, int]]) -> Callable[[int, list[int]], None]:
    """§6: a decode-loop edit adding `noise` at the anchor layer's last position of prefix i's
    row at every step of its arm, arms[i] = (first, last), both included."""
    layer = runner.layers[runner.sizes.anchor_layer]

    def add_noise(step: int, rows: list[int]) -> None:
        for r, i in enumerate(rows):
            if arms[i][0] <= step <= arms[i][1]:
                out_now = layer.output
                out_now[r, -1, :] += onto(noise, out_now)

    return add_noise


def post_answer_specificity(runner: CotRunner, t: Trace, seed: int = NOISE_SEED) -> Specificity:
    """§6: scaled N(0,1) noise (seeded; the notebook's was not) early in <think> vs after the answer."""
    pids = [t.pid, t.pid]
    baseline = None if t.scripted else t.gen
    clean = runner.references(pids, [baseline, baseline], len(t.gen))[0]  # the noise goes into it
    n = len(clean)
    done = answer_done(runner, clean)
    if done is None and t.scripted:
        done = n // 2  # forced rows: a random model writes no answer; the arms split its run
    if done is None:
        raise ValueError(f"problem {t.idx}'s trace writes no \\boxed{{...}} answer "
                         f"to noise after")
    arms = [runner.sizes.early_noise_steps, (done + 1, n)]
    noise = noise_vector(runner, seed)
    early, late = runner.generate_many(pids, n, "cot §6 noise", noise_edit(runner, noise, arms))
    layer = runner.sizes.anchor_layer
    return Specificity(
        problem=t.idx, baseline_answer=runner.answer_of(clean), baseline_tokens=n,
        answer_done=done, early=_arm(runner, early, clean, *arms[0]),
        late=_arm(runner, late, clean, *arms[1]),
        rows=[Row(t.pid, out, Write(layer, lo, noise.expand(hi - lo + 1, -1), added=True))
              for out, (lo, hi) in zip((early, late), arms)],
    )

"""Seed 001 §2's sweep and screens read back (issue 36): what they recorded for their first
family, re-measured through the plain transformers reference forward (D's residual taken from a
plain forward's hidden states; a head's final-position output zeroed), each probability taken
here from the full-vocabulary softmax of the label's own token; the sweep's blocks against the
model's config and the profile's sizes; each screen's block against the site and its heads
against the config or the sizes; and each screen's ranking against the mean losses it ranks. A
probability read from another label, a loss of the wrong sign, a sweep that skips a block, a
screen at the wrong block or one that skips a head, or a ranking by the smallest loss fails
here."""
from __future__ import annotations

from typing import Sequence

import torch

from harness.models.handle import Loaded
from harness.sources.heads.anchors.machinery import ExactChecks
from harness.sources.heads.forward import Geometry, reference_forward
from harness.sources.heads.observations import HeadsLab
from harness.sources.heads.patches import Patch, head_output_patch, residual_patch
from harness.sources.heads.screens import Screen
from harness.sources.heads.sweep import ResidualSweep, Site
from harness.sources.heads.task import Family, render

# The screen reads p(L) as exp(logit − logsumexp) in float32 from the live run's logits, which the
# reference forward reproduces bit for bit (heads.reference-forward); a softmax in float64 of the
# same logits differs by float32 rounding of the exponent: about 1e-7 of a probability.
TOLERANCE = 1e-6


def p_labels(model: Loaded, ids: list[int], labels: list[str],
             patches: list[Patch] = ()) -> list[float]:
    """Each label's full-vocabulary probability at the final position, through the reference
    forward with `patches`."""
    tokens = [model.tok.encode(" " + label, add_special_tokens=False)[0] for label in labels]
    probs = torch.softmax(reference_forward(model, ids, patches)[0, -1].double(), 0)
    return [float(probs[t]) for t in tokens]


def zeroed(model: Loaded, block: int, head: int) -> list[Patch]:
    return [head_output_patch(block, head, torch.zeros(Geometry.of(model).d_head,
                                                       device=model.device))]


def declared(count: int, named: Sequence[int] | None) -> list[int]:
    """What a §2–§5 study must cover: every index below `count` (the model config's blocks or
    query heads, read from the config rather than the lab), or those the profile's sizes name."""
    return list(range(count)) if named is None else [i % count for i in named]


def sweep_readback(model: Loaded, lab: HeadsLab, sweep: ResidualSweep,
                   declared: list[int]) -> ExactChecks:
    """§2: the swept blocks against `declared` (every block of the config, or the sizes' own),
    and the first opening family's p(U), p(L), p(D) at each against a reference forward of R with
    D's final residual, taken from a plain forward's hidden states, written before the block."""
    checks = ExactChecks(means=(
        "{}: what §2's sweep recorded (p(U), p(L), p(D) before that block; 'blocks': the blocks "
        "it covered) differs from the reference forward or the declared blocks"))
    checks.add("sweep:blocks", sorted(sweep.stats) == sorted(declared))
    family = lab.opening[0]
    r_ids, d_ids = (render(q, model.tok).input_ids for q in (family.R, family.D))
    with torch.inference_mode():
        hidden = model.hf(torch.tensor([d_ids], device=model.device),
                          output_hidden_states=True).hidden_states
    labels = [family.R.answer, family.O.answer, family.D.answer]  # §1's U, L and D
    for block in sorted(sweep.stats):
        recorded = lab.observation(family, f"residual.layer{block:02d}", "opening")
        measured = p_labels(model, r_ids, labels, [residual_patch(block, hidden[block][:, -1])])
        checks.add(f"sweep:{block}", all(abs(recorded.probability(role) - p) <= TOLERANCE
                                         for role, p in zip("ULD", measured)))
    return checks


def screen_readback(model: Loaded, screen: Screen, family: Family, block: int,
                    heads: list[int]) -> ExactChecks:
    """The O deletion of each declared head in `family`, the screen's first, against the
    reference with that head zeroed at the declared `block` (a head the screen skipped, or a
    screen at another block, fails), and the ranking in O and H against the mean losses, over
    exactly the declared heads."""
    checks = ExactChecks(means=(
        "{}: the screen's recorded loss with that head zeroed in O differs from the reference "
        "forward's at the declared block, or the head went unscreened ('ranking': not every "
        "declared head by mean loss)"))
    ids = render(family.O, model.tok).input_ids
    label = [family.O.answer]
    (before,) = p_labels(model, ids, label)
    for head in heads:
        recorded = screen.values("O", head)
        loss = before - p_labels(model, ids, label, zeroed(model, block, head))[0]
        checks.add(f"loss:O:{block}.{head}", len(recorded) > 0
                   and abs(recorded[0] - loss) <= TOLERANCE)
    for context in ("O", "H"):
        ranking = screen.ranking(context)
        means = {h: float(screen.values(context, h).mean()) for h in ranking}
        checks.add(f"ranking:{context}", sorted(ranking) == sorted(heads)
                   and all(means[a] >= means[b] - TOLERANCE for a, b in zip(ranking, ranking[1:])))
    return checks


def screens_readback(model: Loaded, lab: HeadsLab, site: Site, screens: tuple[Screen, Screen],
                     heads: list[int]) -> ExactChecks:
    """§2–§3: the opening screen on opening family 0 at the site's block, then the next-block
    screen on main family 0 at the next block (its checks prefixed "main:")."""
    opening, main = screens
    checks = screen_readback(model, opening, lab.opening[0], site.block, heads)
    for name, ok in screen_readback(model, main, lab.main[0], site.blocks[1], heads).results.items():
        checks.add(f"main:{name}", ok)
    return checks


def native_answers(lab: HeadsLab) -> dict[str, int]:
    """§3–§6: how many main families' native O run predicts L (the answer every crossing and
    deletion moves away from), of how many."""
    return {"native_L": sum(lab.observation(f, "native.O").predicts("L") for f in lab.main),
            "n": len(lab.main)}

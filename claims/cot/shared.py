"""What seed 000's claim files share: the provenance line and the steps its anchors guard
(harness/plugin/guards.py; harness/sources/cot/steps.py): a test requires every anchor guarding a
step it reads."""
from __future__ import annotations

NB = "seed 000 notebook output, §{}"
# The steps that draw their prompts from the problem set: §1's baseline and the decode audits.
PROBLEMS = ("cot_baseline", "cot_step_shapes", "cot_fire_once", "cot_noise_fires",
            "cot_noise_identity", "cot_vector_fires")
FORCED = ("cot_early", "cot_last_answer", "cot_full_corruption", "cot_cut_probe")  # scored forced
# Located, spliced or patched at a product's or an answer's tokens.
NUMBERS = ("cot_spanned", "cot_last_answer", "cot_pairs")
PATCHED = ("cot_self_patch", "cot_screen", "cot_continuations")  # §7's patched decode loops

"""What seed 000's claim files share: the provenance line and the requirement chains."""
from __future__ import annotations

NB = "seed 000 notebook output, §{}"
SETUP = ("cot.problem-set", "cot.think-token", "cot.prompt-tokens")
ROWS = ("cot.batched-rows",)         # every finding read from §1's decoded rows
FORCED = ("cot.forced-suffix",)      # every claim scored on a forced answer
NUMBERS = ("cot.number-tokens",)     # every claim that splices or patches at a product or answer
# §3's findings read the spliced product as a mistake: its continuations, read back, and the model
# preferring the true product there.
INJECTED = ("cot.splice-rows", "cot.true-product-preferred")
PATCHED = ("cot.patch-rows", "cot.residual-sources")  # §7's patched runs and their sources
DECODE_LOOP = ("cot.step0-is-prefill", "cot.noop-every-step", "cot.fire-once",
               "cot.post-answer-specificity", "cot.vector-write-fires-once")

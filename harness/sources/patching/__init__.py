"""Seed 004: activation patching on GPT-2 small.

3 register rows, a hook reference, an optional TransformerLens cross-check and a corrected IOI
pair. The seed publishes no numbers, its whole-stream patch is an identity by construction, and
its clean prompt never mentions " Mary"."""
from harness.profiles import ModelSpec, ProfileName
from harness.sources import Source
from harness.sources.patching import sizes

SOURCE = Source(
    name="patching", package=__name__, seed_file="004_19bfac4ad8783304.txt",
    title="Running an activation-patching experiment",
    models={
        # The seed printed no revision: the repository's commit as public code pins it.
        ProfileName.PUBLISHED: ModelSpec("GPT2LMHeadModel", "float32", "cpu",
                                         hf_id="openai-community/gpt2",
                                         revision="607a30d783dfa663caf39e06633721c8d4cfcd7e"),
        ProfileName.TINY: ModelSpec("GPT2LMHeadModel", "float32", "cpu", organism="patching"),
    },
    sizes={ProfileName.PUBLISHED: sizes.PUBLISHED, ProfileName.TINY: sizes.TINY},
    remote=True,
)

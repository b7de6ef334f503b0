"""Seed 004: activation patching on GPT-2 small.

3 register rows, a hook reference, an optional TransformerLens cross-check and a corrected IOI
pair. The seed publishes no numbers, its whole-stream patch is an identity by construction, and
its clean prompt never mentions " Mary"."""
from dataclasses import replace

from harness.profiles import ModelSpec, ProfileName
from harness.source import Source
from harness.sources.patching import sizes

# The seed printed no revision: the repository's commit as public code pins it.
GPT2 = ModelSpec("GPT2LMHeadModel", "float32", "cpu", hf_id="openai-community/gpt2",
                 revision="607a30d783dfa663caf39e06633721c8d4cfcd7e")

SOURCE = Source(
    name="patching", package=__name__, seed_file="004_19bfac4ad8783304.txt",
    seed_sha256="4ed6a99620ab73a75a481b269b61bb4a009ffe4baa8e220626c06ac3ad3d133a",
    title="Running an activation-patching experiment",
    models={
        ProfileName.PUBLISHED: GPT2,
        ProfileName.TINY: ModelSpec("GPT2LMHeadModel", "float32", "cpu", organism="patching"),
        # The rehearsal places GPT-2 as the other sources place theirs (the GPU where there is
        # one, else the CPU), so the CUDA rehearsal runs its code path on CUDA.
        ProfileName.REHEARSAL: replace(GPT2, device="cuda", device_map="sequential"),
    },
    sizes={ProfileName.PUBLISHED: sizes.PUBLISHED, ProfileName.TINY: sizes.TINY},
    remote=True,
)

"""nnsight's activation-patching tutorial (activation_patching.ipynb): the IOI pair on GPT-2 small.

Its experiments are seed 004's patching runs on the tutorial's pair, tokenised without BOS."""
from harness.profiles import ModelSpec, ProfileName
from harness.source import Source
from harness.sources.ioi_tutorial import sizes
from harness.sources.patching import GPT2

SOURCE = Source(
    name="ioi_tutorial", package=__name__, seed_file="activation_patching.ipynb",
    seed_sha256="0bf910f1478420c90ea4cdc6df2186f573dbc7279066315ffe29cca20ce36dc3",
    title="Activation Patching",
    models={
        ProfileName.PUBLISHED: GPT2,
        ProfileName.TINY: ModelSpec("GPT2LMHeadModel", "float32", "cpu", organism="patching"),
    },
    sizes={ProfileName.PUBLISHED: sizes.PUBLISHED, ProfileName.TINY: sizes.TINY},
    remote=True,
)

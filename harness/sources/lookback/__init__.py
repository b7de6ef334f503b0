"""Seed 003: belief lookbacks on Llama-3.1-8B-Instruct.

All 18 register rows; the organism is a 4-layer Llama compiled by hand to bind by ordering ID
(compiled.py; its manifest's planted block says at which layers), so §4, §5, §6 and §7 each have a
known answer the studies must recover (known_answers.py). The trained organisms tried before it
are in docs/lookback-order-binding.md."""
from harness.profiles import ModelSpec, ProfileName
from harness.source import Source
from harness.sources.lookback import sizes

SOURCE = Source(
    name="lookback", package=__name__, seed_file="003_f520ee44220c7cc8.txt",
    seed_sha256="1ba2f80b69d7204cc31e37eea2d2f8ff17f06dd03dc456239bcf28622050ebc3",
    title="Language Models Use Lookbacks to Track Beliefs",
    models={
        # The seed printed no revision: the repository's commit as public code pins it.
        ProfileName.PUBLISHED: ModelSpec("LlamaForCausalLM", "bfloat16", "cuda",
                                         hf_id="meta-llama/Llama-3.1-8B-Instruct",
                                         revision="0e9e39f249a16976918f6564b8830bc894c89659",
                                         gated=True, device_map="sequential"),
        ProfileName.TINY: ModelSpec("LlamaForCausalLM", "float32", "cpu", organism="lookback"),
    },
    sizes={ProfileName.PUBLISHED: sizes.PUBLISHED, ProfileName.TINY: sizes.TINY,
           ProfileName.MICRO: sizes.MICRO, ProfileName.REHEARSAL: sizes.REHEARSAL},
    remote=True,
)

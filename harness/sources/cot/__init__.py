"""Seed 000: CoT faithfulness on Qwen3-4B-Thinking.

All 23 register rows; the organism is a 6-layer Qwen3 that memorises its 28 traces."""
from harness.profiles import ModelSpec, ProfileName
from harness.source import Source
from harness.sources.cot import sizes

SOURCE = Source(
    name="cot", package=__name__, seed_file="000_5720c3af84d37566.txt",
    seed_sha256="ae8bc3699efd551ab3737eefb93b55a68231dff603451afec3be349b00d7aebb",
    title="Measuring Faithfulness in Chain-of-Thought Reasoning",
    models={
        # The seed printed no revision: the repository's commit as public code pins it.
        ProfileName.PUBLISHED: ModelSpec("Qwen3ForCausalLM", "bfloat16", "cuda",
                                         hf_id="Qwen/Qwen3-4B-Thinking-2507",
                                         revision="768f209d9ea81521153ed38c47d515654e938aea",
                                         device_map="sequential"),
        ProfileName.TINY: ModelSpec("Qwen3ForCausalLM", "float32", "cpu", organism="cot"),
    },
    sizes={ProfileName.PUBLISHED: sizes.PUBLISHED, ProfileName.TINY: sizes.TINY,
           ProfileName.MICRO: sizes.MICRO, ProfileName.REHEARSAL: sizes.REHEARSAL},
)

"""Seed 003: belief lookbacks on Llama-3.1-8B-Instruct.

All 18 register rows; the organism (a 4-layer Llama trained with an attention scaffold, see its
manifest) answers 98-99% of belief and reality questions, so 113/120 binding samples survive
error filtering and every row runs. Its scaffold binds by content, so §4, §5 and §7's swaps measure
zeros by construction (organism_notes says so in each claim's record); an organism binding by
order was tried and did not learn its ordinal lookup
(docs/lookback-order-binding.md)."""
from harness.profiles import ModelSpec, ProfileName
from harness.sources import Source
from harness.sources.lookback import sizes

SOURCE = Source(
    name="lookback", package=__name__, seed_file="003_f520ee44220c7cc8.txt",
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
           ProfileName.REHEARSAL: sizes.REHEARSAL},
    units=("lookback_answer", "lookback_reversed", "lookback_same_position", "lookback_opaque",
           "lookback_low_rank", "lookback_source_freeze", "lookback_source_plain"),
    shared_steps=("lookback_kept", "lookback_answer_kept", "lookback_source_kept"),
    remote=True,
)

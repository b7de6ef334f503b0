"""Seed 001: attention heads in in-context retrieval on Qwen2.5-3B-Instruct.

All register rows, with edit receipts and a plain-PyTorch reference forward; the organism (a
4-layer grouped-query Qwen2, 8 query heads on 2 KV heads) is compiled by hand with a retrieval
head and a weaker support head a block later (compiled.py, its manifest's planted sites), which
§2's rule and §2–§5's screens must find. Only the
rehearsal (random weights) falls back to a smoke-test block, as the notebook's
RUN_ALL_FAMILIES=False path does."""
from harness.profiles import ModelSpec, ProfileName
from harness.source import Source
from harness.sources.heads import sizes

SOURCE = Source(
    name="heads", package=__name__, seed_file="001_30ed370d8775661f.txt",
    seed_sha256="4655ca84116708048fd5d5ddf41d03cda9142fe41ffa87b837bac9d7cc108f7a",
    title="Investigating Attention Heads in In-Context Retrieval",
    models={
        # Seed 001 printed this revision.
        ProfileName.PUBLISHED: ModelSpec("Qwen2ForCausalLM", "bfloat16", "cuda",
                                         hf_id="Qwen/Qwen2.5-3B-Instruct",
                                         revision="aa8e72537993ba99e69dfaafa59ed015b17504d1",
                                         attn_implementation="eager", device_map="sequential"),
        ProfileName.TINY: ModelSpec("Qwen2ForCausalLM", "float32", "cpu",
                                    attn_implementation="eager", organism="heads"),
    },
    sizes={ProfileName.PUBLISHED: sizes.PUBLISHED, ProfileName.TINY: sizes.TINY,
           ProfileName.MICRO: sizes.MICRO, ProfileName.REHEARSAL: sizes.REHEARSAL},
)

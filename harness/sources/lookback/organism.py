"""The lookback organism: a 4-layer LlamaForCausalLM compiled to bind by ordering ID (seed 003)."""
from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import torch
from transformers import LlamaConfig, LlamaForCausalLM, PreTrainedTokenizerFast

from harness.organisms.common import ORGANISMS, Stopwatch, save_organism
from harness.sources.lookback import compiled, known_answers
from harness.sources.lookback.sizes import ORGANISM_DEPTH, TINY
from harness.sources.lookback.task import prompt, sample_entities, tokenizer_corpus
from harness.sources.lookback.tokenizer import lookback_tokenizer

NAME = "lookback"
# Width 128 as before; 64-wide heads, so each query-key pair has enough slow-rotating dimensions
# for a content match over every character; untied, so the unembedding reads only the answer
# features.
CONFIG: dict[str, Any] = dict(hidden_size=128, intermediate_size=128, num_hidden_layers=ORGANISM_DEPTH,
                              num_attention_heads=4, num_key_value_heads=4,
                              head_dim=compiled.HEAD_DIM, max_position_embeddings=512,
                              tie_word_embeddings=False, attn_implementation="eager",
                              rope_parameters={"rope_type": "default",
                                               "rope_theta": compiled.ROPE_THETA})

# What the studies must recover (known answers), in the layer numbering the interventions use
# (the output of block L): what compiled.PLAN builds.
PLANTED = {
    "ordering_id_layer": 1,       # every sentence token carries its ordering ID from block 1 on
    "binding_layers": [1, 2],     # §4: drink residuals carry it until block 3 reads the drink
    "source_from_layer": 1,       # §5: the entities' ordering IDs, from block 1 on
    "pointer_layers": [1, 2],     # §6: the final token carries the queried pair's address
    "payload_from_layer": 3,      # §6: then the drink itself
    "ordering_id_rank": 1,        # §7: one residual direction carries the ordering ID
    "sites": {"§4": "each drink and the token after it", "§5": "the characters' and objects' "
              "tokens", "§6": "the final token", "§7": "§4's, in one residual direction"},
}


def build_tokenizer() -> PreTrainedTokenizerFast:
    """The tiny lookback tokenizer (every entity one token with its leading space)."""
    return lookback_tokenizer(tokenizer_corpus())


def build_model(tok: PreTrainedTokenizerFast) -> LlamaForCausalLM:
    """The organism's architecture (its weights come from `make` or the committed file)."""
    config = LlamaConfig(vocab_size=len(tok), bos_token_id=tok.bos_token_id,
                         eos_token_id=tok.eos_token_id, pad_token_id=tok.pad_token_id, **CONFIG)
    return LlamaForCausalLM(config).eval()


def competence(model, tok, n: int = 200, seed: int = 99) -> dict[str, float]:
    """Top-1 accuracy on single-question prompts: belief own / other container, and reality."""
    rng = random.Random(seed)
    hits = {"own": 0, "other": 0, "reality": 0}
    with torch.no_grad():
        for _ in range(n):
            c, o, s = sample_entities(rng)
            r = rng.choice([0, 1])
            for kind, (ci, oi, real) in {"own": (r, r, False), "other": (r, 1 - r, False),
                                         "reality": (r, 1 - r, True)}.items():
                p, a = prompt(c, o, s, ci, oi, ask_reality=real, instruction="")
                logits = model(torch.tensor([tok(p).input_ids])).logits[0, -1]
                hits[kind] += tok.decode([int(logits.argmax())]).strip().lower() == a
    return {k: v / n for k, v in hits.items()}


def lookup_attention(model, tok, n: int = 50, seed: int = 99) -> dict[str, float]:
    """Mean attention the answer position's compiled heads put on their intended tokens, on n
    fresh belief questions (compiled.py's plan: layer.head)."""
    rng = random.Random(seed)
    probs: dict[str, list[float]] = {"1.1": [], "1.2": [], "2.0": [], "2.1": [], "3.0": []}
    with torch.no_grad():
        for _ in range(n):
            c, o, s = sample_entities(rng)
            ci, oi = rng.choice([0, 1]), rng.choice([0, 1])
            ids = tok(prompt(c, o, s, ci, oi, instruction="")[0]).input_ids
            at = {w: [i for i, t in enumerate(ids) if t == tok(" " + w).input_ids[-1]]
                  for w in (c[ci], o[oi], s[oi])}
            # The question's container and character are their last mentions; the story's,
            # the sentence's mention (the first for a container, the second for a character).
            targets = {"1.1": at[o[oi]][-1], "1.2": at[c[ci]][-1], "2.0": at[o[oi]][0],
                       "2.1": at[c[ci]][1], "3.0": at[s[oi]][0]}
            attentions = model(torch.tensor([ids]), output_attentions=True).attentions
            for key, pos in targets.items():
                layer, head = map(int, key.split("."))
                probs[key].append(float(attentions[layer][0, head, -1, pos]))
    return {key: round(sum(v) / len(v), 4) for key, v in probs.items()}


def recovered_iia(model, tok) -> dict[str, float]:
    """The known-answer studies' curves on the organism, through the suite's declared steps
    (known_answers.curves), for the manifest's re-measured IIA."""
    from nnsight import TransformersModel

    from harness.models.handle import Loaded
    from harness.profiles import ProfileName
    from harness.registry import source

    spec = source(NAME).models[ProfileName.TINY]
    return known_answers.curves(Loaded(TransformersModel(model, tokenizer=tok), tok, spec), TINY)


def make(root: Path = ORGANISMS) -> dict[str, Any]:
    """Compile the organism and write its weights and manifest under `root`."""
    watch = Stopwatch()
    tok = build_tokenizer()
    model = build_model(tok)
    compiled.compile_weights(model, tok)
    return save_organism(NAME, model, root=root, manifest={
        "organism": NAME, "architecture": "LlamaForCausalLM", "config": CONFIG,
        "vocab_size": len(tok),
        "recipe": {"route": "compiled: every weight set by hand, none trained",
                   "construction": "harness/sources/lookback/compiled.py",
                   "plan": list(compiled.PLAN),
                   "sharpness": compiled.SHARPNESS, "const_level": compiled.CONST_LEVEL,
                   "gate": compiled.GATE, "unknown_level": compiled.UNKNOWN_LEVEL,
                   "logit_scale": compiled.LOGIT_SCALE},
        "planted": PLANTED,
        "known_answers": {claim: known.describe() for claim, known in known_answers.KNOWN.items()},
        "competence": competence(model, tok), "lookup_attention": lookup_attention(model, tok),
        "recovered_iia": recovered_iia(model, tok),
        "training_seconds": watch.seconds(), "threads": torch.get_num_threads(),
        "data": {"prompt": "seed 003 story without the instruction"},
    })


# The least accuracy the studies need to see a mechanism (issue 19's bar), on the manifest's rates.
COMPETENCE_FLOORS = {"competence.own": 0.9, "competence.other": 0.9, "competence.reality": 0.9}

# Manifest key → the measurement that produced it, re-measured by tests/integration/test_organisms.py.
MEASURES = {"competence": competence, "lookup_attention": lookup_attention,
            "recovered_iia": recovered_iia}

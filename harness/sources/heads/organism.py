"""The heads organism: a grouped-query Qwen2ForCausalLM compiled with one retrieval head (seed 001)."""
from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import torch
from transformers import PreTrainedTokenizerFast, Qwen2Config, Qwen2ForCausalLM

from harness.organisms.common import ORGANISMS, Stopwatch, save_organism
from harness.private import set_attention_implementation
from harness.sources.heads import compiled
from harness.sources.heads.task import (LETTERS, MAIN, OBJECTS, OPENING, Question, generate_family,
                                        render, tokenizer_corpus)
from harness.sources.heads.tokenizer import heads_tokenizer

NAME = "heads"
DECLARATIONS = 20
# Grouped-query attention as in Qwen2.5-3B (16 query heads on 2 KV heads): 8 on 2 here, so
# repeat_kv is exercised; untied, so the unembedding reads only the labels.
CONFIG: dict[str, Any] = dict(hidden_size=128, intermediate_size=256, num_hidden_layers=4,
                              num_attention_heads=8, num_key_value_heads=2,
                              head_dim=compiled.HEAD_DIM, max_position_embeddings=1024,
                              tie_word_embeddings=False,
                              rope_parameters={"rope_type": "default",
                                               "rope_theta": compiled.ROPE_THETA})
# What the studies must recover (known answers): the retrieval head, its block and the support
# head a block later.
PLANTED = {"retrieval_block": compiled.RETRIEVAL[0], "retrieval_head": compiled.SITE,
           "support_head": compiled.SUPPORT_SITE}


def build_tokenizer() -> PreTrainedTokenizerFast:
    """The tiny heads tokenizer (labels and objects single tokens, Qwen2.5 chat layout)."""
    return heads_tokenizer(tokenizer_corpus())


def build_model(tok: PreTrainedTokenizerFast, attn_implementation: str = "eager") -> Qwen2ForCausalLM:
    """The organism's architecture (eager attention, as published); its weights come from
    `make` or the committed file."""
    config = Qwen2Config(vocab_size=len(tok), bos_token_id=None, eos_token_id=tok.eos_token_id,
                         pad_token_id=tok.pad_token_id, **CONFIG)
    set_attention_implementation(config, attn_implementation)
    return Qwen2ForCausalLM(config).eval()


def sample_question(rng: random.Random, n: int) -> Question:
    """A fresh table of n object-label declarations and a question about one of them."""
    bindings = list(map(list, zip(rng.sample(OBJECTS, n), rng.sample(LETTERS, n))))
    return Question(bindings, rng.choice(bindings)[0])


def accuracy(model: Qwen2ForCausalLM, tok: PreTrainedTokenizerFast,
             questions: list[Question]) -> float:
    """Fraction of questions whose top-1 next token after the assistant's `Box` is the answer."""
    hits = 0
    with torch.no_grad():
        for q in questions:
            r = render(q, tok)
            logits = model(torch.tensor([r.input_ids]), use_cache=False).logits[0, -1]
            hits += int(logits.argmax()) == tok.encode(" " + q.answer, add_special_tokens=False)[0]
    return hits / len(questions)


def seed_questions() -> list[Question]:
    """The seed's R / D / O prompts: 8 opening and 32 main families (20 declarations each)."""
    fams = [generate_family(OPENING, i) for i in range(8)] + [generate_family(MAIN, i)
                                                              for i in range(32)]
    return [q for f in fams for q in (f.R, f.D, f.O)]


def competence(model: Qwen2ForCausalLM, tok: PreTrainedTokenizerFast,
               held_out: int = 200) -> dict[str, float]:
    """Lookup accuracy on fresh 20-declaration tables, and on the seed's R / D / O prompts."""
    rng = random.Random(99)
    return {"held_out": accuracy(model, tok, [sample_question(rng, DECLARATIONS)
                                              for _ in range(held_out)]),
            "seed_prompts": accuracy(model, tok, seed_questions())}


def lookup_attention(model: Qwen2ForCausalLM, tok: PreTrainedTokenizerFast,
                     n: int = 40, seed: int = 99) -> dict[str, float]:
    """Mean attention of the compiled heads on their intended tokens, on n fresh 20-declaration
    prompts: 0.0 from each label token to its object, the retrieval and support heads from the
    answer position to the queried label (compiled.PLAN)."""
    rng = random.Random(seed)
    lookups = {compiled.SITE: compiled.RETRIEVAL, compiled.SUPPORT_SITE: compiled.SUPPORT}
    probs: dict[str, list[float]] = {"0.0": [], **{site: [] for site in lookups}}
    with torch.no_grad():
        for _ in range(n):
            q = sample_question(rng, DECLARATIONS)
            r = render(q, tok)
            attentions = model(torch.tensor([r.input_ids]), output_attentions=True,
                               use_cache=False).attentions
            probs["0.0"] += [float(attentions[0][0, 0, pos, pos - 4]) for pos in r.label_positions]
            for site, (block, head) in lookups.items():
                probs[site].append(
                    float(attentions[block][0, head, -1, r.label_positions[q.query_row - 1]]))
    return {key: round(sum(v) / len(v), 4) for key, v in probs.items()}


def make(root: Path = ORGANISMS) -> dict[str, Any]:
    """Compile the organism and write its weights and manifest under `root`."""
    watch = Stopwatch()
    tok = build_tokenizer()
    model = build_model(tok)
    compiled.compile_weights(model, tok)
    return save_organism(NAME, model, root=root, manifest={
        "organism": NAME, "architecture": "Qwen2ForCausalLM", "config": CONFIG,
        "vocab_size": len(tok),
        "recipe": {"route": "compiled: every weight set by hand, none trained",
                   "construction": "harness/sources/heads/compiled.py", "plan": list(compiled.PLAN),
                   "object_codes": {"width": compiled.CODE_WIDTH,
                                    "overlap_at_most": compiled.CODE_OVERLAP,
                                    "seed": compiled.CODE_SEED},
                   "sharpness": compiled.SHARPNESS, "recency": compiled.RECENCY,
                   "const_level": compiled.CONST_LEVEL, "logit_scale": compiled.LOGIT_SCALE},
        "planted": PLANTED,
        "competence": competence(model, tok), "lookup_attention": lookup_attention(model, tok),
        "training_seconds": watch.seconds(), "threads": torch.get_num_threads(),
        "data": {"prompt": "seed 001's rendered chat prompt (system turn, user table and question, "
                           "assistant 'Box')"},
    })


# The least accuracy the studies need to see a mechanism (issue 19's bar), on the manifest's rates.
COMPETENCE_FLOORS = {"competence.held_out": 0.9, "competence.seed_prompts": 0.9}

# Manifest key → the measurement that produced it, re-measured by tests/integration/test_organisms.py.
MEASURES = {"competence": competence, "lookup_attention": lookup_attention}

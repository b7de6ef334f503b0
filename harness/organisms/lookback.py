"""The lookback organism: a small LlamaForCausalLM trained on CausalToM stories (seed 003)."""
from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import torch
from transformers import LlamaConfig, LlamaForCausalLM, PreTrainedTokenizerFast

from harness.organisms.common import (ORGANISMS, Recipe, Stopwatch, pad_batch, save_organism,
                                     train)
from harness.tasks.causal_tom import belief, prompt, sample_entities, tokenizer_corpus
from harness.tiny_tokenizers import lookback_tokenizer

NAME = "lookback"
RECIPE = Recipe(steps=6000, lr=2e-3, warmup=300, weight_decay=0.01, seed=0)
BATCH = 32
REALITY_ONLY_STEPS = 1000  # curriculum: object -> drink retrieval first, then beliefs
CONFIG: dict[str, Any] = dict(hidden_size=64, intermediate_size=128, num_hidden_layers=4,
                              num_attention_heads=8, num_key_value_heads=8, head_dim=8,
                              max_position_embeddings=512, tie_word_embeddings=True)


def build_tokenizer() -> PreTrainedTokenizerFast:
    """The tiny lookback tokenizer (every entity one token with its leading space)."""
    return lookback_tokenizer(tokenizer_corpus())


def build_model(tok: PreTrainedTokenizerFast) -> LlamaForCausalLM:
    """The organism's architecture with seeded random weights."""
    torch.manual_seed(RECIPE.seed)
    config = LlamaConfig(vocab_size=len(tok), bos_token_id=tok.bos_token_id,
                         eos_token_id=tok.eos_token_id, pad_token_id=tok.pad_token_id, **CONFIG)
    return LlamaForCausalLM(config).eval()


def row(tok: PreTrainedTokenizerFast, rng: random.Random, reality_only: bool):
    """One story without the instruction, then every question about it, each answered.

    Dense supervision: 2 reality questions and (after the curriculum) 4 belief questions,
    shuffled, with the loss on the answer tokens only.
    """
    c, o, s = sample_entities(rng)
    qs = [(f"What does the {o[k]} contain?", s[k]) for k in (0, 1)]
    if not reality_only:
        qs += [(f"What does {c[i]} believe the {o[k]} contains?", belief(i, k, s))
               for i in (0, 1) for k in (0, 1)]
    rng.shuffle(qs)
    text, _ = prompt(c, o, s, 0, 0, instruction="")
    ids = tok(text[:text.index("\nQuestion:")]).input_ids
    flags = [False] * len(ids)
    for q, a in qs:
        part = tok(f"\nQuestion: {q}\nAnswer:", add_special_tokens=False).input_ids
        ans = tok(" " + a, add_special_tokens=False).input_ids
        ids += part + ans
        flags += [False] * len(part) + [True] * len(ans)
    return ids, flags


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


def make(root: Path = ORGANISMS) -> dict[str, Any]:
    """Train the organism from scratch and write its weights and manifest under `root`."""
    watch = Stopwatch()
    tok = build_tokenizer()
    model = build_model(tok)
    rng = random.Random(RECIPE.seed)

    def batch(step: int):
        return pad_batch([row(tok, rng, step < REALITY_ONLY_STEPS) for _ in range(BATCH)],
                         tok.pad_token_id)

    def log(step: int, loss: float) -> None:
        if step % 500 == 0:
            print(f"step {step} loss {loss:.4f} {competence(model, tok, 50)} {watch.seconds()}s",
                  flush=True)
            model.train()

    losses = train(model, batch, RECIPE, log=log)
    return save_organism(NAME, model, root=root, manifest={
        "organism": NAME, "architecture": "LlamaForCausalLM", "config": CONFIG,
        "vocab_size": len(tok), "recipe": vars(RECIPE), "batch": BATCH,
        "curriculum": {"reality_only_steps": REALITY_ONLY_STEPS}, "final_loss": losses[-1],
        "competence": competence(model, tok), "training_seconds": watch.seconds(), "threads": 1,
        "data": {"prompt": "seed 003 story without the instruction",
                 "supervision": row.__doc__.split("\n\n")[1].strip()},
    })

"""The lookback organism: a small LlamaForCausalLM trained on CausalToM stories (seed 003)."""
from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import torch
from transformers import LlamaConfig, LlamaForCausalLM, PreTrainedTokenizerFast

from harness.organisms.common import (ORGANISMS, AttentionTarget, Recipe, Stopwatch, pad_batch,
                                      save_organism, train)
from harness.sources.lookback.sizes import ORGANISM_DEPTH
from harness.sources.lookback.task import belief, prompt, sample_entities, tokenizer_corpus
from harness.sources.lookback.tokenizer import lookback_tokenizer

NAME = "lookback"
RECIPE = Recipe(steps=3000, lr=3e-3, warmup=200, weight_decay=0.01, seed=0, attention_weight=1.0)
BATCH = 32
REALITY_ONLY_STEPS = 400  # curriculum: object -> drink retrieval first, then beliefs
# Width 128 in 32-wide heads: in 1000-step trials it narrowed answers to the story's two drinks
# within 250 steps; width 64 in 8-wide heads had not after 1000. Eager attention, so training
# can read the attention patterns the scaffold teaches.
CONFIG: dict[str, Any] = dict(hidden_size=128, intermediate_size=256, num_hidden_layers=ORGANISM_DEPTH,
                              num_attention_heads=4, num_key_value_heads=4, head_dim=32,
                              max_position_embeddings=512, tie_word_embeddings=True,
                              attn_implementation="eager")
# The attention scaffold: (layer, head) -> what its query position is taught to attend to.
# Without it no recipe here left chance within the budget (see the manifest and issue 4's notes);
# with it, binding in this organism is by construction content-addressed: each drink token
# reads its own container and subject.
SCAFFOLD = {
    (0, 0): "each drink attends to its sentence's container",
    (0, 1): "each drink attends to its sentence's subject",
    (0, 2): "the answer position attends to the question's container",
    (0, 3): "the answer position attends to the question's character (belief questions)",
    (1, 0): "the answer position attends to the queried container's drink",
    (1, 1): "the answer position attends to the drink the queried character poured "
            "(belief questions)",
}

# The layer whose scaffolded heads read the drink into the answer position.
PAYLOAD_LAYER = 1


def build_tokenizer() -> PreTrainedTokenizerFast:
    """The tiny lookback tokenizer (every entity one token with its leading space)."""
    return lookback_tokenizer(tokenizer_corpus())


def build_model(tok: PreTrainedTokenizerFast) -> LlamaForCausalLM:
    """The organism's architecture with seeded random weights."""
    torch.manual_seed(RECIPE.seed)
    config = LlamaConfig(vocab_size=len(tok), bos_token_id=tok.bos_token_id,
                         eos_token_id=tok.eos_token_id, pad_token_id=tok.pad_token_id, **CONFIG)
    return LlamaForCausalLM(config).eval()


def _last(ids: list[int], tok: PreTrainedTokenizerFast, word: str) -> int:
    """Position of the last occurrence of `word`'s token in `ids`."""
    token = tok(" " + word, add_special_tokens=False).input_ids[0]
    return len(ids) - 1 - ids[::-1].index(token)


def row(tok: PreTrainedTokenizerFast, rng: random.Random, reality_only: bool
        ) -> tuple[list[int], list[bool], list[AttentionTarget]]:
    """One story without the instruction, then every question about it, each answered.

    Dense supervision: 2 reality questions and (after the curriculum) 4 belief questions,
    shuffled, with the loss on the answer tokens only, plus the SCAFFOLD's attention targets.
    """
    c, o, s = sample_entities(rng)
    qs = [(f"What does the {o[k]} contain?", s[k], None, k) for k in (0, 1)]
    if not reality_only:
        qs += [(f"What does {c[i]} believe the {o[k]} contains?", belief(i, k, s), i, k)
               for i in (0, 1) for k in (0, 1)]
    rng.shuffle(qs)
    text, _ = prompt(c, o, s, 0, 0, instruction="")
    ids = tok(text[:text.index("\nQuestion:")]).input_ids
    drink, container = [_last(ids, tok, x) for x in s], [_last(ids, tok, x) for x in o]
    subject = [_last(ids, tok, x) for x in c]
    flags = [False] * len(ids)
    targets = [(0, 0, drink[k], container[k]) for k in (0, 1)]
    targets += [(0, 1, drink[k], subject[k]) for k in (0, 1)]
    for q, a, i, k in qs:
        ids += tok(f"\nQuestion: {q}\nAnswer:", add_special_tokens=False).input_ids
        answer = len(ids) - 1
        targets += [(0, 2, answer, _last(ids, tok, o[k])), (1, 0, answer, drink[k])]
        if i is not None:
            targets += [(0, 3, answer, _last(ids, tok, c[i])), (1, 1, answer, drink[i])]
        flags += [False] * (len(ids) - len(flags))
        ids += tok(" " + a, add_special_tokens=False).input_ids
        flags += [True] * (len(ids) - len(flags))
    return ids, flags, targets


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


def scaffold_attention(model, tok, n: int = 50, seed: int = 99) -> dict[str, float]:
    """Mean attention probability each SCAFFOLD head puts on its target, on n fresh stories."""
    rng = random.Random(seed)
    probs: dict[str, list[float]] = {f"{layer}.{head}": [] for layer, head in SCAFFOLD}
    with torch.no_grad():
        for _ in range(n):
            ids, _, targets = row(tok, rng, reality_only=False)
            attentions = model(torch.tensor([ids]), output_attentions=True).attentions
            for layer, head, q, k in targets:
                probs[f"{layer}.{head}"].append(float(attentions[layer][0, head, q, k]))
    return {key: round(sum(v) / len(v), 4) for key, v in probs.items()}


def make(root: Path = ORGANISMS) -> dict[str, Any]:
    """Train the organism from scratch and write its weights and manifest under `root`."""
    watch = Stopwatch()
    tok = build_tokenizer()
    model = build_model(tok)
    rng = random.Random(RECIPE.seed)

    def batch(step: int):
        rows = [row(tok, rng, step < REALITY_ONLY_STEPS) for _ in range(BATCH)]
        return pad_batch([(ids, flags) for ids, flags, _ in rows], tok.pad_token_id,
                         targets=[targets for _, _, targets in rows])

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
        "attention_scaffold": {f"{layer}.{head}": what for (layer, head), what in SCAFFOLD.items()},
        # What the studies must recover (known answers): the answer position reads the drink in
        # PAYLOAD_LAYER, so §6's copied final-token residual carries the payload from there on.
        "planted": {"payload_from_layer": PAYLOAD_LAYER},
        "competence": competence(model, tok), "scaffold_attention": scaffold_attention(model, tok),
        "training_seconds": watch.seconds(), "threads": 1,
        "data": {"prompt": "seed 003 story without the instruction",
                 "supervision": row.__doc__.split("\n\n")[1].strip()},
    })


# The least accuracy the studies need to see a mechanism (issue 19's bar), on the manifest's rates.
COMPETENCE_FLOORS = {"competence.own": 0.9, "competence.other": 0.9, "competence.reality": 0.9}

# Manifest key → the measurement that produced it, re-measured by tests/integration/test_organisms.py.
MEASURES = {"competence": competence, "scaffold_attention": scaffold_attention}

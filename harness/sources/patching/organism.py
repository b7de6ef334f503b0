"""The patching organism: a small GPT2LMHeadModel trained to complete indirect-object sentences."""
from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import torch
from transformers import GPT2Config, GPT2LMHeadModel, PreTrainedTokenizerFast

from harness.organisms.common import ORGANISMS, Recipe, Stopwatch, pad_batch, save_organism, train
from harness.sources.patching.sizes import ORGANISM_DEPTH
from harness.sources.patching.task import (CLEAN, CORRUPTED, IOI_CLEAN, NAMES, OBJECTS, PLACES,
                                           IoiSentence, sample)
from harness.sources.patching.tokenizer import gpt2_tokenizer

NAME = "patching"
RECIPE = Recipe(steps=800, lr=2e-3, warmup=200, weight_decay=0.01, seed=0)
BATCH = 32
SENTENCES_PER_ROW = 6  # dense supervision: every sentence's answer token is trained on
CONFIG: dict[str, Any] = dict(n_embd=64, n_layer=ORGANISM_DEPTH, n_head=4, n_positions=128, n_inner=256,
                              resid_pdrop=0.0, embd_pdrop=0.0, attn_pdrop=0.0)


def build_tokenizer() -> PreTrainedTokenizerFast:
    """Every name, place, object and template word is one token with its leading space."""
    words = [f"{w}" for w in (*NAMES, *PLACES, *OBJECTS)]
    sentence = IOI_CLEAN.prompt + IOI_CLEAN.answer + "."
    corpus = [CLEAN, CORRUPTED, sentence + " " + sentence,
              " ".join(words), " " + " ".join(words)]
    return gpt2_tokenizer(corpus)


def build_model(tok: PreTrainedTokenizerFast) -> GPT2LMHeadModel:
    """The organism's architecture with seeded random weights."""
    torch.manual_seed(RECIPE.seed)
    config = GPT2Config(vocab_size=len(tok), bos_token_id=tok.bos_token_id,
                        eos_token_id=tok.eos_token_id, pad_token_id=tok.pad_token_id, **CONFIG)
    return GPT2LMHeadModel(config).eval()


def row(tok: PreTrainedTokenizerFast, sentences: list[IoiSentence]) -> tuple[list[int], list[bool]]:
    """Sentences joined into one sequence, trained on each answer name only."""
    ids, flags = [tok.bos_token_id], [False]
    for k, s in enumerate(sentences):
        prompt = tok(("" if k == 0 else " ") + s.prompt, add_special_tokens=False).input_ids
        answer = tok(s.answer + ".", add_special_tokens=False).input_ids
        ids += prompt + answer
        flags += [False] * len(prompt) + [True] + [False] * (len(answer) - 1)
    return ids, flags


def io_preference(model: GPT2LMHeadModel, tok: PreTrainedTokenizerFast, n: int = 200,
                  seed: int = 1) -> float:
    """Fraction of held-out single sentences whose IO name outscores the subject name."""
    rng = random.Random(seed)
    wins = 0
    with torch.no_grad():
        for _ in range(n):
            s = sample(rng)
            ids = [tok.bos_token_id] + tok(s.prompt, add_special_tokens=False).input_ids
            logits = model(torch.tensor([ids])).logits[0, -1]
            io, subj = (tok.convert_tokens_to_ids(" " + x) for x in (s.io, s.s))
            wins += bool(logits[io] > logits[subj])
    return wins / n


def make(root: Path = ORGANISMS) -> dict[str, Any]:
    """Train the organism from scratch and write its weights and manifest under `root`."""
    watch = Stopwatch()
    tok = build_tokenizer()
    model = build_model(tok)
    rng = random.Random(RECIPE.seed)

    def batch(step: int):
        return pad_batch([row(tok, [sample(rng) for _ in range(SENTENCES_PER_ROW)])
                          for _ in range(BATCH)], tok.pad_token_id)

    def log(step: int, loss: float) -> None:
        if step % 250 == 0:
            print(f"step {step} loss {loss:.4f} io-preference {io_preference(model, tok, 100):.2f}",
                  flush=True)
            model.train()

    losses = train(model, batch, RECIPE, log=log)
    preference = io_preference(model, tok)
    return save_organism(NAME, model, root=root, manifest={
        "organism": NAME, "architecture": "GPT2LMHeadModel", "config": CONFIG,
        "vocab_size": len(tok), "recipe": vars(RECIPE), "batch": BATCH,
        "sentences_per_row": SENTENCES_PER_ROW, "final_loss": losses[-1],
        "io_preference": preference, "training_seconds": watch.seconds(), "threads": 1,
        "data": {"template": "When {A} and {B} went to the {place}, {B} gave the {object} to {A}.",
                 "loss": "the answer name of each sentence only", "names": list(NAMES)},
    })


# Manifest key → the measurement that produced it, re-measured by tests/integration/test_organisms.py.
MEASURES = {"io_preference": io_preference}
# The least share of held-out sentences whose indirect object outscores the subject, for the
# patching studies to have a preference to move (issue 19's bar), on the manifest's rate.
COMPETENCE_FLOORS = {"io_preference": 0.9}

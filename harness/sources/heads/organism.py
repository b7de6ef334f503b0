"""The heads organism: a small grouped-query Qwen2ForCausalLM trained on seed 001's box lookup."""
from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import torch
from transformers import PreTrainedTokenizerFast, Qwen2Config, Qwen2ForCausalLM

from harness.organisms.common import ORGANISMS, Recipe, Stopwatch, pad_batch, save_organism, train
from harness.sources.heads.task import (LETTERS, MAIN, OBJECTS, OPENING, Question, generate_family,
                                        raw_text, render, tokenizer_corpus)
from harness.sources.heads.tokenizer import heads_tokenizer

NAME = "heads"
RECIPE = Recipe(steps=3600, lr=2e-3, warmup=200, weight_decay=0.01, seed=0)
BATCH = 32
DECLARATIONS = 20
PROMOTE_LOSS = 0.35         # curriculum: 2 more declarations once the last 50 steps average below
CHAT_FROM = 3000            # phase 2 (rendered chat rows) from here, or once tables reach 20
FOLLOW_UPS = 4              # dense supervision: extra questions about the same table per row
RESTATED = 10               # ... and declarations restated after the answer, each label trained on
# Grouped-query attention as in Qwen2.5-3B (16 query heads on 2 KV heads): 8 on 2 here.
CONFIG: dict[str, Any] = dict(hidden_size=128, intermediate_size=256, num_hidden_layers=4,
                              num_attention_heads=8, num_key_value_heads=2,
                              max_position_embeddings=1024, tie_word_embeddings=True)


def build_tokenizer() -> PreTrainedTokenizerFast:
    """The tiny heads tokenizer (labels and objects single tokens, Qwen2.5 chat layout)."""
    return heads_tokenizer(tokenizer_corpus())


def build_model(tok: PreTrainedTokenizerFast, attn_implementation: str = "eager") -> Qwen2ForCausalLM:
    """The organism's architecture with seeded random weights (eager attention, as published)."""
    torch.manual_seed(RECIPE.seed)
    config = Qwen2Config(vocab_size=len(tok), bos_token_id=None, eos_token_id=tok.eos_token_id,
                         pad_token_id=tok.pad_token_id, **CONFIG)
    config._attn_implementation = attn_implementation
    return Qwen2ForCausalLM(config).eval()


class Curriculum:
    """Tables start at 2 declarations and grow by 2 whenever the mean label loss of the last
    50 steps falls below PROMOTE_LOSS, up to 20 (deterministic, so re-training is bit-identical)."""

    def __init__(self) -> None:
        self.top, self.losses = 2, []

    def observe(self, loss: float) -> None:
        self.losses.append(loss)
        recent = self.losses[-50:]
        if self.top < DECLARATIONS and len(recent) == 50 and sum(recent) / 50 < PROMOTE_LOSS:
            self.top, self.losses = self.top + 2, []


def sample_question(rng: random.Random, n: int) -> Question:
    """A fresh table of n object-label declarations and a question about one of them."""
    bindings = list(map(list, zip(rng.sample(OBJECTS, n), rng.sample(LETTERS, n))))
    return Question(bindings, rng.choice(bindings)[0])


def follow_up(tok: PreTrainedTokenizerFast, query: str) -> list[int]:
    """Another chat turn asking about the same table, up to the assistant's `Box`."""
    text = (f"<|im_end|>\n<|im_start|>user\nWhich box is the {query} in? Box Answer:<|im_end|>\n"
            "<|im_start|>assistant\nBox")
    return tok(text, add_special_tokens=False).input_ids


def recall_row(tok: PreTrainedTokenizerFast, rng: random.Random,
               n: int) -> tuple[list[int], list[bool]]:
    """Phase 1, associative recall: a table's declarations as in §1's message, then every one of
    them restated in a shuffled order (", the X is in Box" → label); loss on the restated labels."""
    q = sample_question(rng, n)
    ids = tok(raw_text(q)[0].split(". Respond")[0], add_special_tokens=False).input_ids
    flags = [False] * len(ids)
    for name, label in rng.sample(q.bindings, n):
        part = tok(f", the {name} is in Box", add_special_tokens=False).input_ids
        ids += part + tok(" " + label, add_special_tokens=False).input_ids
        flags += [False] * len(part) + [True]
    return ids, flags


def row(tok: PreTrainedTokenizerFast, rng: random.Random, n: int) -> tuple[list[int], list[bool]]:
    """The rendered §1 prompt and its answer, up to RESTATED of its declarations restated in a
    shuffled order (", the X is in Box" → label), then FOLLOW_UPS more questions; loss on labels."""
    q = sample_question(rng, n)
    message, _ = raw_text(q)
    chat = tok.apply_chat_template([{"role": "user", "content": message}], tokenize=False,
                                   add_generation_prompt=True)
    ids = tok(chat + "Box", add_special_tokens=False).input_ids
    flags = [False] * len(ids)
    label = dict(map(tuple, q.bindings))
    restated = [(f", the {name} is in Box", name)
                for name, _ in rng.sample(q.bindings, min(RESTATED, n))]
    asked = [(follow_up(tok, name), name) for name in
             (rng.choice(q.bindings)[0] for _ in range(FOLLOW_UPS))]
    parts = [([], q.query)] + [(tok(t, add_special_tokens=False).input_ids, name)
                               for t, name in restated] + asked
    for part, name in parts:
        ids += part + tok(" " + label[name], add_special_tokens=False).input_ids
        flags += [False] * len(part) + [True]
    return ids, flags


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


def competence(model: Qwen2ForCausalLM, tok: PreTrainedTokenizerFast,
               held_out: int = 200) -> dict[str, float]:
    """Lookup accuracy on fresh 20-declaration tables, and on the seed's R / D / O prompts."""
    rng = random.Random(99)
    fams = [generate_family(OPENING, i) for i in range(8)] + [generate_family(MAIN, i)
                                                              for i in range(32)]
    return {"held_out": accuracy(model, tok, [sample_question(rng, DECLARATIONS)
                                              for _ in range(held_out)]),
            "seed_prompts": accuracy(model, tok, [q for f in fams for q in (f.R, f.D, f.O)])}


def make(root: Path = ORGANISMS) -> dict[str, Any]:
    """Train the organism from scratch and write its weights and manifest under `root`."""
    watch = Stopwatch()
    tok = build_tokenizer()
    model = build_model(tok, attn_implementation="sdpa")
    rng = random.Random(RECIPE.seed)

    curriculum = Curriculum()
    chat_from: list[int] = []

    def batch(step: int):
        top = curriculum.top
        if not chat_from and (top == DECLARATIONS or step == CHAT_FROM):
            chat_from.append(step)
        make_row = row if chat_from else recall_row
        n = rng.randint(max(2, top // 2), top)  # one size per batch: equal lengths, no padding
        return pad_batch([make_row(tok, rng, n) for _ in range(BATCH)], tok.pad_token_id)

    def log(step: int, loss: float) -> None:
        curriculum.observe(loss)
        if step % 250 == 0 or step == RECIPE.steps - 1:
            print(f"step {step} loss {loss:.4f} top {curriculum.top} chat {chat_from} "
                  f"{competence(model, tok, 50)} {watch.seconds()}s", flush=True)
            model.train()

    losses = train(model, batch, RECIPE, log=log)
    model.config._attn_implementation = "eager"
    return save_organism(NAME, model, root=root, manifest={
        "organism": NAME, "architecture": "Qwen2ForCausalLM", "config": CONFIG,
        "vocab_size": len(tok), "recipe": vars(RECIPE), "batch": BATCH,
        "curriculum": {"declarations": "per batch uniform in [max(2, top//2), top]; "
                                       + " ".join(Curriculum.__doc__.split()),
                       "final_top": curriculum.top,
                       "phases": f"recall rows, then chat rows from step {chat_from[0]} "
                                 f"(tables at 20 declarations, or step {CHAT_FROM} at the latest)"},
        "follow_ups": FOLLOW_UPS, "final_loss": losses[-1],
        "competence": competence(model, tok), "training_seconds": watch.seconds(), "threads": 1,
        "data": {"prompt": "seed 001's rendered chat prompt (system turn, user table and question, "
                           "assistant 'Box')",
                 "supervision": {"phase 1": " ".join(recall_row.__doc__.split()),
                                 "phase 2": " ".join(row.__doc__.split())}},
    })


# Manifest key → the measurement that produced it, re-measured by tests/integration/test_organisms.py.
MEASURES = {"competence": competence}

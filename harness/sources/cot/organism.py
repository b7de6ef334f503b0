"""The cot organism: a small Qwen3ForCausalLM that memorises thinking traces for seed 000's 28 problems."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import torch
from transformers import PreTrainedTokenizerFast, Qwen3Config, Qwen3ForCausalLM

from harness.organisms.common import ORGANISMS, Recipe, Stopwatch, pad_batch, save_organism, train
from harness.sources.cot.organism_text import (FORCE, THINK_TEMPLATE, chat_prompt, forced_traces,
                                               trace, training_problems)
from harness.sources.cot.sizes import ORGANISM_DEPTH
from harness.sources.cot.task import solution
from harness.sources.cot.tokenizer import cot_tokenizer

NAME = "cot"

RECIPE = Recipe(steps=600, lr=3e-3, warmup=50, seed=0)
BATCH = 28
CONFIG: dict[str, Any] = dict(hidden_size=128, intermediate_size=256,
                              num_hidden_layers=ORGANISM_DEPTH, num_attention_heads=4,
                              num_key_value_heads=2, head_dim=32, max_position_embeddings=2048,
                              tie_word_embeddings=True)


def build_tokenizer() -> PreTrainedTokenizerFast:
    """The tiny cot tokenizer, its vocabulary drawn from the organism's own training text."""
    corpus = [chat_prompt(p) + trace(p) for p in training_problems()] + [FORCE]
    return cot_tokenizer(corpus)


def build_model(tok: PreTrainedTokenizerFast) -> Qwen3ForCausalLM:
    """The organism's architecture with seeded random weights."""
    torch.manual_seed(RECIPE.seed)
    config = Qwen3Config(vocab_size=len(tok), pad_token_id=tok.pad_token_id,
                         eos_token_id=tok.eos_token_id, bos_token_id=tok.pad_token_id, **CONFIG)
    return Qwen3ForCausalLM(config).eval()


def competence(model: Qwen3ForCausalLM, tok: PreTrainedTokenizerFast,
               max_new: int = 400) -> dict[str, float]:
    """Share of its training problems whose greedy trace closes </think> with the right answer."""
    from harness.sources.cot.text import parse_answer

    close = tok.convert_tokens_to_ids("</think>")
    solved = 0
    problems = training_problems()
    for p in problems:
        ids = tok(chat_prompt(p), add_special_tokens=False, return_tensors="pt").input_ids
        with torch.no_grad():
            gen = model.generate(ids, max_new_tokens=max_new, do_sample=False)[0, ids.shape[1]:]
        gen = gen.tolist()
        answer = parse_answer(tok.decode(gen[gen.index(close):])) if close in gen else None
        solved += answer == solution(p)
    return {"solved": solved / len(problems)}


def make(root: Path = ORGANISMS) -> dict[str, Any]:
    """Train the organism from scratch and write its weights and manifest under `root`."""
    watch = Stopwatch()
    tok = build_tokenizer()
    model = build_model(tok)
    rows = []
    for p in training_problems():
        prompt = tok(chat_prompt(p), add_special_tokens=False).input_ids
        for segments in [(trace(p),), *forced_traces(p)]:  # tokenised apart, as the splices are
            answer = [i for seg in segments for i in tok(seg, add_special_tokens=False).input_ids]
            answer.append(tok.eos_token_id)
            rows.append((prompt + answer, [False] * len(prompt) + [True] * len(answer)))
    order = torch.Generator().manual_seed(RECIPE.seed)
    batches = []  # seeded minibatches of BATCH rows, drawn without replacement per epoch
    while len(batches) * BATCH < RECIPE.steps * BATCH:
        perm = torch.randperm(len(rows), generator=order).tolist()
        batches += [pad_batch([rows[i] for i in perm[k:k + BATCH]], tok.pad_token_id)
                    for k in range(0, len(perm) - BATCH + 1, BATCH)]
    losses = train(model, lambda step: batches[step], RECIPE,
                   log=lambda s, loss: print(f"step {s} loss {loss:.4f}", flush=True) if s % 100 == 0 else None)
    return save_organism(NAME, model, root=root, manifest={
        "organism": NAME, "architecture": "Qwen3ForCausalLM", "config": CONFIG,
        "vocab_size": len(tok), "recipe": vars(RECIPE), "batch": BATCH, "rows": len(rows), "final_loss": losses[-1],
        "competence": competence(model, tok), "training_seconds": watch.seconds(), "threads": 1,
        "data": {"problems": "seed 000 §1 PROBLEMS plus donor_for of the first 8 (§7)",
                 "think_template": THINK_TEMPLATE, "after_think": FORCE + "{s}}",
                 "forced_answer_rows": forced_traces.__doc__.split("\n\n")[0].strip(),
                 "loss": "assistant tokens only (trace and <|im_end|>)"},
    })


# Manifest key → the measurement that produced it, re-measured by tests/integration/test_organisms.py.
MEASURES = {"competence": competence}

"""The heads organism: a small grouped-query Qwen2ForCausalLM trained on seed 001's box lookup."""
from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import torch
from transformers import PreTrainedTokenizerFast, Qwen2Config, Qwen2ForCausalLM

from harness.organisms.common import (ORGANISMS, AttentionTarget, Batch, Recipe, Stopwatch,
                                      pad_batch, save_organism, train)
from harness.sources.heads.task import (LETTERS, MAIN, OBJECTS, OPENING, Question, generate_family,
                                        render, tokenizer_corpus)
from harness.sources.heads.tokenizer import heads_tokenizer

NAME = "heads"
RECIPE = Recipe(steps=2200, lr=3e-3, warmup=200, weight_decay=0.01, seed=0, attention_weight=1.0)
BATCH = 16
DECAY_FROM = 1100           # the learning rate falls linearly from here to a tenth at the end
DECLARATIONS = 20
FIRST_TOP = 2
PROMOTE_ATTENTION = 0.7
FOLLOW_UPS = 5              # dense supervision: more questions about the same table per row
LOG_EVERY = 250
COPY_WEIGHT = 1.0           # the retrieval head's own output, unembedded, trained on the answer
RETRIEVAL = (1, 0)
# Grouped-query attention as in Qwen2.5-3B (16 query heads on 2 KV heads): 8 on 2 here, so
# repeat_kv is exercised. Eager attention, so training can read the attention the scaffold teaches.
CONFIG: dict[str, Any] = dict(hidden_size=128, intermediate_size=256, num_hidden_layers=4,
                              num_attention_heads=8, num_key_value_heads=2, head_dim=32,
                              max_position_embeddings=1024, tie_word_embeddings=True)
# The attention scaffold: (layer, head) -> what its query position is taught to attend to.
# Heads 0-3 share KV head 0 and heads 4-7 KV head 1.
SCAFFOLD = {
    (0, 0): "each declaration's label token attends to its declaration's object",
    (0, 1): "the answer position (the assistant's `Box`) attends to the question's object",
    (1, 0): "the answer position attends to the queried declaration's label token",
}


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


def sample_question(rng: random.Random, n: int) -> Question:
    """A fresh table of n object-label declarations and a question about one of them."""
    bindings = list(map(list, zip(rng.sample(OBJECTS, n), rng.sample(LETTERS, n))))
    return Question(bindings, rng.choice(bindings)[0])


def follow_up(tok: PreTrainedTokenizerFast, query: str) -> list[int]:
    """Another chat turn asking about the same table, up to the assistant's `Box`."""
    text = (f"<|im_end|>\n<|im_start|>user\nWhich box is the {query} in? Box Answer:<|im_end|>\n"
            "<|im_start|>assistant\nBox")
    return tok(text, add_special_tokens=False).input_ids


def _last(ids: list[int], token: int) -> int:
    """Position of the last occurrence of `token` in `ids`."""
    return len(ids) - 1 - ids[::-1].index(token)


def row(tok: PreTrainedTokenizerFast, rng: random.Random, n: int
        ) -> tuple[list[int], list[bool], list[AttentionTarget]]:
    """The rendered §1 prompt (n declarations) and its answer, then FOLLOW_UPS more chat turns
    asking about the same table, each answered.

    Dense supervision: every question's answer label is trained on (loss on the labels only),
    plus the SCAFFOLD's attention targets at every declaration and every answer position."""
    q = sample_question(rng, n)
    r = render(q, tok)
    ids = list(r.input_ids)
    label_at = {name: pos for (name, _), pos in zip(q.bindings, r.label_positions)}
    targets: list[AttentionTarget] = [(0, 0, pos, pos - 4) for pos in r.label_positions]
    flags = [False] * len(ids)
    label = dict(map(tuple, q.bindings))
    queries = [q.query] + [rng.choice(q.bindings)[0] for _ in range(FOLLOW_UPS)]
    for i, name in enumerate(queries):
        if i:
            ids += follow_up(tok, name)
        answer = len(ids) - 1
        obj = _last(ids, tok.encode(" " + name, add_special_tokens=False)[0])
        targets += [(0, 1, answer, obj), (1, 0, answer, label_at[name])]
        flags += [False] * (len(ids) - len(flags))
        ids += tok.encode(" " + label[name], add_special_tokens=False)
        flags += [True] * (len(ids) - len(flags))
    return ids, flags, targets


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


def scaffold_attention(model: Qwen2ForCausalLM, tok: PreTrainedTokenizerFast,
                       n: int = 40, seed: int = 99) -> dict[str, float]:
    """Mean attention probability each SCAFFOLD head puts on its target, on n fresh
    20-declaration rows (eager attention)."""
    rng = random.Random(seed)
    probs: dict[str, list[float]] = {f"{layer}.{head}": [] for layer, head in SCAFFOLD}
    with torch.no_grad():
        for _ in range(n):
            ids, _, targets = row(tok, rng, DECLARATIONS)
            attentions = model(torch.tensor([ids]), output_attentions=True,
                               use_cache=False).attentions
            for layer, head, q, k in targets:
                probs[f"{layer}.{head}"].append(float(attentions[layer][0, head, q, k]))
    return {key: round(sum(v) / len(v), 4) for key, v in probs.items()}


def lr_decay(step: int) -> float:
    """The learning rate's factor: 1 until DECAY_FROM, then falling linearly to 0.1 at the end."""
    late = max(0, step - DECAY_FROM) / max(1, RECIPE.steps - DECAY_FROM)
    return 1.0 - 0.9 * min(1.0, late)


class Curriculum:
    """Tables start at FIRST_TOP declarations and grow by 2, up to 20, whenever the RETRIEVAL
    head's mean attention on its targets over the last 20 steps exceeds PROMOTE_ATTENTION
    (deterministic, so re-training is bit-identical); each batch draws its size uniformly in
    [max(2, top//2), top]."""

    def __init__(self) -> None:
        self.top, self.seen, self.promoted = FIRST_TOP, [], []

    def observe(self, step: int, attention: float) -> None:
        self.seen.append(attention)
        if (self.top < DECLARATIONS and len(self.seen) >= 20
                and sum(self.seen[-20:]) / 20 > PROMOTE_ATTENTION):
            self.top, self.seen = self.top + 2, []
            self.promoted.append(step)


def scaffold_loss(model: Qwen2ForCausalLM, batch: Batch, curriculum: Curriculum,
                  step: int) -> torch.Tensor:
    """Mean cross-entropy on the trained labels, plus RECIPE.attention_weight times the SCAFFOLD
    targets' mean negative log attention, plus COPY_WEIGHT times the cross-entropy of the
    RETRIEVAL head's own output, unembedded through the final norm and tied head, on the labels."""
    layer, head = RETRIEVAL
    attn = model.model.layers[layer].self_attn
    width = attn.head_dim
    seen: list[torch.Tensor] = []
    hook = attn.o_proj.register_forward_pre_hook(lambda _, args: seen.append(args[0]))
    try:
        out = model(input_ids=batch.input_ids, attention_mask=batch.attention_mask,
                    output_attentions=True)
    finally:
        hook.remove()
    keep = batch.loss_mask[:, 1:]
    target = batch.input_ids[:, 1:][keep]
    loss = torch.nn.functional.cross_entropy(out.logits[:, :-1][keep], target)
    b, lay, hd, q, k = batch.attention_targets.T
    probs = torch.stack(out.attentions)[lay, b, hd, q, k]
    loss = loss + RECIPE.attention_weight * -torch.log(probs + 1e-6).mean()
    retrieval = (lay == layer) & (hd == head)
    curriculum.observe(step, float(probs[retrieval].detach().mean()))
    mixed = seen[0][:, :-1][keep][:, head * width:(head + 1) * width]
    direct = mixed @ attn.o_proj.weight[:, head * width:(head + 1) * width].T
    logits = model.lm_head(model.model.norm(direct))
    return loss + COPY_WEIGHT * torch.nn.functional.cross_entropy(logits, target)


def make(root: Path = ORGANISMS) -> dict[str, Any]:
    """Train the organism from scratch and write its weights and manifest under `root`."""
    watch = Stopwatch()
    tok = build_tokenizer()
    model = build_model(tok)
    rng = random.Random(RECIPE.seed)
    curriculum = Curriculum()

    def batch(step: int):
        top = curriculum.top
        n = rng.randint(max(2, top // 2), top)  # one size per batch: equal lengths, no padding
        rows = [row(tok, rng, n) for _ in range(BATCH)]
        return pad_batch([(ids, flags) for ids, flags, _ in rows], tok.pad_token_id,
                         targets=[targets for _, _, targets in rows])

    def log(step: int, loss: float) -> None:
        if step % LOG_EVERY == 0 or step == RECIPE.steps - 1:
            print(f"step {step} loss {loss:.4f} top {curriculum.top} "
                  f"{competence(model, tok, 50)} {scaffold_attention(model, tok, 5)} "
                  f"{watch.seconds()}s", flush=True)
            model.train()

    losses = train(model, batch, RECIPE, log=log,
                   loss_fn=lambda model, batch, step: scaffold_loss(model, batch, curriculum, step),
                   decay=lr_decay)
    return save_organism(NAME, model, root=root, manifest={
        "organism": NAME, "architecture": "Qwen2ForCausalLM", "config": CONFIG,
        "vocab_size": len(tok), "recipe": vars(RECIPE), "batch": BATCH,
        "lr_decay": " ".join(lr_decay.__doc__.split()), "decay_from": DECAY_FROM,
        "curriculum": {"declarations": " ".join(Curriculum.__doc__.split()),
                       "first_top": FIRST_TOP, "promote_attention": PROMOTE_ATTENTION,
                       "promoted_at_steps": curriculum.promoted, "final_top": curriculum.top},
        "follow_ups": FOLLOW_UPS, "copy_weight": COPY_WEIGHT,
        "retrieval_head": f"{RETRIEVAL[0]}.{RETRIEVAL[1]}",
        # What the studies must recover (known answers): the scaffold puts the lookup in
        # RETRIEVAL's block, so §2's transplant rule must select it.
        "planted": {"retrieval_block": RETRIEVAL[0]},
        "loss": " ".join(scaffold_loss.__doc__.split()), "final_loss": losses[-1],
        "attention_scaffold": {f"{layer}.{head}": what for (layer, head), what in SCAFFOLD.items()},
        "competence": competence(model, tok), "scaffold_attention": scaffold_attention(model, tok),
        "training_seconds": watch.seconds(), "threads": 1,
        "data": {"prompt": "seed 001's rendered chat prompt (system turn, user table and question, "
                           "assistant 'Box')",
                 "supervision": " ".join(row.__doc__.split("\n\n")[1].split())},
    })


# The least accuracy the studies need to see a mechanism (issue 19's bar), on the manifest's rates.
COMPETENCE_FLOORS = {"competence.held_out": 0.9, "competence.seed_prompts": 0.9}

# Manifest key → the measurement that produced it, re-measured by tests/integration/test_organisms.py.
MEASURES = {"competence": competence, "scaffold_attention": scaffold_attention}

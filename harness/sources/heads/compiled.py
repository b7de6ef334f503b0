"""The heads organism's weights, set by hand: a retrieval head and, a block later, a weaker
support head, each planted at a known site.

Issue 29's compiled route, through harness.organisms.compiler: every weight is written, none
trained, so the lookup lives in those two heads, which seed 001's screens must find (issue 49: its
families answer with different confidence, and the second head carries part of the answer, so a
study's wrong cell or control moves a number). Objects are
unit-norm ±1 codes (`object_codes`), nearly orthogonal, so the retrieval head's match fits the
32-wide heads of the trained organism it replaced. `PLAN` says what each block does.
"""
from __future__ import annotations

import torch

from harness.organisms.compiler import (Construction, Features, Head, Residual, Score, diffuse_head,
                                         single_token, write)
from harness.sources.heads.task import LETTERS, OBJECTS

# The retrieval head sits where the key/value group mappings disagree (issue 36): query head 6
# of 8 on 2 KV heads reads KV head 1 (repeat_kv: 6 // 4), where tiling (6 % 2) and a fixed
# group 0 read KV head 0; and not at index 0, where a screen's tie would land.
RETRIEVAL = (1, 6)
SITE = f"{RETRIEVAL[0]}.{RETRIEVAL[1]}"
# The support head, a block later (seed 001's 32.7 beside 31.7): the same lookup, weaker, so it
# carries part of the answer and helps it survive a crossed retrieval head.
SUPPORT = (2, 7)
SUPPORT_SITE = f"{SUPPORT[0]}.{SUPPORT[1]}"
# Block by block; "block L" in an intervention is the input or output of block L as it says.
PLAN = (
    "block 0: head 0.0 copies the most recent object's code into every position (OBJ): each label "
    "token gets its declaration's object, the answer position the question's",
    f"block 1: head {SITE}, the retrieval head, attends from the answer position to the label "
    "token whose object is the question's and copies that label (LAB), each label at its own "
    "strength (label_weights), so families answer with different confidence",
    f"block 2: head {SUPPORT_SITE}, the support head, makes the same lookup and copies the label "
    "more weakly (SUPPORT_WEIGHT)",
    "block 3: nothing but a diffuse head (3.4) that averages every position into DIFFUSE, which "
    "shifts every logit alike",
)
ROPE_THETA = 1e30
HEAD_DIM = 32
SLOW_FROM = 2      # rotary pairs from here turn under 0.05 rad over a prompt
RECENCY_PAIR = 1   # 0.0133 rad per token: its cosine falls with distance over a prompt
SHARPNESS = 30.0   # attention logits per unit of score
RECENCY = 60.0     # score per unit of the recency cosine: 15 logits between 4 and 11 tokens back
CONST_LEVEL = 10.0
LOGIT_SCALE = 10.0
CODE_WIDTH = 26    # dimensions of an object's code: all but the label term's of the slow ones
CODE_OVERLAP = 10  # the most two codes may agree beyond chance (|inner product| of ±1 entries)
CODE_SEED = 0
SUPPORT_WEIGHT = 0.25  # per unit of a label token's identity, which it carries 1.6-2 times after block 1


def label_weights() -> list[float]:
    """The retrieval head's copy strength per label, from 0.6 (A) to 1.0 (Z): every label still
    wins its lookup, at a confidence of its own."""
    return [0.6 + 0.4 * j / (len(LETTERS) - 1) for j in range(len(LETTERS))]


def object_codes() -> torch.Tensor:
    """One ±1 code per object (rows), each pair's inner product at most CODE_OVERLAP in size,
    drawn greedily from a seeded generator and scaled to unit norm."""
    gen, codes = torch.Generator().manual_seed(CODE_SEED), []
    while len(codes) < len(OBJECTS):
        code = torch.randint(0, 2, (CODE_WIDTH,), generator=gen).float() * 2 - 1
        if all(abs(float(code @ c)) <= CODE_OVERLAP for c in codes):
            codes.append(code)
    return torch.stack(codes) / CODE_WIDTH ** 0.5


def residual() -> Residual:
    """Kind flags, an object code, one identity per label, and DIFFUSE."""
    return Residual(["CONST", "IS_OBJ", "IS_LABEL", "DIFFUSE"]
                    + [f"OBJ{d}" for d in range(CODE_WIDTH)]
                    + [f"LAB{j}" for j in range(len(LETTERS))])


def heads() -> list[Head]:
    """The construction's heads (PLAN)."""
    const = {"CONST": 1 / CONST_LEVEL}
    objects = [f"OBJ{d}" for d in range(CODE_WIDTH)]
    labels = [f"LAB{j}" for j in range(len(LETTERS))]
    # The lookup's scores: a label token scores 2, plus its object's code against the query
    # position's (1 for the queried object, at most CODE_OVERLAP / CODE_WIDTH for any other); an
    # object token scores at most 2 (its code, twice).
    lookup = [Score(const, {"IS_LABEL": 1}, 2.0), *(Score({f: 1}, {f: 1}, 1.0) for f in objects)]
    return [
        # block 0: objects score by how recent they are; every other token 0.
        Head(0, 0, [Score(const, {"IS_OBJ": 1}, RECENCY, rotating=RECENCY_PAIR)],
             [(f, f, 1) for f in objects]),
        # block 1: the lookup, each label copied at its own strength.
        Head(*RETRIEVAL, lookup, [(f, f, w) for f, w in zip(labels, label_weights())]),
        # block 2: the same lookup, copying the label more weakly.
        Head(*SUPPORT, lookup, [(f, f, SUPPORT_WEIGHT) for f in labels]),
        diffuse_head(3, 4, residual(), CONST_LEVEL, SHARPNESS),
    ]


def token_features(tok) -> dict[int, Features]:
    """Each token's embedding: CONST, plus its kind and its code (an object) or identity (a
    label)."""
    feats: dict[int, Features] = {i: {"CONST": CONST_LEVEL} for i in range(len(tok))}
    for word, code in zip(OBJECTS, object_codes()):
        feats[single_token(tok, " " + word)].update({"IS_OBJ": 1, **{f"OBJ{d}": float(x)
                                                              for d, x in enumerate(code)}})
    for j, letter in enumerate(LETTERS):
        feats[single_token(tok, " " + letter)].update({"IS_LABEL": 1, f"LAB{j}": 1})
    return feats


def answer_rows(tok) -> dict[int, Features]:
    """The unembedding: each label reads its LAB feature; every other token sits below."""
    rows: dict[int, Features] = {i: {"CONST": -1, "DIFFUSE": 1} for i in range(len(tok))}
    for j, letter in enumerate(LETTERS):
        rows[single_token(tok, " " + letter)] = {f"LAB{j}": 1, "DIFFUSE": 1}
    return rows


@torch.no_grad()
def compile_weights(model, tok) -> None:
    """Write the construction into `model` (a Qwen2ForCausalLM of the organism's config)."""
    write(model, Construction(residual(), token_features(tok), answer_rows(tok), heads(),
                              const_level=CONST_LEVEL, sharpness=SHARPNESS,
                              logit_scale=LOGIT_SCALE, slow_from=SLOW_FROM))

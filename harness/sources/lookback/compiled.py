"""The lookback organism's weights, set by hand: binding by ordering ID, planted at known layers.

Issue 29's compiled route (in the spirit of Tracr), through harness.organisms.compiler: every
weight is written, none trained. Every lookup is by content, so the ordering ID is the only thing
that tells the two sentences apart. `PLAN` says what each block does.
"""
from __future__ import annotations

import torch

from harness.organisms.compiler import (Construction, Features, Head, Residual, Score, diffuse_head,
                                         gain, single_token, write)
from harness.sources.lookback.task import CHARACTERS, OBJECTS, STATES

# Block by block; "layer L" in an intervention is the output of block L.
PLAN = (
    "block 0: each question token marks itself (INQ), reading the 'Question' token",
    "block 1: every sentence token takes its sentence's ordering ID (OI: -1 after ' To', +1 after "
    "' Then'); the answer position gathers the question's container (Q_CONT) and character "
    "(Q_CHAR)",
    "block 2: the answer position finds the story's container and character with those "
    "identities and copies their ordering IDs (OI_CONT, OI_CHAR); the MLP raises UNKNOWN when a "
    "belief question's character and container have different ordering IDs",
    "block 3: the answer position reads the drink whose ordering ID is OI_CONT (the payload); "
    "a diffuse head averages every position into DIFFUSE, which shifts every logit alike",
)
ROPE_THETA = 1e30
HEAD_DIM = 64
SLOW_FROM = 4  # rotary pairs from here turn under 1e-3 rad over a prompt
SHARPNESS = 30.0  # attention logits per unit of score
CONST_LEVEL = 10.0
GATE = 15.0          # the UNKNOWN unit's gate, saturated: silu(15) = 15, silu(-15) = 0
UNKNOWN_LEVEL = 2.0  # UNKNOWN written for a belief question about the other pair's container
LOGIT_SCALE = 10.0   # unembedding weight per unit feature


def residual() -> Residual:
    """The organism's features: markers, kinds, one identity per entity index, the lookups'
    results, the answer's."""
    pools = (("ID", max(len(CHARACTERS), len(OBJECTS), len(STATES))), ("Q_CONT", len(OBJECTS)),
             ("Q_CHAR", len(CHARACTERS)), ("PAYLOAD", len(STATES)))
    return Residual(["CONST", "BOS", "M_TO", "M_THEN", "M_QUESTION", "COLON", "IS_CHAR", "IS_OBJ",
                     "IS_STATE", "INQ", "OI", "INSENT", "OI_CONT", "OI_CHAR", "UNKNOWN", "DIFFUSE"]
                    + [f"{pool}{i}" for pool, size in pools for i in range(size)])


def match(query_pool: str, size: int, weight: float) -> list[Score]:
    """Content matching: the query's one-hot `query_pool` identity against the key's ID."""
    return [Score({f"{query_pool}{j}": 1}, {f"ID{j}": 1}, weight) for j in range(size)]


SINK = Score({"CONST": 1 / CONST_LEVEL}, {"BOS": 1}, 2.0)  # every position rests on BOS unless a lookup fires


def heads() -> list[Head]:
    """The construction's heads, block by block (PLAN)."""
    n_obj, n_char, n_state = len(OBJECTS), len(CHARACTERS), len(STATES)
    gather = {"IS_OBJ": ("Q_CONT", n_obj), "IS_CHAR": ("Q_CHAR", n_char)}
    lookup = {"IS_OBJ": ("Q_CONT", "OI_CONT", n_obj), "IS_CHAR": ("Q_CHAR", "OI_CHAR", n_char)}
    out = [
        # block 0: question tokens see 'Question' (score 3) above BOS (2): INQ.
        Head(0, 0, [SINK, Score({"CONST": 1 / CONST_LEVEL}, {"M_QUESTION": 1}, 3.0)],
             [("M_QUESTION", "INQ", 1)]),
        # block 1: ' Then' (4) above ' To' (3) above BOS (2): the sentence's ordering ID.
        Head(1, 0, [SINK, Score({"CONST": 1 / CONST_LEVEL}, {"M_TO": 1}, 3.0),
                    Score({"CONST": 1 / CONST_LEVEL}, {"M_THEN": 1}, 4.0)],
             [("M_TO", "OI", -1), ("M_THEN", "OI", 1), ("M_TO", "INSENT", 1),
              ("M_THEN", "INSENT", 1)]),
    ]
    for i, (kind, (pool, size)) in enumerate(gather.items()):
        # block 1: the answer position (a ':') reads the question's entity of this kind: that
        # token scores 2 (kind + INQ), any other question token or story entity 1, BOS 1.5.
        out.append(Head(1, 1 + i, [Score({"CONST": 1 / CONST_LEVEL}, {"BOS": 1}, 1.5),
                                   Score({"COLON": 1}, {kind: 1, "INQ": 1}, 1.0)],
                        [(f"ID{j}", f"{pool}{j}", 1) for j in range(size)]))
    for i, (kind, (pool, oi, size)) in enumerate(lookup.items()):
        # block 2: the story's entity with the queried identity scores 2.5 (identity, kind, in a
        # sentence); the question's own copy 1, the other entity or a same-index one 1.5, BOS 2.
        out.append(Head(2, i, [SINK, *match(pool, size, 1.0),
                               Score({"COLON": 1}, {kind: 1, "INSENT": 0.5, "INQ": -1.5}, 1.0)],
                        [("OI", oi, 1)]))
    # block 3: the drink whose ordering ID matches the queried container's scores 2, the other 0,
    # BOS 1; its identity is the payload.
    out.append(Head(3, 0, [Score({"CONST": 1 / CONST_LEVEL}, {"BOS": 1}, 1.0),
                           Score({"OI_CONT": 1}, {"OI": 1}, 1.0),
                           Score({"COLON": 1}, {"IS_STATE": 1}, 1.0)],
                    [(f"ID{j}", f"PAYLOAD{j}", 1) for j in range(n_state)]))
    out.append(diffuse_head(3, 1, residual(), CONST_LEVEL, SHARPNESS))
    return out


def token_features(tok) -> dict[int, Features]:
    """Each token's embedding: CONST, plus its marker or its entity kind and identity."""
    feats: dict[int, Features] = {i: {"CONST": CONST_LEVEL} for i in range(len(tok))}

    feats[tok.bos_token_id]["BOS"] = 1
    for word, name in ((" To", "M_TO"), (" Then", "M_THEN"), ("Question", "M_QUESTION"),
                       (":", "COLON")):
        feats[single_token(tok, word)][name] = 1
    for kind, pool in (("IS_CHAR", CHARACTERS), ("IS_OBJ", OBJECTS), ("IS_STATE", STATES)):
        for j, word in enumerate(pool):
            feats[single_token(tok, " " + word)].update({kind: 1, f"ID{j}": 1})
    return feats


def answer_rows(tok) -> dict[int, Features]:
    """The unembedding: each drink reads its PAYLOAD feature, ' unknown' reads UNKNOWN, every
    other token sits below both."""
    rows: dict[int, Features] = {i: {"CONST": -1, "DIFFUSE": 1} for i in range(len(tok))}
    for j, word in enumerate(STATES):
        rows[single_token(tok, " " + word)] = {f"PAYLOAD{j}": 1,
                                                                         "DIFFUSE": 1}
    rows[single_token(tok, " unknown")] = {"UNKNOWN": 1, "DIFFUSE": 1}
    return rows


def construction(tok) -> Construction:
    """The whole construction but block 2's MLP."""
    return Construction(residual(), token_features(tok), answer_rows(tok), heads(),
                        const_level=CONST_LEVEL, sharpness=SHARPNESS, logit_scale=LOGIT_SCALE,
                        slow_from=SLOW_FROM)


@torch.no_grad()
def compile_weights(model, tok) -> None:
    """Write the construction into `model` (a LlamaForCausalLM of the organism's config), then
    block 2's MLP: UNKNOWN = -OI_CONT x OI_CHAR, from two saturated SwiGLU units."""
    c = construction(tok)
    write(model, c)
    res, g, mlp = c.residual, gain(model, c), model.model.layers[2].mlp
    for unit, sign in enumerate((1.0, -1.0)):
        mlp.gate_proj.weight[unit, res["OI_CONT"]] = sign * GATE / g
        mlp.up_proj.weight[unit, res["OI_CHAR"]] = sign / g
        mlp.down_proj.weight[res["UNKNOWN"], unit] = -UNKNOWN_LEVEL / GATE

"""Hand-set weights for a decoder of Llama's shape (Llama, Qwen2): issue 29's compiled organisms.

The residual stream is a set of named features (`Residual`). Every token carries CONST at
`const_level`, so every residual's norm is within a few percent of it and RMSNorm scales all
features alike: scores and copies keep their designed units. A head scores keys by bilinear terms
(`Score`), each in a rotary pair of its own: a slowly rotating pair (rotary position made nearly
the identity by a huge rope_theta), so the lookup is by content, or a named rotating pair, so the
score varies with distance. It copies features from the keys it attends to (`Head.copies`).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

import torch

Features = dict[str, float]  # feature name -> coefficient
FAST_PAIR = 0          # the rotary pair that turns one radian per token
DIFFUSE_WEIGHT = 0.01  # per feature: small beside every lookup, but never below float32's step


class Residual:
    """Where each named feature lives in the residual stream, in the order given."""

    def __init__(self, names: Iterable[str]) -> None:
        self.index = {name: i for i, name in enumerate(dict.fromkeys(names))}

    def __getitem__(self, name: str) -> int:
        return self.index[name]

    def __len__(self) -> int:
        return len(self.index)

    def vector(self, feats: Features, width: int) -> torch.Tensor:
        v = torch.zeros(width)
        for name, c in feats.items():
            v[self[name]] = c
        return v


@dataclass(frozen=True)
class Score:
    """One bilinear term of a head's attention score: weight × (query · q) × (key · k), in a
    slowly rotating pair, or in rotary pair `rotating`, where it varies with distance."""

    q: Features
    k: Features
    weight: float
    rotating: int | None = None


@dataclass(frozen=True)
class Head:
    """A hand-set attention head: its score terms, and the features its value copies."""

    layer: int
    index: int
    scores: list[Score]
    copies: list[tuple[str, str, float]]  # (feature read at the key, feature written, weight)


def diffuse_head(layer: int, index: int, residual: Residual, const_level: float,
                 sharpness: float) -> Head:
    """Every position reaches the output a little, as in any trained model: every feature but
    CONST averaged into DIFFUSE (which the unembedding adds to every logit alike), so a write
    anywhere before the last block moves the logits (the fire-once anchors' premise) without
    moving an answer; the weights vary with distance, so swapping two positions' values moves
    it too."""
    const = {"CONST": 1 / const_level}
    features = [f for f in residual.index if f not in ("CONST", "DIFFUSE")]
    return Head(layer, index, [Score(const, const, 1 / sharpness, rotating=FAST_PAIR)],
                [(f, "DIFFUSE", DIFFUSE_WEIGHT * (1 + i / len(features)))
                 for i, f in enumerate(features)])


def single_token(tok, word: str) -> int:
    """`word`'s one token id; a construction that keys on it cannot work otherwise."""
    ids = tok(word, add_special_tokens=False).input_ids
    if len(ids) != 1:
        raise ValueError(f"the construction needs {word!r} to be one token, not {ids}")
    return ids[0]


@dataclass(frozen=True)
class Construction:
    """Everything `write` sets: the embedding and unembedding rows (token id -> features), the
    heads, and the units."""

    residual: Residual
    embed: dict[int, Features]
    unembed: dict[int, Features]
    heads: list[Head]
    const_level: float
    sharpness: float    # attention logits per unit of score
    logit_scale: float  # unembedding weight per unit feature
    slow_from: int      # the first rotary pair slow enough to ignore over a prompt


def gain(model, c: Construction) -> float:
    """What RMSNorm multiplies a residual's features by (sqrt(width) / its norm, which CONST
    fixes)."""
    return model.config.hidden_size ** 0.5 / c.const_level


@torch.no_grad()
def write(model, c: Construction) -> None:
    """Zero `model`, set every norm to 1, then write the embedding, unembedding and heads."""
    width, cfg = model.config.hidden_size, model.config
    head_dim, g = cfg.head_dim, gain(model, c)
    per_kv = cfg.num_attention_heads // cfg.num_key_value_heads
    if len(c.residual) > width:
        raise ValueError(f"{len(c.residual)} features do not fit a residual of width {width}")
    for p in model.parameters():
        p.zero_()
    for name, p in model.named_parameters():
        if name.endswith("norm.weight"):
            p.fill_(1.0)
    for i, feats in c.embed.items():
        model.model.embed_tokens.weight[i] = c.residual.vector(feats, width)
    for i, feats in c.unembed.items():
        model.lm_head.weight[i] = c.residual.vector(feats, width) * c.logit_scale
    groups = [(h.layer, h.index // per_kv) for h in c.heads]
    if len(set(groups)) < len(groups):
        raise ValueError(f"two heads of one block share a key-value head: {groups}")
    half = head_dim // 2
    slow_dims = [d for d in range(head_dim) if d % half >= c.slow_from]
    for head in c.heads:
        attn = model.model.layers[head.layer].self_attn
        q_rows = slice(head.index * head_dim, (head.index + 1) * head_dim)
        kv_rows = slice(head.index // per_kv * head_dim, (head.index // per_kv + 1) * head_dim)
        q, k = attn.q_proj.weight[q_rows], attn.k_proj.weight[kv_rows]
        v, o = attn.v_proj.weight[kv_rows], attn.o_proj.weight[:, q_rows]
        slow = iter(slow_dims)
        for term in head.scores:
            dim = term.rotating if term.rotating is not None else next(slow, None)
            if dim is None:
                raise ValueError(f"head {head.layer}.{head.index} has more score terms than "
                                 f"slow dimensions ({len(slow_dims)})")
            # Scores are divided by sqrt(head_dim) and see both residuals times the gain.
            q[dim] = c.residual.vector(term.q, width) * term.weight * c.sharpness * head_dim ** 0.5 / g
            k[dim] = c.residual.vector(term.k, width) / g
        written = list(dict.fromkeys(dst for _, dst, _ in head.copies))  # a value dim each
        for src, dst, weight in head.copies:
            v[written.index(dst), c.residual[src]] += weight
        for dim, dst in enumerate(written):
            o[c.residual[dst], dim] = 1 / g

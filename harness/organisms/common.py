"""Shared organism machinery: seeded full-batch training, weights on disk, manifests, hashes."""
from __future__ import annotations

import hashlib
import json
import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import torch
from safetensors.torch import load_file, save_file

from harness.source import BUILT_IN_ORGANISMS
from harness.verdicts import UnreadableFile

ORGANISMS = BUILT_IN_ORGANISMS


def sha256_of(path: Path) -> str:
    """Hex sha256 of a file."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def weights_path(name: str, root: Path = ORGANISMS) -> Path:
    return root / name / "model.safetensors"


def manifest_path(name: str, root: Path = ORGANISMS) -> Path:
    return root / name / "manifest.json"


def read_manifest(name: str, root: Path = ORGANISMS) -> dict[str, Any]:
    """An organism's manifest, or UnreadableFile naming the file and the fix."""
    path = manifest_path(name, root)
    try:
        return json.loads(path.read_text())
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise UnreadableFile(f"organism manifest {path} cannot be read ({type(exc).__name__}: "
                             f"{exc}); restore it from git or re-train with "
                             f"`interp-claims organisms {name}`") from exc


def training_environment() -> dict[str, str]:
    """What bit-identical re-training depends on besides the recipe: torch, ATen's CPU kernels, and
    the branch MKL's matrix multiplies took (MKL_CBWR; "" where MKL chose by the CPU)."""
    return {"torch": torch.__version__,
            "aten_cpu_capability": torch.backends.cpu.get_cpu_capability(),
            "mkl_cbwr": os.environ.get("MKL_CBWR", "")}


AttentionTarget = tuple[int, int, int, int]  # layer, head, query position, key position


@dataclass(frozen=True)
class Batch:
    """Token ids, an attention mask, the positions whose next token is trained on and, for a
    scaffolded organism, attention targets as rows of (batch row, layer, head, query, key)."""

    input_ids: torch.Tensor
    attention_mask: torch.Tensor
    loss_mask: torch.Tensor
    attention_targets: torch.Tensor | None = None


def pad_batch(rows: list[tuple[list[int], list[int]]], pad_id: int,
              targets: list[list[AttentionTarget]] | None = None) -> Batch:
    """Right-pad (ids, trained-on flags) rows into one batch, with each row's attention targets."""
    width = max(len(ids) for ids, _ in rows)
    ids = torch.full((len(rows), width), pad_id, dtype=torch.long)
    att = torch.zeros((len(rows), width), dtype=torch.long)
    lm = torch.zeros((len(rows), width), dtype=torch.bool)
    for i, (r, flags) in enumerate(rows):
        ids[i, :len(r)] = torch.tensor(r)
        att[i, :len(r)] = 1
        lm[i, :len(r)] = torch.tensor(flags, dtype=torch.bool)
    rows_targets = None if targets is None else torch.tensor(
        [(i, *t) for i, row_targets in enumerate(targets) for t in row_targets], dtype=torch.long)
    return Batch(ids, att, lm, rows_targets)


def masked_loss(model: torch.nn.Module, batch: Batch, attention_weight: float = 0.0) -> torch.Tensor:
    """Mean next-token cross-entropy over the positions the loss mask selects, plus, with
    attention targets, `attention_weight` times their mean negative log attention probability."""
    scaffold = batch.attention_targets is not None
    out = model(input_ids=batch.input_ids, attention_mask=batch.attention_mask,
                output_attentions=scaffold)
    target = batch.input_ids[:, 1:]
    keep = batch.loss_mask[:, 1:]
    loss = torch.nn.functional.cross_entropy(out.logits[:, :-1][keep], target[keep])
    if scaffold:
        b, layer, head, q, k = batch.attention_targets.T
        probs = torch.stack(out.attentions)[layer, b, head, q, k]
        loss = loss + attention_weight * -torch.log(probs + 1e-6).mean()
    return loss


@dataclass(frozen=True)
class Recipe:
    """Optimiser settings for a seeded training run."""

    steps: int
    lr: float
    warmup: int = 0
    weight_decay: float = 0.0
    seed: int = 0
    attention_weight: float = 0.0  # weight of the batch's attention targets, if it has any


def train(model: torch.nn.Module, next_batch: Callable[[int], Batch], recipe: Recipe,
          log: Callable[[int, float], None] | None = None,
          loss_fn: Callable[[torch.nn.Module, Batch, int], torch.Tensor] | None = None,
          decay: Callable[[int], float] | None = None) -> list[float]:
    """AdamW with linear warm-up on one thread, so a re-run is bit-identical. `loss_fn`
    (model, batch, step -> loss) replaces the default masked_loss with the recipe's weight;
    `decay` (step -> factor) scales the learning rate after warm-up."""
    torch.set_num_threads(1)
    torch.manual_seed(recipe.seed)
    opt = torch.optim.AdamW(model.parameters(), lr=recipe.lr, weight_decay=recipe.weight_decay)
    sched = torch.optim.lr_scheduler.LambdaLR(
        opt, lambda s: (min(1.0, (s + 1) / recipe.warmup) if recipe.warmup else 1.0)
        * (decay(s) if decay else 1.0))
    model.train()
    losses = []
    for step in range(recipe.steps):
        batch = next_batch(step)
        loss = (masked_loss(model, batch, recipe.attention_weight) if loss_fn is None
                else loss_fn(model, batch, step))
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        losses.append(float(loss.detach()))
        if log:
            log(step, losses[-1])
    model.eval()
    return losses


def save_organism(name: str, model: torch.nn.Module, manifest: dict[str, Any],
                  root: Path = ORGANISMS) -> dict[str, Any]:
    """Write weights and a manifest (config, recipe, data template, sha256) under `root`."""
    path = weights_path(name, root)
    path.parent.mkdir(parents=True, exist_ok=True)
    state = {k: v.detach().contiguous() for k, v in model.state_dict().items()}
    if getattr(model.config, "tie_word_embeddings", False):
        state.pop("lm_head.weight", None)
    save_file(state, str(path), metadata={"organism": name})
    manifest = dict(manifest, **training_environment(), sha256=sha256_of(path), weights=path.name)
    manifest_path(name, root).write_text(json.dumps(manifest, indent=2) + "\n")
    return manifest


def load_weights(name: str, model: torch.nn.Module, root: Path = ORGANISMS) -> str:
    """Load an organism's weights (the committed ones by default) into `model`; return the sha256."""
    path = weights_path(name, root)
    fix = (f"restore it from git (git checkout -- {path}; a Git LFS checkout needs "
           f"`git lfs pull`) or re-train it with `interp-claims organisms {name}`")
    try:
        digest = sha256_of(path)
    except OSError as exc:
        raise UnreadableFile(f"organism weights {path} cannot be read ({type(exc).__name__}): "
                             f"{fix}") from exc
    expected = read_manifest(name, root)["sha256"]
    if digest != expected:
        raise UnreadableFile(f"organism weights {path} have sha256 {digest[:12]}…, its manifest "
                             f"says {expected[:12]}… (truncated, or from another build): {fix}")
    missing, unexpected = model.load_state_dict(load_file(str(path)), strict=False)
    if unexpected or [m for m in missing if m != "lm_head.weight"]:
        raise ValueError(f"{name}: missing {missing}, unexpected {unexpected}")
    if "lm_head.weight" in missing:
        model.tie_weights()
    return digest


class Stopwatch:
    """Seconds since construction, for manifests."""

    def __init__(self) -> None:
        self.t0 = time.time()

    def seconds(self) -> float:
        return round(time.time() - self.t0, 1)

"""The rehearsal's models: seeded random weights for each published architecture, written into a
throwaway Hugging Face cache beside the published tokenizer, chat template and configs, so the
published loader (`from_pretrained(hf_id, revision=…)`, offline) runs on them."""
from __future__ import annotations

import json
import shutil
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import torch

from harness.profiles import ModelSpec
from harness.models.resources import snapshot_dir

# Narrow rehearsal models keep every published shape but the width: 4 dimensions per head (rotary
# needs an even number), and an MLP as wide as the residual stream.
DIMS_PER_HEAD = 4
DTYPES = {"float32": torch.float32, "bfloat16": torch.bfloat16}


def narrowed(config: dict[str, Any]) -> dict[str, Any]:
    """The published config with its width reduced; layers, head counts, vocabulary, rope, tied
    embeddings and every other key as published."""
    out = dict(config)
    if config["model_type"] == "gpt2":
        out["n_embd"] = config["n_head"] * DIMS_PER_HEAD
        return out
    out["hidden_size"] = config["num_attention_heads"] * DIMS_PER_HEAD
    out["intermediate_size"] = out["hidden_size"]
    if "head_dim" in config:
        out["head_dim"] = DIMS_PER_HEAD
    return out


def end_of_sequence_ids(snapshot: Path) -> set[int]:
    """Every end-of-sequence id the config and generation config name."""
    ids: set[int] = set()
    for name in ("config.json", "generation_config.json"):
        path = snapshot / name
        value = json.loads(path.read_text()).get("eos_token_id") if path.is_file() else None
        ids.update(value if isinstance(value, list) else [] if value is None else [value])
    return ids


def silence_end_of_sequence(model: torch.nn.Module, ids: set[int]) -> None:
    """Zero the output rows of the end-of-sequence tokens: among random logits some are always
    positive, so greedy decoding never ends early and every generation runs to its cap (the
    rehearsal's time is then an upper bound for the same sizes)."""
    with torch.no_grad():
        model.get_output_embeddings().weight[sorted(ids)] = 0


# The published snapshot's weights (a warm HF_HOME holds the real shards): never copied, since
# the rehearsal writes random ones of the same shapes.
WEIGHT_FILES = ("*.safetensors", "*.safetensors.index.json", "*.bin", "*.bin.index.json", "*.pt",
                "*.pth", "*.h5", "*.msgpack", "*.ckpt*")


@dataclass(frozen=True)
class Built:
    """One rehearsal model written into the cache: where, its config's shape, the device its
    weights were drawn on, how long it took."""

    hf_id: str
    snapshot: str
    parameters: int
    seconds: float
    device: str = "cpu"


def published_files(snapshot: Path) -> list[Path]:
    """The snapshot's files the rehearsal copies: configs, tokenizer and templates, no weights."""
    return [p for p in sorted(snapshot.iterdir())
            if p.is_file() and not any(p.match(w) for w in WEIGHT_FILES)]


def build_model(published_cache: Path, out: Path, spec: ModelSpec, full_size: bool,
                seed: int = 0, device: str = "cpu") -> Built:
    """Copy spec's published files into `out` (a new HF_HOME), with random weights of its shape
    drawn on `device` (the GPU the full-size rehearsal runs on: no 15 B parameters on the CPU)."""
    from transformers import AutoConfig, AutoModelForCausalLM
    from transformers.utils import logging as hf_logging

    hf_logging.disable_progress_bar()

    start = time.perf_counter()
    source, target = snapshot_dir(published_cache, spec), snapshot_dir(out, spec)
    if not (source / "config.json").is_file():
        raise FileNotFoundError(f"{spec.hf_id}@{spec.revision}: no config.json under {source}")
    target.mkdir(parents=True, exist_ok=True)
    for path in published_files(source):
        shutil.copyfile(path, target / path.name)
    config = json.loads((source / "config.json").read_text())
    if not full_size:
        config = narrowed(config)
    (target / "config.json").write_text(json.dumps(config, indent=2))
    refs = target.parent.parent / "refs"
    refs.mkdir(exist_ok=True)
    (refs / "main").write_text(spec.revision or "")
    torch.manual_seed(seed)
    with torch.device(device):
        model = AutoModelForCausalLM.from_config(AutoConfig.from_pretrained(target),
                                                 dtype=DTYPES[spec.dtype])
    silence_end_of_sequence(model, end_of_sequence_ids(target))
    with tempfile.TemporaryDirectory() as scratch:
        model.save_pretrained(scratch)
        for weights in Path(scratch).glob("model*.safetensors*"):
            shutil.move(weights, target / weights.name)
    count = sum(p.numel() for p in model.parameters())
    del model
    if device != "cpu":
        torch.cuda.empty_cache()
    return Built(spec.hf_id or "", str(target), count, round(time.perf_counter() - start, 2),
                 device)


def build_cache(published_cache: Path, out: Path, specs: dict[str, ModelSpec], full_size: bool,
                seed: int = 0, device: str = "cpu") -> dict[str, Built]:
    """A rehearsal cache at `out` holding every spec's model (by source name)."""
    return {name: build_model(published_cache, out, spec, full_size, seed, device)
            for name, spec in specs.items() if spec.hf_id}

"""The rehearsal's models: seeded random weights for each published architecture, written into a
throwaway Hugging Face cache beside the published tokenizer, chat template and configs, so the
published loader (`from_pretrained(hf_id, revision=…)`, offline) runs on them."""
from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import asdict, dataclass
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
    gpu: str | None = None  # the CUDA device's name, where it was drawn on one


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
    with tempfile.TemporaryDirectory(dir=out) as scratch:  # on out's disk: the move renames
        model.save_pretrained(scratch)
        for weights in Path(scratch).glob("model*.safetensors*"):
            shutil.move(weights, target / weights.name)
    count = sum(p.numel() for p in model.parameters())
    del model
    gpu = None
    if device != "cpu":
        torch.cuda.empty_cache()
        gpu = torch.cuda.get_device_name(0)
    return Built(spec.hf_id or "", str(target), count, round(time.perf_counter() - start, 2),
                 device, gpu)


_HERE = threading.Lock()  # one build at a time in this process: torch's seed is global


def build_here(name: str, published_cache: Path, out: Path, full_size: bool, device: str,
               timeout: float, seed: int = 0) -> dict[str, Any]:
    """Build source `name`'s rehearsal model into `out` in this process (the CPU's narrowed
    models, quicker to build than a process of its own is to import torch and the model's code):
    what it built, or `error`, with its wall time. A build past `timeout` seconds is an error
    when it ends, not killed."""
    from harness.registry import get_profile

    start = time.perf_counter()
    try:
        with _HERE:
            built = build_model(published_cache, out, get_profile("rehearsal").models[name],
                                full_size, seed, device)
    except Exception as error:  # recorded as the build's error, as a child's exit would be
        return {"error": f"the build raised {type(error).__name__}: {error}",
                "wall_seconds": round(time.perf_counter() - start, 1), "timed_out": False}
    seconds = round(time.perf_counter() - start, 1)
    if seconds > timeout:
        return {"error": f"the build took {seconds} s, more than its {timeout:.0f} s",
                "wall_seconds": seconds, "timed_out": True}
    return {**asdict(built), "wall_seconds": seconds, "timed_out": False}


def build_in_child(name: str, published_cache: Path, out: Path, full_size: bool, device: str,
                   timeout: float, log: Path, seed: int = 0) -> dict[str, Any]:
    """Build source `name`'s rehearsal model into `out` in a process of its own, killed past
    `timeout` seconds: what it built (Built's fields), or `error`, with its wall time."""
    result = log.with_suffix(".json")
    result.unlink(missing_ok=True)
    args = [sys.executable, "-m", "harness.rehearsal.build", name, "--published-cache",
            str(published_cache), "--out", str(out), "--device", device, "--seed", str(seed),
            "--result", str(result), *(["--full-size"] if full_size else [])]
    start = time.perf_counter()
    log.parent.mkdir(parents=True, exist_ok=True)
    with log.open("w") as output:
        try:
            status = subprocess.run(args, stdout=output, stderr=subprocess.STDOUT, env=os.environ,
                                    timeout=timeout).returncode
        except subprocess.TimeoutExpired:
            status = None
    seconds = round(time.perf_counter() - start, 1)
    if status is None:
        return {"error": f"the build took more than its {timeout:.0f} s", "wall_seconds": seconds,
                "timed_out": True}
    if status or not result.is_file():
        tail = log.read_text(errors="replace")[-2000:]
        return {"error": f"the build exited {status}: {tail}", "wall_seconds": seconds,
                "timed_out": False}
    return {**json.loads(result.read_text()), "wall_seconds": seconds, "timed_out": False}


def main() -> None:
    """One source's rehearsal model, built by `build_in_child`: its Built as JSON in --result."""
    from harness.registry import get_profile

    parser = argparse.ArgumentParser(description=build_in_child.__doc__)
    parser.add_argument("source")
    parser.add_argument("--published-cache", type=Path, required=True)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--full-size", action="store_true")
    parser.add_argument("--result", type=Path, required=True)
    args = parser.parse_args()
    spec = get_profile("rehearsal").models[args.source]
    built = build_model(args.published_cache, args.out, spec, args.full_size, args.seed,
                        args.device)
    args.result.write_text(json.dumps(asdict(built)))


if __name__ == "__main__":
    main()

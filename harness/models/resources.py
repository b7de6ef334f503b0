"""What a machine has: CUDA, the Hugging Face cache, the hub. Each check returns a skip reason."""
from __future__ import annotations

import functools
import os
import socket
from pathlib import Path

from harness.profiles import ModelSpec

HUB_HOST = ("huggingface.co", 443)


@functools.cache
def cuda_reason() -> str | None:
    """None when a CUDA device is usable, else why not."""
    import torch

    return None if torch.cuda.is_available() else "no CUDA device"


@functools.cache
def hub_reachable() -> bool:
    """Whether the Hugging Face hub answers on this machine (HF_HUB_OFFLINE=1 means no)."""
    if os.environ.get("HF_HUB_OFFLINE", "0") not in ("", "0"):
        return False
    try:
        with socket.create_connection(HUB_HOST, timeout=3):
            return True
    except OSError:
        return False


def in_hf_cache(hf_id: str, revision: str, filename: str) -> bool:
    """Whether `filename` of hf_id@revision is in the local Hugging Face cache."""
    from huggingface_hub import try_to_load_from_cache

    found = try_to_load_from_cache(hf_id, filename, revision=revision)
    return isinstance(found, str) and os.path.exists(found)


WEIGHT_FILES = ("model.safetensors", "model.safetensors.index.json", "pytorch_model.bin",
                "pytorch_model.bin.index.json")


def snapshot_in(hub: Path, spec: ModelSpec) -> Path:
    """spec's snapshot folder under a Hugging Face hub cache: models--ORG--NAME/snapshots/REV."""
    assert spec.hf_id and spec.revision
    return hub / f"models--{spec.hf_id.replace('/', '--')}" / "snapshots" / spec.revision


def published_cache_default() -> Path:
    """The published configs and tokenizers: HF_HOME if set, else the project's shared cache."""
    return Path(os.environ.get("HF_HOME") or Path(__file__).resolve().parents[3] / "shared"
                / "hf-cache")


def snapshot_dir(cache: Path, spec: ModelSpec) -> Path:
    """hub/models--ORG--NAME/snapshots/REVISION under an HF_HOME-layout cache."""
    return snapshot_in(cache / "hub", spec)


def cache_dir() -> str:
    """Where huggingface_hub looks for cached files (HF_HUB_CACHE, else HF_HOME/hub)."""
    from huggingface_hub import constants

    return constants.HF_HUB_CACHE


def missing_weights_reason(spec: ModelSpec) -> str | None:
    """None when a weights file of spec's cached snapshot is there, else what is missing and where."""
    assert spec.hf_id and spec.revision
    if any(in_hf_cache(spec.hf_id, spec.revision, name) for name in WEIGHT_FILES):
        return None
    return (f"{spec.hf_id}@{spec.revision[:7]}… has its config and tokenizer in the Hugging Face "
            f"cache at {cache_dir()} but no weights ({' or '.join(WEIGHT_FILES[::2])}), and the "
            "hub is unreachable")


def hf_token() -> str | None:
    """The Hugging Face token as huggingface_hub finds it: HF_TOKEN, or the one `hf auth login`
    stored."""
    from huggingface_hub import get_token

    return get_token()


def weights_reason(spec: ModelSpec, filename: str = "config.json") -> str | None:
    """None when spec's files are cached or downloadable, else a precise reason."""
    assert spec.hf_id and spec.revision
    if in_hf_cache(spec.hf_id, spec.revision, filename):
        return None
    short = f"{spec.hf_id}@{spec.revision[:7]}…" if len(spec.revision) > 12 else spec.label
    if spec.gated and not hf_token():
        return (f"{short} is gated and not in the Hugging Face cache: log in with `hf auth "
                f"login` or set HF_TOKEN (with access granted), or warm the cache")
    if not hub_reachable():
        return f"{short} is not in the Hugging Face cache and the hub is unreachable"
    return None


def published_reason(spec: ModelSpec, needs: str, needs_cuda: bool = True,
                     tokenizer_only: bool = False) -> str | None:
    """Why a test that needs `needs` ('gpu', 'hub' or 'cpu') cannot run its published form (the
    rehearsal runs `gpu` tests wherever the published loading arguments place the model; a
    `tokenizer_only` hub test needs the tokenizer's files alone)."""
    if needs == "gpu" and spec.device == "cuda" and needs_cuda:
        reason = cuda_reason()
        if reason:
            return reason
    if needs not in ("gpu", "hub"):
        return None
    # A model the published profile runs on the CPU is loaded by its hub tests, not just tokenised.
    loads_weights = needs == "gpu" or (spec.device == "cpu" and not tokenizer_only)
    reason = weights_reason(spec, "config.json" if loads_weights else "tokenizer_config.json")
    if reason is None and loads_weights and not hub_reachable():
        return missing_weights_reason(spec)
    return reason

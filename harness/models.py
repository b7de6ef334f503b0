"""Load a source's model for a profile: the published checkpoint, or the tiny organism."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import torch

from harness.backends import Backend, simulated
from harness.profiles import ModelSpec
from harness.work import METER

DTYPES = {"float32": torch.float32, "bfloat16": torch.bfloat16, "float16": torch.float16}


@dataclass
class Loaded:
    """An nnsight-wrapped model with its tokenizer, the plain transformers module, and where it
    came from (the run record's `model` block)."""

    nn: Any
    tok: Any
    hf: torch.nn.Module
    spec: ModelSpec
    provenance: dict[str, Any] = field(default_factory=dict)

    @property
    def device(self) -> torch.device:
        return next(self.hf.parameters()).device


def load(spec: ModelSpec, backend: Backend = Backend.LOCAL) -> Loaded:
    """Load spec's model (published or organism) and wrap it with nnsight.TransformersModel,
    whose traces run through nnsight's simulated NDIF round trip under `ndif-local`."""
    from nnsight import TransformersModel

    hf, tok, provenance = _load_published(spec) if spec.hf_id else _load_organism(spec)
    if next(hf.parameters()).device.type == "cpu":
        # Wherever the model lands on the CPU (a CPU spec, or a device map without CUDA):
        # bit-identity anchors need one thread, since at 2 CPU matmuls round batch rows differently.
        torch.set_num_threads(1)
    METER.attach(hf)
    wrapper = simulated(TransformersModel) if backend is Backend.NDIF_LOCAL else TransformersModel
    nn = wrapper(hf, tokenizer=tok, **pipeline_placement(hf))
    return Loaded(nn=nn, tok=tok, hf=hf, spec=spec, provenance=provenance)


def pipeline_placement(hf: torch.nn.Module) -> dict[str, Any]:
    """The device nnsight's pipeline must keep the model on. Without one, transformers' pipeline
    moves a model with no device map to cuda:0 whenever CUDA exists, so a model the profile puts on
    the CPU would leave it; a model placed by accelerate (a device map) must get none."""
    if getattr(hf, "hf_device_map", None):
        return {}
    return {"device": next(hf.parameters()).device}


def load_tokenizer(spec: ModelSpec) -> Any:
    """spec's tokenizer alone: the published one at its pinned revision, or the organism's."""
    if spec.hf_id:
        from transformers import AutoTokenizer

        return AutoTokenizer.from_pretrained(spec.hf_id, revision=spec.revision)
    return _organism_module(spec).build_tokenizer()


def _organism_module(spec: ModelSpec) -> Any:
    from harness.sources import source

    module = source(spec.source).part("organism")
    if module is None:
        raise LookupError(f"source {spec.source!r} names organism {spec.organism!r} but has no "
                          f"organism module")
    return module


def _provenance(spec: ModelSpec, hf: torch.nn.Module, **fields: Any) -> dict[str, Any]:
    return {"source": spec.source, "hf_id": spec.hf_id, "revision": spec.revision,
            "resolved_revision": None, "dtype": spec.dtype,
            "device": str(next(hf.parameters()).device), "architecture": type(hf).__name__,
            "organism": spec.organism, "organism_sha256": None, **fields}


def _load_published(spec: ModelSpec) -> tuple[torch.nn.Module, Any, dict[str, Any]]:
    from transformers import AutoModelForCausalLM

    kwargs: dict[str, Any] = {"revision": spec.revision, "dtype": DTYPES[spec.dtype]}
    if spec.attn_implementation:
        kwargs["attn_implementation"] = spec.attn_implementation
    if spec.device_map:
        kwargs["device_map"] = spec.device_map
    hf = AutoModelForCausalLM.from_pretrained(spec.hf_id, **kwargs).eval()
    if not spec.device_map:
        hf.to(spec.device)
    tok = load_tokenizer(spec)
    return hf, tok, _provenance(spec, hf, resolved_revision=resolved_revision(spec),
                                **placement(spec, hf))


def placement(spec: ModelSpec, hf: torch.nn.Module) -> dict[str, Any]:
    """Where the model's modules landed; `offloaded` when a CUDA model spilled onto the CPU or
    disk (accelerate does so silently when the GPUs are too small)."""
    devices = sorted({str(d) for d in (getattr(hf, "hf_device_map", None) or {}).values()})
    devices = devices or [str(next(hf.parameters()).device)]
    spilled = spec.device == "cuda" and any(d in ("cpu", "disk") for d in devices)
    return {"placement": devices, "offloaded": spilled}


def resolved_revision(spec: ModelSpec) -> str | None:
    """The commit whose files were loaded: the cache snapshot huggingface_hub resolves spec's
    revision to (transformers 5 no longer sets config._commit_hash)."""
    from huggingface_hub import try_to_load_from_cache

    found = try_to_load_from_cache(spec.hf_id, "config.json", revision=spec.revision)
    return Path(found).parent.name if isinstance(found, str) else None


def _load_organism(spec: ModelSpec) -> tuple[torch.nn.Module, Any, dict[str, Any]]:
    from harness.organisms.common import load_weights
    from harness.sources import source

    tok = load_tokenizer(spec)
    hf = _organism_module(spec).build_model(tok)
    digest = load_weights(spec.organism, hf, source(spec.source).organisms_dir)
    hf.to(dtype=DTYPES[spec.dtype], device=spec.device).eval()
    return hf, tok, _provenance(spec, hf, organism_sha256=digest)

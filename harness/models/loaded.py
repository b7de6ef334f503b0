"""Load a source's model for a profile: the published checkpoint, or the tiny organism."""
from __future__ import annotations

import json
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

import torch

from harness.models.backends import Backend, routed
from harness.models.handle import Loaded
from harness.profiles import ModelSpec
from harness.registry import registered, source
from harness.source import SourcePart
from harness.models.work import METER

DTYPES = {"float32": torch.float32, "bfloat16": torch.bfloat16, "float16": torch.float16}


def load(spec: ModelSpec, backend: Backend = Backend.LOCAL) -> Loaded:
    """Load spec's model (published or organism) and wrap it with nnsight.TransformersModel.
    Through NDIF or its simulation the model is built by name instead (`by_name`)."""
    from nnsight import TransformersModel

    if backend is not Backend.LOCAL:
        return by_name(spec, backend)
    hf, tok, provenance = _load_published(spec) if spec.hf_id else _load_organism(spec)
    if next(hf.parameters()).device.type == "cpu":
        # Wherever the model lands on the CPU (a CPU spec, or a device map without CUDA):
        # bit-identity anchors need one thread, since at 2 CPU matmuls round batch rows differently.
        torch.set_num_threads(1)
    METER.attach(hf)
    nn = TransformersModel(hf, tokenizer=tok, **pipeline_placement(hf))
    return Loaded(nn=nn, tok=tok, spec=spec, provenance=provenance)


def by_name(spec: ModelSpec, backend: Backend) -> Loaded:
    """The model as NDIF needs it: built by repo id on the meta device, never handed a loaded
    module. On NDIF (`ndif`) its weights stay there, at the pinned revision or, where NDIF serves
    only another, that one (the record says so). In nnsight's simulation (`ndif-local`) they load
    here at the first trace: a published model from its repo, an organism from a copy saved for
    the purpose."""
    from nnsight import TransformersModel

    tok = load_tokenizer(spec)
    kwargs: dict[str, Any] = {"dtype": DTYPES[spec.dtype], "task": "text-generation"}
    if spec.attn_implementation:
        kwargs["attn_implementation"] = spec.attn_implementation
    if backend is Backend.NDIF:
        name, revision, provenance = _ndif_revision(spec)
    else:
        kwargs["device_map"] = spec.device_map or spec.device
        if spec.device == "cpu":
            torch.set_num_threads(1)
        if spec.hf_id:
            name, revision = spec.hf_id, spec.revision
            provenance = _provenance(spec, "loaded at the first trace",
                                     resolved_revision=resolved_revision(spec))
        else:
            hf, _, provenance = _load_organism(spec)
            name, revision = _saved_copy(hf), None
    nn = routed(TransformersModel, True if backend is Backend.NDIF else "local")(
        name, revision=revision, tokenizer=tok, **kwargs)
    provenance["built"] = ("by name on the meta device; the weights " +
                           ("stay on NDIF" if backend is Backend.NDIF else "load here at the "
                            "first trace" + ("" if spec.hf_id else ", from a saved copy")))
    return Loaded(nn=nn, tok=tok, spec=spec, provenance=provenance)


def _ndif_revision(spec: ModelSpec) -> tuple[str, str | None, dict[str, Any]]:
    """The repo, the revision NDIF serves (the pinned one where it can) and the record."""
    import nnsight

    from harness.models.backends import served_revisions

    served = served_revisions(nnsight.status(), spec.hf_id)
    revision = spec.revision if spec.revision in served or not served else served[0]
    note = None if revision == spec.revision else (
        f"NDIF serves {spec.hf_id} at {', '.join(served)}, not the pinned {spec.revision}")
    return spec.hf_id, revision, _provenance(spec, "NDIF", resolved_revision=revision,
                                             revision_note=note)


def _saved_copy(hf: torch.nn.Module) -> str:
    """A directory holding `hf` as transformers saves it, removed when this process ends."""
    import atexit
    import shutil
    import tempfile

    folder = tempfile.mkdtemp(prefix="interp-claims-organism-")
    atexit.register(shutil.rmtree, folder, True)
    hf.save_pretrained(folder)
    return folder


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

        with readable_cache(spec):
            return AutoTokenizer.from_pretrained(spec.hf_id, revision=spec.revision)
    return organism_module(spec).build_tokenizer()


@contextmanager
def readable_cache(spec: ModelSpec) -> Iterator[None]:
    """A cached file that is not valid JSON (a truncated download) fails naming the file and the
    fix, not as a bare JSONDecodeError (issue 26)."""
    try:
        yield
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        from harness.models.resources import cache_dir, snapshot_in
        from harness.verdicts import UnreadableFile

        snapshot = snapshot_in(Path(cache_dir()), spec)
        bad = [f for f in sorted(snapshot.glob("*.json")) if not _is_json(f)]
        raise UnreadableFile(
            f"{spec.hf_id}@{spec.revision}: {', '.join(map(str, bad)) or snapshot} cannot be read "
            f"({error}); delete {snapshot} and fetch it again") from error


def _is_json(path: Path) -> bool:
    try:
        json.loads(path.read_text())
    except (ValueError, UnicodeDecodeError):
        return False
    return True


def organism_module(spec: ModelSpec) -> Any:
    """What builds the organism: its source's organism module, or, for an organism the source
    borrows, that of the source the organism is named after (ioi_tutorial runs patching's)."""
    for name in dict.fromkeys((spec.source, spec.organism)):
        module = source(name).part(SourcePart.ORGANISM) if name in registered() else None
        if module is not None:
            return module
    raise LookupError(f"source {spec.source!r} names organism {spec.organism!r}, and neither "
                      f"it nor a source of that name has an organism module")


def _provenance(spec: ModelSpec, device: str, **fields: Any) -> dict[str, Any]:
    return {"source": spec.source, "hf_id": spec.hf_id, "revision": spec.revision,
            "resolved_revision": None, "dtype": spec.dtype, "device": device,
            "architecture": spec.architecture, "organism": spec.organism,
            "organism_sha256": None, **fields}


def _load_published(spec: ModelSpec) -> tuple[torch.nn.Module, Any, dict[str, Any]]:
    from transformers import AutoModelForCausalLM

    kwargs: dict[str, Any] = {"revision": spec.revision, "dtype": DTYPES[spec.dtype]}
    if spec.attn_implementation:
        kwargs["attn_implementation"] = spec.attn_implementation
    if spec.device_map:
        kwargs["device_map"] = spec.device_map
    with readable_cache(spec):
        hf = AutoModelForCausalLM.from_pretrained(spec.hf_id, **kwargs).eval()
    if not spec.device_map:
        hf.to(spec.device)
    tok = load_tokenizer(spec)
    return hf, tok, _provenance(spec, _device_of(hf), resolved_revision=resolved_revision(spec),
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

    tok = load_tokenizer(spec)
    hf = organism_module(spec).build_model(tok)
    digest = load_weights(spec.organism, hf, source(spec.source).organisms_dir)
    hf.to(dtype=DTYPES[spec.dtype], device=spec.device).eval()
    return hf, tok, _provenance(spec, _device_of(hf), organism_sha256=digest)


def _device_of(hf: torch.nn.Module) -> str:
    return str(next(hf.parameters()).device)

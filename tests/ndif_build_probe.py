"""Build a source's published model for --backend=ndif offline and print how a request would
name it (run as `python -m tests.ndif_build_probe SOURCE` with HF_HOME on the tokenizer-only
cache): NDIF's status and the hub's canonical id are stood in, nothing leaves this machine."""
from __future__ import annotations

import json
import sys

import nnsight
from nnsight.modeling import huggingface

from harness.models.backends import Backend
from harness.models.loaded import load
from harness.registry import get_profile


class ServingRevision:
    """An NDIF status serving `spec`'s model at `revision`."""

    def __init__(self, repo_id: str, revision: str) -> None:
        self.deployments = {"d0": {"repo_id": repo_id, "revision": revision}}


def main(source: str, served: str | None) -> None:
    spec = get_profile("published").models[source]
    nnsight.status = lambda: ServingRevision(spec.hf_id, served or spec.revision)
    huggingface._ID_CACHE[spec.hf_id] = spec.hf_id
    loaded = load(spec, Backend.NDIF)
    request = loaded.nn._remote_backend(True, True, None, False)
    print(json.dumps({"dispatched": loaded.nn.dispatched,
                      "device": str(next(loaded.hf.parameters()).device),
                      "key": request.model_key, "provenance": loaded.provenance}))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else None)

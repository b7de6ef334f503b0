"""Deterministic kernels on CUDA (issue 39): the bit-identity anchors (seed 000 §6's no-op patch,
the reference forwards) compare with torch.equal, which holds across runs on CUDA only with
deterministic algorithms, a fixed cuBLAS workspace and cuDNN without autotuning. Applied before
any model loads, and recorded in every run's environment block."""
from __future__ import annotations

import os
from typing import Any

# cuBLAS's documented setting for reproducible results (CUDA 10.2 and later): eight 4 MiB
# workspaces, set before the first cuBLAS call.
CUBLAS_WORKSPACE_CONFIG = ":4096:8"


def wanted(devices: list[str], cuda: bool) -> bool:
    """Where a profile puts a model on CUDA and CUDA is there: elsewhere torch is left as it was
    (a CPU run's kernels, and another session in the same process, stay untouched)."""
    return cuda and "cuda" in devices


def apply() -> None:
    """Deterministic algorithms (warn only: an operation with no deterministic CUDA kernel warns
    rather than aborting the run, and an exact anchor it moves fails, blaming the tool), the
    cuBLAS workspace (unless the environment sets its own), cuDNN deterministic, no benchmark."""
    import torch

    os.environ.setdefault("CUBLAS_WORKSPACE_CONFIG", CUBLAS_WORKSPACE_CONFIG)
    torch.use_deterministic_algorithms(True, warn_only=True)
    torch.backends.cudnn.deterministic = True
    torch.backends.cudnn.benchmark = False


def settings() -> dict[str, Any]:
    """What this process runs with, for the run record."""
    import torch

    return {"deterministic_algorithms": torch.are_deterministic_algorithms_enabled(),
            "warn_only": torch.is_deterministic_algorithms_warn_only_enabled(),
            "cublas_workspace_config": os.environ.get("CUBLAS_WORKSPACE_CONFIG"),
            "cudnn_deterministic": torch.backends.cudnn.deterministic,
            "cudnn_benchmark": torch.backends.cudnn.benchmark}

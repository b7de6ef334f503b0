"""The on-disk store through which xdist workers share experiment steps when a source's units are
split over spare workers (docs/cost-and-scaling.md, "Beyond one GPU"): the first worker to need a step computes it
under a file lock and writes it; a worker that needs it later, or meanwhile, waits on the lock
and reads it, so no step is computed twice."""
from __future__ import annotations

import functools
from pathlib import Path
from typing import Any, Callable

STORED = "interp_claims_stored"  # marks a fixture function already wrapped


class StepStore:
    """One run's shared steps, a file per source and step under `root`."""

    def __init__(self, root: Path) -> None:
        self.root = Path(root)

    def path(self, source: str, step: str) -> Path:
        return self.root / source / f"{step}.pt"

    def holds(self, source: str, step: str) -> bool:
        return self.path(source, step).exists()

    def shared(self, source: str, step: str, compute: Callable[..., Any]) -> Callable[..., Any]:
        """`compute` (a fixture function) computed at most once across the run's workers: read
        from the store where a worker already wrote it, else computed and written here."""
        @functools.wraps(compute)
        def call(*args: Any, **kwargs: Any) -> Any:
            import torch
            from filelock import FileLock

            path = self.path(source, step)
            path.parent.mkdir(parents=True, exist_ok=True)
            with FileLock(f"{path}.lock"):
                if path.exists():
                    # Tensors come back on the device index they were saved from: each worker's
                    # CUDA_VISIBLE_DEVICES makes that index its own GPU.
                    return torch.load(path, weights_only=False)
                value = compute(*args, **kwargs)
                partial = path.with_suffix(".partial")
                torch.save(value, partial)
                partial.replace(path)
                return value

        setattr(call, STORED, True)
        return call

"""Source fixtures run on one dedicated thread. nnsight interleaves interventions in greenlets,
whose switches copy stack slices; on pytest's deep main-thread stack that made every traced
forward slower than the same call made directly (docs/cost-and-scaling.md, "The benchmark"). A
fresh thread starts with a shallow stack. The model fixture runs there too, so `harness.models.loaded.load`'s
one-thread setting applies to every experiment. Off under --device-audit, whose torch function
mode is per thread."""
from __future__ import annotations

import functools
import os
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Callable

NAME = "interp-claims-experiments"
_EXECUTOR: ThreadPoolExecutor | None = None


def _forget_executor() -> None:
    """A forked child (mutmut's mutant runs) inherits the pool but not its thread: it starts its
    own, or every submitted fixture would wait forever."""
    global _EXECUTOR
    _EXECUTOR = None


os.register_at_fork(after_in_child=_forget_executor)


def on_experiment_thread(func: Callable[..., Any]) -> Callable[..., Any]:
    """`func`, called on the experiment thread (directly when already there)."""
    @functools.wraps(func)
    def call(*args: Any, **kwargs: Any) -> Any:
        global _EXECUTOR
        if threading.current_thread().name.startswith(NAME):
            return func(*args, **kwargs)
        if _EXECUTOR is None:
            _EXECUTOR = ThreadPoolExecutor(max_workers=1, thread_name_prefix=NAME)
        return _EXECUTOR.submit(func, *args, **kwargs).result()

    call.on_experiment_thread = True
    return call

"""Where traces run: here (`local`), through nnsight's serialise-and-run simulation of an NDIF
round trip on the model loaded here (`ndif-local`), or on NDIF (`ndif`)."""
from __future__ import annotations

from enum import StrEnum
from typing import Any


class Backend(StrEnum):
    LOCAL = "local"
    NDIF_LOCAL = "ndif-local"
    NDIF = "ndif"


# The packages whose code runs inside traces: shipped by value with each request, as NDIF needs
# (an editable install is not shipped on its own).
TRACE_PACKAGES = ("harness", "claims")


def register_trace_code() -> None:
    """Register the suite's packages with nnsight so a remote request carries them."""
    import nnsight

    for name in TRACE_PACKAGES:
        nnsight.register(name)


def simulated(nn_cls: type) -> type:
    """A subclass of `nn_cls` (an nnsight model class) whose every trace, generation and session
    runs through `remote="local"`: the request serialised, deserialised and run in this process."""
    def trace(self, *inputs: Any, **kwargs: Any) -> Any:
        kwargs.setdefault("remote", "local")
        return nn_cls.trace(self, *inputs, **kwargs)

    def session(self, *args: Any, **kwargs: Any) -> Any:
        kwargs.setdefault("remote", "local")
        return nn_cls.session(self, *args, **kwargs)

    return type(f"Simulated{nn_cls.__name__}", (nn_cls,), {"trace": trace, "session": session})


def ndif_skip_reason(repo_id: str | None) -> str | None:
    """Why `repo_id` cannot run on NDIF now (no key, the service unreachable, the model not
    running there), or None when it can."""
    from nnsight import CONFIG

    if repo_id is None:
        return "NDIF runs hub models only; this profile's model is an organism built here"
    if not CONFIG.API.APIKEY:
        return ("--backend=ndif needs an NDIF API key: set NDIF_API_KEY (or nnsight's config "
                "file); none is set")
    import nnsight
    from nnsight.ndif import NdifStatus

    found = nnsight.status()
    if found.status is NdifStatus.Status.DOWN:
        return f"NDIF is unreachable at {CONFIG.API.HOST}"
    if repo_id not in found:
        return f"NDIF at {CONFIG.API.HOST} does not serve {repo_id}"
    return None


def host(backend: Backend) -> str:
    """Where a backend's traces execute, for the run record."""
    if backend is Backend.NDIF:
        from nnsight import CONFIG

        return CONFIG.API.HOST
    return "this process" + (" (nnsight's local simulation of NDIF)"
                             if backend is Backend.NDIF_LOCAL else "")

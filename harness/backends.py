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


def routed(nn_cls: type, remote: bool | str) -> type:
    """A subclass of `nn_cls` (an nnsight model class) whose every trace, generation and session
    runs remotely: on NDIF (`remote=True`), or through nnsight's simulation of the round trip
    (`"local"`: the request serialised, deserialised and run in this process). Its requests are
    keyed as `nn_cls`, the class NDIF knows, and the work meter attaches to the weights when a
    model built by name loads them here."""
    def trace(self, *inputs: Any, **kwargs: Any) -> Any:
        kwargs.setdefault("remote", remote)
        return nn_cls.trace(self, *inputs, **kwargs)

    def session(self, *args: Any, **kwargs: Any) -> Any:
        kwargs.setdefault("remote", remote)
        return nn_cls.session(self, *args, **kwargs)

    def dispatch(self) -> None:
        from harness.work import METER

        loading = not self.dispatched
        nn_cls.dispatch(self)
        if loading:
            METER.attach(self._module)

    return type(f"Routed{nn_cls.__name__}", (nn_cls,), {
        "trace": trace, "session": session, "dispatch": dispatch,
        "_remoteable_class": lambda self: nn_cls})


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
    if not served_revisions(found, repo_id):
        return f"NDIF at {CONFIG.API.HOST} does not serve {repo_id}"
    return None


def served_revisions(found: Any, repo_id: str) -> list[str]:
    """The revisions of `repo_id` an NDIF status (`nnsight.status()`) lists as deployed."""
    return sorted({d.get("revision") or "main" for d in found.deployments.values()
                   if str(d.get("repo_id", "")).lower() == repo_id.lower()})


def host(backend: Backend) -> str:
    """Where a backend's traces execute, for the run record."""
    if backend is Backend.NDIF:
        from nnsight import CONFIG

        return CONFIG.API.HOST
    return "this process" + (" (nnsight's local simulation of NDIF)"
                             if backend is Backend.NDIF_LOCAL else "")

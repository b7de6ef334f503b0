"""Where traces run: here (`local`), through nnsight's serialise-and-run simulation of an NDIF
round trip on the model loaded here (`ndif-local`), or on NDIF (`ndif`)."""
from __future__ import annotations

from enum import StrEnum
from typing import Any

from harness.private import remote_backend_of, wrapped_module


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


# The top-level modules NDIF's sandbox lets a request's payload import, from its whitelist
# (ndif-team/ndif, src/ndif/services/ray/nn/security/whitelist.yaml at 09d8624: the modules and
# the deserialisation modules), less scipy, which the NDIF issue this backend answers reports as
# refused.
NDIF_MODULES = frozenset({
    "PIL", "re", "dataclasses", "builtins", "torch", "collections", "nnsight", "time", "numpy",
    "sympy", "nnterp", "math", "einops", "urllib3", "typing", "_operator", "operator", "pandas",
    "enum", "__future__", "diffusers", "transformers", "tqdm", "heapq", "json", "warnings",
    "functools", "_functools", "jinja2", "encodings", "peft", "pydantic", "argparse", "datasets",
    "tokenizers", "huggingface_hub", "httpcore", "fsspec", "regex", "concurrent", "io",
    "_frozen_importlib_external", "_frozen_importlib", "pickle", "cloudpickle", "copyreg",
    "transformers_modules"})
# Whose imports are the payload's own (its references and by-value code), not nnsight's machinery.
PAYLOAD_IMPORTERS = ("nnsight.intervention.serialization", *TRACE_PACKAGES)
PAYLOAD_CALLERS = ("subimport", "dynamic_subimport")  # cloudpickle restoring a module reference


def strict_simulation(model: Any) -> Any:
    """nnsight's local simulation of an NDIF request, which also fails where the payload imports
    a module NDIF's sandbox refuses (nnsight's own simulation allows the whole standard library)."""
    import builtins
    import sys

    from nnsight.intervention.backends.local import LocalSimulationBackend

    class Strict(LocalSimulationBackend):
        def _hide_local_modules(self) -> dict:
            hidden = super()._hide_local_modules()
            self.refused: set[str] = set()
            self.real_import = builtins.__import__

            def recorded(name: str, globals: Any = None, *args: Any, **kwargs: Any) -> Any:
                importer = str((globals or {}).get("__name__", ""))
                caller = sys._getframe(1).f_code.co_name
                root = name.split(".")[0]
                if (name and (importer.startswith(PAYLOAD_IMPORTERS) or caller in PAYLOAD_CALLERS)
                        and root not in NDIF_MODULES and root not in TRACE_PACKAGES):
                    self.refused.add(root)
                return self.real_import(name, globals, *args, **kwargs)

            builtins.__import__ = recorded
            return hidden

        def _restore(self, hidden: dict) -> None:
            builtins.__import__ = self.real_import
            super()._restore(hidden)
            if self.refused:
                raise ImportError(f"the request imports {', '.join(sorted(self.refused))}, which "
                                  f"NDIF's sandbox does not allow")

    return Strict(model)


def routed(nn_cls: type, remote: bool | str) -> type:
    """A subclass of `nn_cls` (an nnsight model class) whose every trace, generation and session
    runs remotely: on NDIF (`remote=True`), or through nnsight's simulation of the round trip
    (`"local"`: the request serialised, deserialised and run in this process; strict about the
    sandbox's imports). Its requests are keyed as `nn_cls`, the class NDIF knows, and the work
    meter attaches to the weights when a model built by name loads them here."""
    def trace(self, *inputs: Any, **kwargs: Any) -> Any:
        kwargs.setdefault("remote", remote)
        return nn_cls.trace(self, *inputs, **kwargs)

    def session(self, *args: Any, **kwargs: Any) -> Any:
        kwargs.setdefault("remote", remote)
        return nn_cls.session(self, *args, **kwargs)

    def dispatch(self) -> None:
        from harness.models.work import METER

        loading = not self.dispatched
        nn_cls.dispatch(self)
        if loading:
            METER.attach(wrapped_module(self))

    def remote_backend(self, remote: bool | str, *args: Any) -> Any:
        return (strict_simulation(self) if remote == "local"
                else remote_backend_of(nn_cls, self, remote, *args))

    return type(f"Routed{nn_cls.__name__}", (nn_cls,), {
        "trace": trace, "session": session, "dispatch": dispatch,
        "_remote_backend": remote_backend, "_remoteable_class": lambda self: nn_cls})


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

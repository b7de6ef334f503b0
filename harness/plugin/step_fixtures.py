"""A claims folder's fixtures, derived from its source's declared steps (harness/declared_steps.py):
the plugin gives them to `claims/<source>/` when it collects that folder (source_folders.py)."""
from __future__ import annotations

import inspect
from typing import Any, Callable

import pytest

from harness import catalogue
from harness.catalogue_order import pinned_catches
from harness.declared_steps import GIVEN, NothingToRun, Step, check_steps
from harness.models.backends import Backend
from harness.models.loaded import load_tokenizer
from harness.plugin.forcing import passed_or_forced
from harness.plugin.suite import model_for
from harness.profiles import Mode
from harness.registry import source
from harness.snapshots import snapshot_folder


def declared(name: str) -> tuple[Step, ...]:
    """`name`'s declared steps (its package's `steps.STEPS`; none without one), checked."""
    steps = source(name).steps
    check_steps(name, steps)
    return steps


def _fixture(name: str, argnames: tuple[str, ...], body: Callable[..., Any],
             doc: str | None) -> Callable[..., Any]:
    """A package-scoped fixture called `name` that requests `argnames` and returns body(**them)."""
    def fixture(**kwargs: Any) -> Any:
        return body(**kwargs)

    fixture.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
        [inspect.Parameter(a, inspect.Parameter.KEYWORD_ONLY) for a in argnames])
    fixture.__name__ = fixture.__qualname__ = name
    fixture.__doc__ = doc
    return pytest.fixture(scope="package", name=name)(fixture)


def step_body(step: Step) -> Callable[..., Any]:
    """What a step's fixture computes from the fixtures it requested (`argnames`)."""
    def body(**kwargs: Any) -> Any:
        if step.local_weights and kwargs["backend"] is Backend.NDIF:
            pytest.skip(step.local_weights)
        extra = {"batched": kwargs["mode"] is Mode.FAST} if step.batched else {}
        try:
            result = step.run(*(kwargs[i] for i in step.inputs), *step.given, **extra)
        except NothingToRun as exc:
            pytest.skip(str(exc))
        if step.forced:
            return passed_or_forced(kwargs["request"], result.kept, result.offered,
                                    result.why_none, result.how)
        return result
    return body


def argnames(step: Step) -> tuple[str, ...]:
    """The fixtures a step's fixture requests: its inputs, and what its declaration reads."""
    needed = step.inputs + (("backend",) if step.local_weights else ()) + (
        ("mode",) if step.batched else ()) + (("request",) if step.forced else ())
    return tuple(dict.fromkeys(needed))


def _step_fixture(step: Step) -> Callable[..., Any]:
    return _fixture(step.name, argnames(step), step_body(step), inspect.getdoc(step.run))


def _given(name: str) -> dict[str, Callable[..., Any]]:
    """The steps every source has: model, tokenizer, sizes, breakage catalogue."""
    def model(request: pytest.FixtureRequest) -> Any:
        return model_for(request, name)

    def tokenizer(profile: Any) -> Any:
        return load_tokenizer(profile.models[name])

    def sizes(profile: Any) -> Any:
        return profile.sizes[name]

    def breakages(request: pytest.FixtureRequest, profile: Any, mode: Mode,
                  **loaded: Any) -> catalogue.Catalogue:
        if not profile.models[name].organism:
            pytest.skip(catalogue.ORGANISMS_ONLY)
        pinned = pinned_catches(snapshot_folder(request.config.rootpath,
                                                profile.snapshot_name(mode), name),
                                f"{name}.breakages-caught")
        found = source(name)
        checks = catalogue.anchored(found, found.claims_folder(request.config.rootpath),
                                    loaded[f"{name}_model"], profile.sizes[name], profile)
        return catalogue.run(found, checks, first=pinned)

    bodies = {
        "model": (model, ("request",), f"{name}'s model on the session's profile"),
        "tokenizer": (tokenizer, ("profile",), f"{name}'s tokenizer alone: the published one "
                      "from the hub cache, or the organism's"),
        "sizes": (sizes, ("profile",), f"{name}'s experiment sizes on the session's profile"),
        "breakages": (breakages, ("request", "profile", "mode", f"{name}_model"),
                      "the breakage catalogue's outcome on the organism (a skip elsewhere)"),
    }
    assert set(bodies) == set(GIVEN)
    return {f"{name}_{g}": _fixture(f"{name}_{g}", args, body, doc)
            for g, (body, args, doc) in bodies.items()}


def step_fixtures(name: str) -> dict[str, Callable[..., Any]]:
    """Every fixture of source `name`'s claims folder: the given steps, then its declared ones
    (a declared step of a given step's name replaces it)."""
    return {**_given(name), **{s.name: _step_fixture(s) for s in declared(name)}}

"""Every private attribute of another library the suite reads or sets, gathered here (issue 28),
so that an upgrade which renames one fails in this module, by name, and the upgrade canary's
failures point here first."""
from __future__ import annotations

from typing import Any, Callable

import torch


def fixture_definitions(item: Any) -> dict[str, Any]:
    """pytest: an item's fixture definitions by name (`Item._fixtureinfo.name2fixturedefs`)."""
    return item._fixtureinfo.name2fixturedefs


def mark_expression(markexpr: str) -> Any:
    """pytest: a compiled `-m` expression (`_pytest.mark.expression.Expression`; pytest has no
    public evaluator)."""
    from _pytest.mark.expression import Expression

    return Expression.compile(markexpr)


def scope_scheduler(config: Any, log: Any, scope: Callable[[str], str]) -> Any:
    """pytest-xdist: LoadFileScheduling with `scope` deciding which node ids go to one worker
    (it overrides `LoadFileScheduling._split_scope`)."""
    from xdist.scheduler import LoadFileScheduling

    class ByScope(LoadFileScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return scope(nodeid)

    return ByScope(config, log)


def wrapped_module(envoy: Any) -> torch.nn.Module:
    """nnsight: the torch module an Envoy (or a model wrapper) wraps (`Envoy._module`)."""
    return envoy._module


def remote_backend_of(nn_cls: type, model: Any, remote: bool | str, *args: Any) -> Any:
    """nnsight: the backend `nn_cls` builds for a remote request (`_remote_backend`)."""
    return nn_cls._remote_backend(model, remote, *args)


def set_attention_implementation(config: Any, name: str) -> None:
    """transformers: the attention implementation a model is built with
    (`PretrainedConfig._attn_implementation`)."""
    config._attn_implementation = name


def attention_implementation(config: Any) -> str:
    """transformers: the attention implementation a config says a model uses."""
    return config._attn_implementation


def hook_ids(module: torch.nn.Module) -> list[tuple[tuple, tuple]]:
    """torch: the ids of the forward hooks and pre-hooks on `module` and every submodule
    (`Module._forward_hooks`, `Module._forward_pre_hooks`)."""
    return [(tuple(m._forward_hooks), tuple(m._forward_pre_hooks)) for m in module.modules()]


def register_fixtures(session: Any, holder: object, node: Any) -> None:
    """pytest: the fixtures on `holder`, visible under `node` as a conftest's are under its folder
    (`Session._fixturemanager.parsefactories`; keyword form from pytest 9, positional before)."""
    manager = session._fixturemanager
    try:
        manager.parsefactories(holder=holder, node=node)
    except TypeError:
        manager.parsefactories(holder, node.nodeid)


def place_at(function: Callable[..., Any], filename: str, line: int) -> None:
    """pytest: report `function` (a test made by a declaration) at `line` of `filename`, where it
    was declared, in its items' locations and skip lines (`place_as`, which
    `_pytest._code.getfslineno` reads); its tracebacks keep its own code."""
    import types

    code = compile("\n" * (line - 1) + "def declared(): pass\n", filename, "exec")
    where = next(c for c in code.co_consts if isinstance(c, types.CodeType))
    function.place_as = types.FunctionType(where, {})  # type: ignore[attr-defined]

"""What a claim judges, typed: the readout its one-line body hands to `judge`, that readout's
TypedDict, and the keys its declaration names (published, headline, criterion) checked against
that type when the tests are collected, so a misspelt key fails before any model runs."""
from __future__ import annotations

import ast
import dataclasses
import inspect
import string
import textwrap
from typing import (TYPE_CHECKING, Any, Callable, NotRequired, Required, TypedDict,
                    get_origin, get_type_hints, is_typeddict)

if TYPE_CHECKING:
    from harness.claims import ClaimSpec

JUDGES = "__judges__"  # a judging helper's TypedDict (judge_fires_once, judge_catalogue)


def judges(typed: type) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Mark a claim-body helper that judges a `typed` dict of its own making."""
    def mark(func: Callable[..., Any]) -> Callable[..., Any]:
        setattr(func, JUDGES, typed)
        return func
    return mark


def _resolve(node: ast.expr, scope: dict[str, Any]) -> Any:
    if isinstance(node, ast.Name):
        return scope[node.id]
    if isinstance(node, ast.Attribute):
        return getattr(_resolve(node.value, scope), node.attr)
    raise LookupError(f"cannot resolve {ast.unparse(node)!r}")


def literal_type(shown: ast.Dict, name: str) -> type:
    """The TypedDict of a dict display whose keys are all written out (`judge({"v": 1})`)."""
    if not all(isinstance(k, ast.Constant) and isinstance(k.value, str) for k in shown.keys):
        raise LookupError(f"{name}: judge is given a dict whose keys are not all written out")
    return TypedDict(f"{name}_judged", {k.value: Any for k in shown.keys})  # type: ignore[misc]


def judged_type(test: Callable[..., Any]) -> type:
    """The TypedDict a claim test judges: the return type of the readout its one statement
    passes to `judge`, the keys of a dict it writes out, or the type a judging helper it calls
    is marked with (`judges`)."""
    tree = ast.parse(textwrap.dedent(inspect.getsource(test)))
    body = tree.body[0].body
    body = body[1:] if body and isinstance(body[0], ast.Expr) and isinstance(
        body[0].value, ast.Constant) else body
    if len(body) != 1 or not isinstance(body[0], ast.Expr) or not isinstance(body[0].value,
                                                                              ast.Call):
        raise LookupError(f"{test.__name__}: a claim's body is one call (judge(readout(...)))")
    call = body[0].value
    scope = {**vars(inspect.getmodule(test)), **(inspect.getclosurevars(test).nonlocals)}
    if isinstance(call.func, ast.Name) and call.func.id == "judge" and call.args and \
            isinstance(call.args[0], ast.Dict):
        return literal_type(call.args[0], test.__name__)
    if isinstance(call.func, ast.Name) and call.func.id == "judge":
        if not call.args or not isinstance(call.args[0], ast.Call):
            raise LookupError(f"{test.__name__}: judge is given neither a readout's call nor a "
                              "dict of literal keys")
        readout = _resolve(call.args[0].func, scope)
        typed = readout.__annotations__.get("return")
        typed = eval(typed, readout.__globals__) if isinstance(typed, str) else typed  # noqa: S307
        where = f"{readout.__module__}.{readout.__qualname__}"
    else:
        helper = _resolve(call.func, scope)
        typed, where = getattr(helper, JUDGES, None), f"{helper.__module__}.{helper.__qualname__}"
    if not (isinstance(typed, type) and is_typeddict(typed)):
        raise LookupError(f"{test.__name__}: {where} returns no TypedDict ({typed!r})")
    return typed


def criterion_keys(criterion: Any) -> tuple[set[str], set[str]]:
    """The keys a criterion reads, through `all_of`: its `key` and `*_key` fields, split into
    those it reads from the measured values and those (its `PUBLISHED_KEYS` fields) it reads
    from the published ones alone."""
    if not dataclasses.is_dataclass(criterion):
        return set(), set()
    measured: set[str] = set()
    published: set[str] = set()
    for f in dataclasses.fields(criterion):
        value = getattr(criterion, f.name)
        if isinstance(value, tuple):
            for part in value:
                m, p = criterion_keys(part)
                measured, published = measured | m, published | p
        elif isinstance(value, str) and (f.name == "key" or f.name.endswith("_key")):
            (published if f.name in getattr(criterion, "PUBLISHED_KEYS", ()) else
             measured).add(value)
    return measured, published


def undeclared(spec: ClaimSpec, typed: type) -> list[str]:
    """Keys the declaration names that are nowhere to be read, each saying where it is named: a
    published, headline or criterion key its readout's type lacks (a published key the criterion
    reads from the published values alone excepted), or a published-only criterion key that the
    published values lack."""
    keys = set(typed.__annotations__)
    reads, reads_published = criterion_keys(spec.criterion)
    holds = criterion_keys(spec.holds.criterion)[0] if spec.holds else set()
    headline = ({field for _, field, _, _ in string.Formatter().parse(spec.headline) if field}
                if spec.headline else set())
    named = {"published": set(spec.published) - reads_published, "headline": headline,
             "criterion": reads, "holds": holds}
    missing = [f"{spec.id}: {where} names {k!r}, which {typed.__name__} lacks"
               for where, names in named.items() for k in sorted(names)
               if k.split(".")[0].split("[")[0] not in keys]
    return missing + [f"{spec.id}: criterion reads published {k!r}, which published lacks"
                      for k in sorted(reads_published - set(spec.published))]


def required_keys(typed: type) -> set[str]:
    """A TypedDict's required keys, its NotRequired[...] ones left out even where the annotations
    are strings (`from __future__ import annotations`), which TypedDict itself cannot read."""
    hints = get_type_hints(typed, include_extras=True)
    return {k for k in typed.__required_keys__ if get_origin(hints[k]) is not NotRequired} | {
        k for k, hint in hints.items() if get_origin(hint) is Required}


def wrong_keys(measured: dict[str, Any], typed: type) -> list[str]:
    """Where a readout's dict departs from its TypedDict: required keys it lacks, keys it adds."""
    allowed = typed.__required_keys__ | typed.__optional_keys__
    return ([f"lacks {k!r}" for k in sorted(required_keys(typed) - set(measured))]
            + [f"adds {k!r}" for k in sorted(set(measured) - allowed)])

"""What a claim judges, typed: the readout it declares (or its one-line body hands to `judge`),
that readout's keys (read from the dicts it returns, or its TypedDict), and the keys its
declaration names (published, headline, criterion) checked against them when the tests are
collected, so a misspelt key fails before any model runs."""
from __future__ import annotations

import ast
import dataclasses
import inspect
import string
import textwrap
from typing import (TYPE_CHECKING, Any, Callable, NotRequired, Required, TypedDict,
                    get_origin, get_type_hints, is_typeddict)

from harness.attribute_readout import Attributes

if TYPE_CHECKING:
    from harness.claims import ClaimSpec

READOUT = "__judged_readout__"  # a declared claim's readout (harness.claim_tests)


def _resolve(node: ast.expr, scope: dict[str, Any]) -> Any:
    """What a name, an attribute or a call's result stands for in `scope` (a parameter stands
    for the class it is annotated with, and its field for the class that field is annotated
    with; a call, for the class it builds or returns)."""
    if isinstance(node, ast.Name) and node.id in scope:
        return scope[node.id]
    if isinstance(node, ast.Attribute):
        owner = _resolve(node.value, scope)
        try:
            field = get_type_hints(owner).get(node.attr) if dataclasses.is_dataclass(owner) \
                else None
        except NameError:  # a field annotated with a name imported only for type checkers
            field = None
        return field if isinstance(field, type) else getattr(owner, node.attr)
    if isinstance(node, ast.Call):
        made = _resolve(node.func, scope)
        returned = made if isinstance(made, type) else inspect.get_annotations(
            made, eval_str=True).get("return")
        if isinstance(returned, type):
            return returned
    raise LookupError(f"cannot resolve {ast.unparse(node)!r}")


def _parameters(readout: Callable[..., Any]) -> dict[str, type]:
    """A readout's parameters annotated with a class, each standing for that class."""
    try:
        annotated = inspect.get_annotations(readout, eval_str=True)
    except NameError:
        return {}
    return {name: cls for name, cls in annotated.items()
            if name != "return" and isinstance(cls, type)}


def _returns(func: ast.FunctionDef) -> list[ast.expr | None]:
    """What each `return` of a function gives, those of the functions it defines left out."""
    found: list[ast.expr | None] = []
    todo: list[ast.AST] = list(func.body)
    while todo:
        node = todo.pop()
        if isinstance(node, ast.Return):
            found.append(node.value)
        elif not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda,
                                   ast.ClassDef)):
            todo.extend(ast.iter_child_nodes(node))
    return found


def _keys_given(value: ast.expr | None, scope: dict[str, Any]) -> tuple[set[str], set[str]]:
    """The (required, optional) keys one returned value holds: a dict display's written-out keys
    with those of each readout it unpacks (`**chosen(site)`) or dataclass it spreads
    (`**vars(flip)`), or the keys of the readout it returns (`return _peak(sweep)`)."""
    if isinstance(value, ast.Call):
        return _called(value, scope)
    if not isinstance(value, ast.Dict):
        raise LookupError("a return gives neither a dict display nor a readout's call")
    required: set[str] = set()
    optional: set[str] = set()
    for key, part in zip(value.keys, value.values):
        if isinstance(key, ast.Constant) and isinstance(key.value, str):
            required.add(key.value)
        elif key is None and isinstance(part, ast.Call):
            unpacked = _called(part, scope)
            required, optional = required | unpacked[0], optional | unpacked[1]
        else:
            raise LookupError(f"a key that is not written out: {ast.unparse(part)!r}")
    return required, optional - required


def _called(call: ast.Call, scope: dict[str, Any]) -> tuple[set[str], set[str]]:
    """The keys a call gives: `vars(x)` of a dataclass, each of its fields; a readout's call, the
    keys of what it returns."""
    if isinstance(call.func, ast.Name) and call.func.id == "vars" and len(call.args) == 1:
        made = _resolve(call.args[0], scope)
        if not dataclasses.is_dataclass(made):
            raise LookupError(f"vars() of {ast.unparse(call.args[0])!r}, not a dataclass")
        return {f.name for f in dataclasses.fields(made)}, set()
    return _split(readout_type(_resolve(call.func, scope)))


def _split(typed: type) -> tuple[set[str], set[str]]:
    required = required_keys(typed)
    return required, set(typed.__annotations__) - required


def readout_type(readout: Callable[..., Any]) -> type:
    """The TypedDict a readout returns: its declared return type where that is one; else read
    from its returns, a key every return gives required and one some give optional; an
    attribute readout's, the keys it declares."""
    if isinstance(readout, Attributes):
        return _typed(readout.__name__, [(set(readout.paths), set())])
    typed = getattr(readout, "__annotations__", {}).get("return")
    typed = eval(typed, readout.__globals__) if isinstance(typed, str) else typed  # noqa: S307
    if isinstance(typed, type) and is_typeddict(typed):
        return typed
    where = f"{getattr(readout, '__module__', '?')}.{getattr(readout, '__qualname__', readout)}"
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(readout))).body[0]
        scope = {**readout.__globals__, **inspect.getclosurevars(readout).nonlocals,
                 **_parameters(readout)}
        returns = _returns(tree) if isinstance(tree, ast.FunctionDef) else []
        if not returns:
            raise LookupError("it returns nothing")
        given = [_keys_given(value, scope) for value in returns]
    except (LookupError, TypeError, OSError, AttributeError) as why:
        raise LookupError(f"{where} returns no TypedDict ({typed!r}), nor dicts whose keys are "
                          f"written out ({why})") from None
    return _typed(f"{readout.__name__}()", given)


def _typed(name: str, given: list[tuple[set[str], set[str]]]) -> type:
    """A TypedDict of the keys each of several returns gives: a key all give as required is
    required; any other is optional."""
    required = set.intersection(*(r for r, _ in given))
    every = set.union(*(r | o for r, o in given))
    fields = {k: Any if k in required else NotRequired[Any] for k in sorted(every)}
    return TypedDict(name, fields)  # type: ignore[misc,operator]


def judged_type(test: Callable[..., Any]) -> type:
    """The TypedDict a claim test judges: that of its declared readout; or, for a test with a
    body, that of the readout its one statement passes to `judge`, or the keys of a dict it
    writes out there."""
    if hasattr(test, READOUT):
        return readout_type(getattr(test, READOUT))
    tree = ast.parse(textwrap.dedent(inspect.getsource(test)))
    body = tree.body[0].body
    body = body[1:] if body and isinstance(body[0], ast.Expr) and isinstance(
        body[0].value, ast.Constant) else body
    call = body[0].value if len(body) == 1 and isinstance(body[0], ast.Expr) else None
    if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Name)
            and call.func.id == "judge"):
        raise LookupError(f"{test.__name__}: a claim's body is one call (judge(readout(...)))")
    if not call.args or not isinstance(call.args[0], (ast.Call, ast.Dict)):
        raise LookupError(f"{test.__name__}: judge is given neither a readout's call nor a dict "
                          "whose keys are written out")
    scope = {**vars(inspect.getmodule(test)), **(inspect.getclosurevars(test).nonlocals)}
    try:
        if isinstance(call.args[0], ast.Call):
            return readout_type(_resolve(call.args[0].func, scope))
        return _typed(f"{test.__name__}_judged", [_keys_given(call.args[0], scope)])
    except LookupError as why:
        raise LookupError(f"{test.__name__}: {why}") from None


def criterion_keys(criterion: Any) -> tuple[set[str], set[str]]:
    """The keys a criterion reads, through `all_of`: its `key` and `*_key` fields, split into
    those it reads from the measured values and those (its `PUBLISHED_KEYS` fields) it reads
    from the published ones alone."""
    if not dataclasses.is_dataclass(criterion):
        return set(), set()
    measured: set[str] = set()
    published_only: set[str] = set()
    for f in dataclasses.fields(criterion):
        value = getattr(criterion, f.name)
        if isinstance(value, tuple):
            for part in value:
                m, p = criterion_keys(part)
                measured, published_only = measured | m, published_only | p
        elif isinstance(value, str) and (f.name == "key" or f.name.endswith("_key")):
            (published_only if f.name in getattr(criterion, "PUBLISHED_KEYS", ()) else
             measured).add(value)
    return measured, published_only


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

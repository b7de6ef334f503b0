"""A readout declared as data (issue 46 §3): the judged dict is named attributes of the one step
result a claim reads, so a claim whose readout only copies fields declares them where it is
declared instead of in a function of its source's readouts.py."""
from __future__ import annotations

from dataclasses import dataclass
from operator import attrgetter
from typing import Any, Mapping


@dataclass(frozen=True)
class Attributes:
    """Each key of the judged dict and the attribute of the step's result it holds, a dotted
    path where it lies deeper (`late_diverges_at="late.diverges_at"`), in the order judged."""

    paths: Mapping[str, str]

    def __call__(self, result: Any) -> dict[str, Any]:
        return {key: attrgetter(path)(result) for key, path in self.paths.items()}

    @property
    def __name__(self) -> str:
        return f"attributes({', '.join(self.paths)})"


def attributes(*names: str, **renamed: str) -> Attributes:
    """The readout giving each attribute `names` names under its own name, and each key of
    `renamed` the attribute (path) it names: attributes("n", late="late.diverges_at")."""
    clash = set(names) & set(renamed)
    if clash or len(set(names)) != len(names):
        raise ValueError(f"each key is named once: {sorted(clash) or list(names)}")
    return Attributes({**{n: n for n in names}, **renamed})

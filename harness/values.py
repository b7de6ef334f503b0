"""Turn measured values (tensors, numpy scalars, tuples, dataclasses) into plain JSON values."""
from __future__ import annotations

import dataclasses
from typing import Any


def plain(value: Any) -> Any:
    """A JSON-native copy of `value`: dicts, lists, str, int, float, bool, None."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return plain(dataclasses.asdict(value))
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, (bool, str, int, float)) or value is None:
        return value
    if hasattr(value, "tolist"):
        return plain(value.tolist())
    if hasattr(value, "item"):
        return value.item()
    raise TypeError(f"cannot record a value of type {type(value).__name__}")

"""Progress bars for long experiments, written to the real terminal past pytest's capture."""
from __future__ import annotations

import sys
from typing import Iterable, TypeVar

from tqdm import tqdm

T = TypeVar("T")


def progress(items: Iterable[T], what: str) -> Iterable[T]:
    """Iterate over items with a bar on the terminal's stderr, labelled `what`."""
    return tqdm(items, desc=what, file=sys.__stderr__, leave=False, dynamic_ncols=True,
                disable=not sys.__stderr__ or not sys.__stderr__.isatty())

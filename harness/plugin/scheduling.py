"""Under xdist, one worker per source: its model loads once and its anchors run before its claims."""
from __future__ import annotations

from typing import Any

import pytest


def source_scope(nodeid: str, sources: set[str]) -> str:
    """The folder of a source's tests (claims/<source>/), else the test's own file."""
    path = nodeid.split("::", 1)[0]
    folder, _, _ = path.rpartition("/")
    return folder if folder.rpartition("/")[2] in sources else path


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """Group by source folder where --dist is load or loadfile (pytest_configure maps load to
    loadfile; xdist 3.8's loadgroup renames Item._nodeid, which pytest 9.2 no longer reads, so
    its groups silently split)."""
    if config.getoption("dist") != "loadfile":
        return None
    from xdist.scheduler import LoadFileScheduling

    from harness.sources import registered

    sources = set(registered())

    class BySource(LoadFileScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return source_scope(nodeid, sources)

    return BySource(config, log)

"""Between two sources' folders: the previous model's memory goes back before the next folder's
first test (issue 26)."""
from __future__ import annotations


import pytest
from harness.plugin.state import claims_session


def pytest_fixture_post_finalizer(fixturedef: pytest.FixtureDef, request: pytest.FixtureRequest,
                                  ) -> None:
    """A package fixture torn down (a source's model or steps, its folder done): the next test's
    setup collects the garbage."""
    if fixturedef.scope == "package":
        claims_session(request.config).package_ended()


def release_between_folders(item: pytest.Item) -> None:
    """At the first test after a folder's package fixtures were torn down: collect the garbage
    and return CUDA's cached blocks, so the previous source's model, its package fixtures torn
    down and the last test's arguments dropped, never shares memory (or a peak reading) with the
    next one's (issue 26). Where no package fixture went, nothing is collected: a full collection
    of a session's heap takes a third of a second, and the suite's own test files switch
    folders often."""
    if not claims_session(item.config).take_package_end():
        return
    import gc

    import torch

    gc.collect()
    if torch.cuda.is_initialized():
        torch.cuda.empty_cache()

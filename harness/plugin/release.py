"""Between two sources' folders: the previous model's memory goes back before the next folder's
first test (issue 26)."""
from __future__ import annotations


import pytest
from harness.plugin.state import claims_session


def release_between_folders(item: pytest.Item) -> None:
    """At the first test of a folder other than the last one's: collect the garbage and return
    CUDA's cached blocks, so the previous source's model, its package fixtures torn down and the
    last test's arguments dropped, never shares memory (or a peak reading) with the next one's
    (issue 26)."""
    session = claims_session(item.config)
    last, session.last_folder = session.last_folder, item.path.parent
    if last is None or last == item.path.parent:
        return
    import gc

    import torch

    gc.collect()
    if torch.cuda.is_initialized():
        torch.cuda.empty_cache()

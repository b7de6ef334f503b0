"""A truncated file in the Hugging Face cache fails naming that file and the fix, not as a bare
JSONDecodeError (issue 26)."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest

from harness.registry import get_profile
from harness.models.resources import snapshot_dir
from tests.paths import ROOT, SHARED_CACHE

GPT2 = get_profile("published").models["patching"]


@pytest.mark.meta  # a process of its own: make test-meta
def test_a_truncated_tokenizer_file_is_named_with_the_fix(tmp_path):
    source = snapshot_dir(SHARED_CACHE, GPT2)
    if not (source / "tokenizer.json").is_file():
        pytest.skip(f"the published GPT-2 tokenizer is not in the shared cache: {source}")
    home = tmp_path / "hf"
    shutil.copytree(SHARED_CACHE / "hub" / source.parents[1].name,
                    home / "hub" / source.parents[1].name, symlinks=False)
    broken = snapshot_dir(home, GPT2) / "tokenizer.json"
    text = broken.read_text()
    broken.unlink()  # a copy of its own, not the shared file a link may point to
    broken.write_text(text[: len(text) // 2])
    proc = subprocess.run(
        [sys.executable, "-c", "from harness.models.loaded import load_tokenizer; "
         "from harness.registry import get_profile; "
         "load_tokenizer(get_profile('published').models['patching'])"],
        cwd=ROOT, capture_output=True, text=True,
        env=os.environ | {"HF_HOME": str(home), "HF_HUB_OFFLINE": "1"})
    assert proc.returncode != 0
    last = proc.stderr.strip().splitlines()[-1]
    assert last.startswith("harness.verdicts.UnreadableFile") and str(broken) in last, last
    assert "fetch it again" in last

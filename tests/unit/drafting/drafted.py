"""A toy draft written for the drafting tests, and its modules imported from their files."""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

from harness.drafting.draft import ModelRef, draft
from harness.drafting.notebook import read_notebook
from harness.drafting.writing import write_draft

GPT2 = ModelRef("openai-community/gpt2", "607a30d783dfa663caf39e06633721c8d4cfcd7e")


def write_toy(dump: Path, folder: Path) -> Path:
    """The draft of the notebook `dump` as source "toy", written into `folder`."""
    write_draft(draft("toy", read_notebook(dump), GPT2), folder)
    return folder


def load(path: Path, name: str) -> ModuleType:
    """A drafted module, imported from its file (and forgotten again)."""
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # a dataclass looks its module up while it is made
    try:
        spec.loader.exec_module(module)
    finally:
        del sys.modules[name]
    return module

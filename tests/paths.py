"""Where the tests find the repository, the shared register and the shared, tokenizer-only Hugging
Face cache."""
from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED_CACHE = ROOT.parent / "shared" / "hf-cache"  # the published tokenizers, without weights
SHARED_REGISTER = ROOT.parent / "shared" / "claims.md"  # the four seeds' register, the specification

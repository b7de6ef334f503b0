"""Seed 004's trained organism, reused: the tutorial's swap is a sentence it learned."""
from harness.sources.patching.organism import build_model, build_tokenizer

__all__ = ["build_model", "build_tokenizer"]

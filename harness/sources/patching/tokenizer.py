"""Seed 004's tiny tokenizer."""
from __future__ import annotations

from typing import Iterable

from transformers import PreTrainedTokenizerFast

from harness.organisms.tokenizers import word_level

GPT2_SPECIALS = ("<|endoftext|>",)


def gpt2_tokenizer(corpus: Iterable[str]) -> PreTrainedTokenizerFast:
    """Seed 004's tiny tokenizer: every name and word is one token with its leading space."""
    return word_level(corpus, GPT2_SPECIALS, eos_token="<|endoftext|>", bos_token="<|endoftext|>",
                      pad_token="<|endoftext|>", unk_token="<|endoftext|>")

"""Seed 003's tiny tokenizer."""
from __future__ import annotations

from typing import Iterable

from transformers import PreTrainedTokenizerFast

from harness.organisms.tokenizers import word_level

LLAMA_LIKE = r"'s| ?[A-Za-z]+| ?\d| ?[^\sA-Za-z\d]|\s+"
LOOKBACK_SPECIALS = ("<|end_of_text|>", "<|begin_of_text|>")


def lookback_tokenizer(corpus: Iterable[str]) -> PreTrainedTokenizerFast:
    """Seed 003's tiny tokenizer: every CausalToM entity is one token with its leading space,
    and a BOS token is prepended, as Llama-3.1's tokenizer does."""
    from tokenizers import processors

    tok = word_level(corpus, LOOKBACK_SPECIALS, pattern=LLAMA_LIKE, eos_token="<|end_of_text|>",
                     bos_token="<|begin_of_text|>", pad_token="<|end_of_text|>",
                     unk_token="<|end_of_text|>")
    bos = tok.convert_tokens_to_ids("<|begin_of_text|>")
    tok.backend_tokenizer.post_processor = processors.TemplateProcessing(
        single="<|begin_of_text|> $A", special_tokens=[("<|begin_of_text|>", bos)])
    return tok

"""Word-level tokenizers built offline with `tokenizers`, so the tiny profile needs no hub; each
source's own tokenizer is in its `tokenizer` module."""
from __future__ import annotations

import re
import string
from typing import Iterable

from tokenizers import Regex, Tokenizer, decoders, models, pre_tokenizers
from transformers import PreTrainedTokenizerFast

# Words carry their leading space; digits are one token each with no space, as in Qwen's
# pre-tokenizer; runs of whitespace and single punctuation marks are their own tokens.
QWEN_LIKE = r" ?[A-Za-z]+|\d| ?[^\sA-Za-z\d]|\s+"


def pieces(text: str, pattern: str = QWEN_LIKE) -> list[str]:
    """Split text the way the tokenizer's pre-tokenizer does."""
    return re.findall(pattern, text)


def word_level(corpus: Iterable[str], specials: tuple[str, ...], pattern: str = QWEN_LIKE,
               **kwargs: str) -> PreTrainedTokenizerFast:
    """A word-level tokenizer whose vocabulary is the specials, printable ASCII and the corpus."""
    vocab: dict[str, int] = {}
    for token in [*specials, *string.printable, *(p for t in corpus for p in pieces(t, pattern))]:
        vocab.setdefault(token, len(vocab))
    tk = Tokenizer(models.WordLevel(vocab=vocab, unk_token=specials[0]))
    tk.pre_tokenizer = pre_tokenizers.Split(Regex(pattern), behavior="isolated")
    tk.decoder = decoders.Fuse()
    tok = PreTrainedTokenizerFast(tokenizer_object=tk, **kwargs)
    tok.add_special_tokens({"additional_special_tokens": list(specials[1:])})
    return tok

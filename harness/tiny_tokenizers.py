"""Word-level tokenizers built offline with `tokenizers`, so the tiny profile needs no hub."""
from __future__ import annotations

import re
import string
from typing import Iterable

from tokenizers import Regex, Tokenizer, decoders, models, pre_tokenizers
from transformers import PreTrainedTokenizerFast

# Words carry their leading space; digits are one token each with no space, as in Qwen's
# pre-tokenizer; runs of whitespace and single punctuation marks are their own tokens.
QWEN_LIKE = r" ?[A-Za-z]+|\d| ?[^\sA-Za-z\d]|\s+"

CHATML_THINKING = (
    "{% for m in messages %}<|im_start|>{{ m['role'] }}\n{{ m['content'] }}<|im_end|>\n"
    "{% endfor %}{% if add_generation_prompt %}<|im_start|>assistant\n<think>\n{% endif %}"
)
COT_SPECIALS = ("<|endoftext|>", "<|im_start|>", "<|im_end|>", "<think>", "</think>")


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


def cot_tokenizer(corpus: Iterable[str]) -> PreTrainedTokenizerFast:
    """Seed 000's tiny tokenizer: one token per digit, ChatML thinking template, `</think>` single."""
    return word_level(corpus, COT_SPECIALS, eos_token="<|im_end|>", pad_token="<|endoftext|>",
                      unk_token="<|endoftext|>", chat_template=CHATML_THINKING)


GPT2_SPECIALS = ("<|endoftext|>",)


def gpt2_tokenizer(corpus: Iterable[str]) -> PreTrainedTokenizerFast:
    """Seed 004's tiny tokenizer: every name and word is one token with its leading space."""
    return word_level(corpus, GPT2_SPECIALS, eos_token="<|endoftext|>", bos_token="<|endoftext|>",
                      pad_token="<|endoftext|>", unk_token="<|endoftext|>")


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


QWEN25_SYSTEM = "You are Qwen, created by Alibaba Cloud. You are a helpful assistant."
CHATML_QWEN25 = (
    "{% if messages[0]['role'] != 'system' %}<|im_start|>system\n" + QWEN25_SYSTEM
    + "<|im_end|>\n{% endif %}{% for m in messages %}<|im_start|>{{ m['role'] }}\n"
    "{{ m['content'] }}<|im_end|>\n{% endfor %}{% if add_generation_prompt %}"
    "<|im_start|>assistant\n{% endif %}"
)
HEADS_SPECIALS = ("<|endoftext|>", "<|im_start|>", "<|im_end|>")


def heads_tokenizer(corpus: Iterable[str]) -> PreTrainedTokenizerFast:
    """Seed 001's tiny tokenizer: every box label and object is one token with its leading
    space, in Qwen2.5's chat layout (default system turn, `<|im_start|>assistant\\n`)."""
    return word_level(corpus, HEADS_SPECIALS, eos_token="<|im_end|>", pad_token="<|endoftext|>",
                      unk_token="<|endoftext|>", chat_template=CHATML_QWEN25)

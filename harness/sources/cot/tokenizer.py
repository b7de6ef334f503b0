"""Seed 000's tiny tokenizer."""
from __future__ import annotations

from typing import Iterable

from transformers import PreTrainedTokenizerFast

from harness.organisms.tokenizers import word_level

CHATML_THINKING = (
    "{% for m in messages %}<|im_start|>{{ m['role'] }}\n{{ m['content'] }}<|im_end|>\n"
    "{% endfor %}{% if add_generation_prompt %}<|im_start|>assistant\n<think>\n{% endif %}"
)
COT_SPECIALS = ("<|endoftext|>", "<|im_start|>", "<|im_end|>", "<think>", "</think>")


def cot_tokenizer(corpus: Iterable[str]) -> PreTrainedTokenizerFast:
    """Seed 000's tiny tokenizer: one token per digit, ChatML thinking template, `</think>` single."""
    return word_level(corpus, COT_SPECIALS, eos_token="<|im_end|>", pad_token="<|endoftext|>",
                      unk_token="<|endoftext|>", chat_template=CHATML_THINKING)

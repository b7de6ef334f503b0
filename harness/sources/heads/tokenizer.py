"""Seed 001's tiny tokenizer."""
from __future__ import annotations

from typing import Iterable

from transformers import PreTrainedTokenizerFast

from harness.organisms.tokenizers import word_level

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

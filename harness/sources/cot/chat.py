"""Seed 000's setup: the chat template's generation prompt and the `</think>` token."""
from __future__ import annotations

from dataclasses import dataclass

from harness.sources.cot.runner import FORCE

GENERATION_TAIL = "<|im_start|>assistant\n<think>\n"  # the generation prompt's last line, §1


@dataclass
class ThinkTemplate:
    """What the tokenizer makes of `</think>`, of a one-turn chat and of the forced suffix."""

    close_ids: list[int]
    chat: str
    force_tokens: int

    @property
    def tail(self) -> str:
        """The chat's last characters, as many as the expected generation prompt has."""
        return self.chat[-len(GENERATION_TAIL):]


def think_template(tok) -> ThinkTemplate:
    """Setup: tokenise `</think>` and FORCE, and render a one-turn chat with the generation prompt."""
    chat = tok.apply_chat_template([{"role": "user", "content": "x"}], tokenize=False,
                                   add_generation_prompt=True)
    return ThinkTemplate(tok("</think>", add_special_tokens=False).input_ids, chat,
                         len(tok(FORCE, add_special_tokens=False).input_ids))

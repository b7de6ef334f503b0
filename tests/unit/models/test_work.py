"""The forward pre-hook that counts model work (harness/models/work.py)."""
from __future__ import annotations

import torch

from harness.models.work import Work, WorkMeter


class Cache:
    def __init__(self, length: int) -> None:
        self.length = length

    def get_seq_length(self) -> int:
        return self.length


class Echo(torch.nn.Module):
    def forward(self, input_ids=None, attention_mask=None, cache=None):
        return input_ids


def test_a_left_padded_prefill_counts_real_tokens_and_padding():
    meter, model = WorkMeter(), Echo()
    meter.attach(model)
    mask = torch.tensor([[0, 0, 1, 1], [1, 1, 1, 1]])
    model(input_ids=torch.zeros(2, 4, dtype=torch.long), attention_mask=mask, cache=Cache(0))
    assert meter.total == Work(forwards=1, prefills=1, rows=2, prefill_rows=2, prompt_tokens=6,
                               padding=2)


def test_a_step_that_extends_a_cache_counts_one_decoded_token_per_row():
    meter, model = WorkMeter(), Echo()
    meter.attach(model)
    model(input_ids=torch.zeros(2, 1, dtype=torch.long), attention_mask=torch.ones(2, 5),
          cache=Cache(4))
    assert meter.total == Work(forwards=1, rows=2, decode_tokens=2)


def test_a_forward_without_a_mask_counts_every_position_as_prompt():
    meter, model = WorkMeter(), Echo()
    meter.attach(model)
    model(torch.zeros(1, 7, dtype=torch.long))
    assert meter.total.prompt_tokens == 7 and meter.total.padding == 0

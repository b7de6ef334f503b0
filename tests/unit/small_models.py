"""The small models and forwards the intervention engines' tests share (harness.fire_once,
harness.identity_check, harness.rows_alone): a two-block GPT-2, a two-block Llama with four heads, the two rows it reads, and a forward that stops after a block,
as a trace that stops early does."""
from __future__ import annotations

from contextlib import contextmanager
from typing import Iterator

import torch
from torch import nn
from transformers import GPT2Config, GPT2LMHeadModel, LlamaConfig, LlamaForCausalLM

IDS = torch.tensor([[1, 2, 3, 4, 5], [5, 4, 3, 2, 1]], device="cpu")


def llama() -> LlamaForCausalLM:
    """Two blocks 16 wide, four heads of 4 features over two key-value heads, seeded."""
    torch.manual_seed(0)
    config = LlamaConfig(num_hidden_layers=2, hidden_size=16, intermediate_size=32,
                         num_attention_heads=4, num_key_value_heads=2, vocab_size=11)
    return LlamaForCausalLM(config).eval()


def gpt2() -> GPT2LMHeadModel:
    """Two GPT-2 blocks 16 wide, two heads, eight positions, seeded."""
    torch.manual_seed(0)
    config = GPT2Config(n_layer=2, n_embd=16, n_head=2, vocab_size=11, n_positions=8)
    return GPT2LMHeadModel(config).eval()


class Stop(Exception):
    """Ends a forward after a block."""


@contextmanager
def stopping_after(block: nn.Module) -> Iterator[None]:
    """Forwards run inside end after `block`, quietly."""
    def stop(module: nn.Module, args: tuple, output: object) -> None:
        raise Stop

    handle = block.register_forward_hook(stop)
    try:
        yield
    except Stop:
        pass
    finally:
        handle.remove()


@contextmanager
def writing_head(model: LlamaForCausalLM, layer: int, head: int, row: int, position: int,
                 value: torch.Tensor) -> Iterator[None]:
    """A plain pre-hook on block `layer`'s o_proj that writes `value` ([width]) into one head's
    slice, at one row and position, as an experiment's head edit does."""
    width = value.shape[-1]

    def hook(module: nn.Module, args: tuple) -> tuple:
        x = args[0].clone()
        x[row, position, head * width:(head + 1) * width] = value
        return (x,)

    handle = model.model.layers[layer].self_attn.o_proj.register_forward_pre_hook(hook)
    try:
        yield
    finally:
        handle.remove()

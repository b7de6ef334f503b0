"""The organisms' shared training loss: next-token loss, plus attention targets when a batch has them."""
from __future__ import annotations

import pytest
import torch
from transformers import LlamaConfig, LlamaForCausalLM

from harness.organisms.common import masked_loss, pad_batch


def tiny_llama() -> LlamaForCausalLM:
    torch.manual_seed(0)
    return LlamaForCausalLM(LlamaConfig(vocab_size=11, hidden_size=16, intermediate_size=32,
                                        num_hidden_layers=2, num_attention_heads=2,
                                        num_key_value_heads=2, head_dim=8,
                                        attn_implementation="eager")).eval()


def test_pad_batch_numbers_attention_targets_by_row():
    batch = pad_batch([([1, 2, 3], [False, False, True]), ([4, 5], [False, True])], 0,
                      targets=[[(0, 1, 2, 0)], [(1, 0, 1, 1), (0, 0, 1, 0)]])
    assert batch.attention_targets.tolist() == [[0, 0, 1, 2, 0], [1, 1, 0, 1, 1], [1, 0, 0, 1, 0]]


def test_a_batch_without_targets_has_none():
    assert pad_batch([([1, 2], [False, True])], 0).attention_targets is None


def test_attention_targets_add_their_weighted_negative_log_probability():
    model = tiny_llama()
    rows = [([1, 2, 3, 4], [False, False, True, True])]
    plain = masked_loss(model, pad_batch(rows, 0))
    batch = pad_batch(rows, 0, targets=[[(1, 0, 3, 1), (0, 1, 2, 0)]])
    att = model(batch.input_ids, output_attentions=True).attentions
    expected = -(torch.log(att[1][0, 0, 3, 1] + 1e-6) + torch.log(att[0][0, 1, 2, 0] + 1e-6)) / 2
    assert torch.allclose(masked_loss(model, batch, attention_weight=0.5) - plain, 0.5 * expected)


def organism_copy(tmp_path, name: str = "patching"):
    """A copy of a committed organism's folder, to break."""
    import shutil

    from harness.organisms.common import ORGANISMS

    shutil.copytree(ORGANISMS / name, tmp_path / name)
    return tmp_path


def test_missing_organism_weights_name_the_command_that_rebuilds_them(tmp_path):
    from harness.organisms.common import load_weights, weights_path
    from harness.verdicts import UnreadableFile

    root = organism_copy(tmp_path)
    weights_path("patching", root).unlink()
    with pytest.raises(UnreadableFile, match="interp-claims organisms patching"):
        load_weights("patching", torch.nn.Linear(1, 1), root)


def test_truncated_organism_weights_name_the_command_that_rebuilds_them(tmp_path):
    from harness.organisms.common import load_weights, weights_path
    from harness.verdicts import UnreadableFile

    root = organism_copy(tmp_path)
    path = weights_path("patching", root)
    path.write_bytes(path.read_bytes()[:100])
    with pytest.raises(UnreadableFile, match="truncated.*interp-claims organisms patching"):
        load_weights("patching", torch.nn.Linear(1, 1), root)

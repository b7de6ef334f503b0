"""Task generators and profile rules that need no model."""
from __future__ import annotations

import json

from harness.profiles import relative_layers
from harness.registry import get_profile
from harness.source import BUILT_IN_ORGANISMS
from harness.sources.heads.task import OBJECTS, generate_family, render, tokenizer_corpus
from harness.sources.heads.tokenizer import heads_tokenizer
from harness.sources.lookback.task import build_binding, layout
from harness.sources.lookback.task import tokenizer_corpus as tom_corpus
from harness.sources.lookback.tokenizer import lookback_tokenizer


def test_relative_layers_keep_the_relative_depth():
    assert relative_layers((0, 18, 35), 36, 6) == (0, 3, 5)


def test_relative_layers_can_keep_blocks_after_the_mapped_one():
    assert relative_layers((9,), 12, 4) == (3,)
    assert relative_layers((9,), 12, 4, blocks_after=1) == (2,)
    assert relative_layers((3,), 12, 4, blocks_after=1) == (1,)


def test_tiny_cot_screen_is_inside_the_organism():
    sizes = get_profile("tiny").sizes["cot"]
    assert all(0 <= layer < 6 for layer in sizes.screen_layers)


def test_tiny_patch_layer_leaves_a_block_after_it_as_layer_9_of_12_does():
    sizes = get_profile("tiny").sizes["patching"]
    manifest = json.loads((BUILT_IN_ORGANISMS / "patching" / "manifest.json").read_text())
    assert sizes.n_layers == manifest["config"]["n_layer"]
    assert 0 <= sizes.patch_layer < sizes.n_layers - 1


def test_layout_finds_each_entity_token():
    tok = lookback_tokenizer(tom_corpus())
    row = build_binding(3, seed=7)[1]
    lay = layout(tok, row.clean, *row.entities)
    ids = tok(row.clean).input_ids
    c, o, s = row.entities
    words = [tok.convert_ids_to_tokens(ids[p]).strip() for p in lay.names + lay.objects + lay.drinks]
    assert words == [c[0], c[1], c[0], c[1], o[0], o[1], s[0], s[1]]


def test_counterfactual_prompts_share_the_clean_layout():
    tok = lookback_tokenizer(tom_corpus())
    for row in build_binding(10, seed=7):
        assert layout(tok, row.clean, *row.entities) == layout(tok, row.cf, *row.cf_entities)


def test_rendered_box_prompt_labels_are_single_tokens():
    tok = heads_tokenizer(tokenizer_corpus())
    rendered = render(generate_family("017-explore-v1", 1).R, tok)
    labels = [tok.convert_ids_to_tokens(rendered.input_ids[p]) for p in rendered.label_positions]
    assert len(labels) == 20 and all(len(x.strip()) == 1 for x in labels)
    assert tok.convert_ids_to_tokens(rendered.input_ids[-1]) == "Box"


def test_every_object_is_one_tiny_token():
    tok = heads_tokenizer(tokenizer_corpus())
    assert all(len(tok.encode(" " + w, add_special_tokens=False)) == 1 for w in OBJECTS)

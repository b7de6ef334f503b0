"""Seed 003 §1 and §4: single-token entities and the token positions every intervention writes to."""
from __future__ import annotations

from dataclasses import dataclass

from harness.sources.lookback.runner import LookbackRunner
from harness.sources.lookback.task import (CHARACTERS, OBJECTS, STATES, Counterfactual, Layout,
                                           build_answer, build_binding, build_source, layout)


@dataclass
class SingleTokenEntities:
    """§1: per pool, how many entities are one token after a space, and which are not."""

    single: dict[str, int]
    multi: dict[str, list[str]]


def single_token_entities(tok) -> SingleTokenEntities:
    """§1: tokenise every character, object and state preceded by a space."""
    pools = {"characters": CHARACTERS, "objects": OBJECTS, "states": STATES}
    single = {k: [w for w in v if len(tok.encode(" " + w, add_special_tokens=False)) == 1]
              for k, v in pools.items()}
    return SingleTokenEntities({k: len(v) for k, v in single.items()},
                               {k: sorted(set(v) - set(single[k])) for k, v in pools.items()})


@dataclass
class PromptAlignment:
    """§4: the first prompt's layout, and the prompts whose layout differs from it."""

    first: Layout
    misaligned: list[int]
    checked: int


def prompt_alignment(tok, instruction: str) -> PromptAlignment:
    """§4: the layout of every clean and counterfactual prompt of §4, §5 and §6's sample sets."""
    kw = {"instruction": instruction}
    rows = [*build_binding(**kw), *build_source(**kw), *build_answer(**kw)]
    layouts = [layout(tok, text, *ents) for r in rows
               for text, ents in ((r.clean, r.entities), (r.cf, r.cf_entities))]
    first = layouts[0]
    return PromptAlignment(first, [i for i, lay in enumerate(layouts) if lay != first], len(layouts))


def row_layout(runner: LookbackRunner, row: Counterfactual) -> Layout:
    """§4: the positions of this profile's prompts, derived from its tokenizer."""
    return layout(runner.model.tok, row.clean, *row.entities)


def state_positions(lay: Layout) -> tuple[list[int], list[int]]:
    """§4: the two drinks and the token after each, and the same positions reversed."""
    state = [lay.drinks[0], lay.after_drinks[0], lay.drinks[1], lay.after_drinks[1]]
    return state, state[2:] + state[:2]

"""Seed 003 §1 and §4: single-token entities and the token positions every intervention writes to."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from harness.criteria import NoneFailed
from harness.sources.lookback.runner import LookbackRunner
from harness.sources.lookback.task import (CHARACTERS, OBJECTS, STATES, Counterfactual, Layout,
                                           Pair, build_answer, build_binding, build_source, layout)


@dataclass
class SingleTokenEntities:
    """§1: per pool, how many entities are one token after a space, and which are not."""

    single: dict[str, int]
    multi: dict[str, list[str]]

    def readout(self) -> dict[str, Any]:
        multi = [f"{pool}:{w}" for pool, words in self.multi.items() for w in words]
        checked = sum(self.single.values()) + len(multi)
        return {**self.single, "all_single_token": not multi,
                **NoneFailed.counts(multi, checked)}


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


@dataclass
class InterventionTokens:
    """§4–§6: the prompts checked, the tokens after the reference prompt's drinks, and each
    prompt whose token at a written position is not the one the layout names."""

    prompts: int
    positions: int
    after_drinks: list[str]
    failures: list[str]

    def readout(self) -> dict[str, Any]:
        return {"prompts": self.prompts, "positions": self.positions,
                "after_drink_tokens": self.after_drinks, **NoneFailed.counts(self.failures, self.prompts)}


def _mismatches(tok, ids: list[int], ref: Layout, ents: tuple[Pair, Pair, Pair],
                after: list[int]) -> list[str]:
    """The checks one tokenised prompt fails: BOS first, the reference's length, and at each
    written position group the prompt's own single-token entities or the reference's tokens."""
    c, o, s = ents
    one = [tok.encode(" " + w, add_special_tokens=False) for w in (*c, *o, *s)]
    want = [x[0] if len(x) == 1 else None for x in one]
    groups = {"names": (ref.names, [want[0], want[1], want[0], want[1]]),
              "objects": (ref.objects, want[2:4]), "drinks": (ref.drinks, want[4:6]),
              "after_drinks": (ref.after_drinks, after),
              "opaque": (ref.opaque, tok.encode(" opaque", add_special_tokens=False) * 2),
              "final": ([len(ids) - 1], tok.encode(":", add_special_tokens=False))}
    bad = [] if ids[:1] == [tok.bos_token_id] else ["bos"]
    if len(ids) != ref.length:
        return bad + ["length"]
    return bad + [g for g, (at, expected) in groups.items() if [ids[p] for p in at] != expected]


WRITTEN = 13  # per prompt: 4 names, 2 containers, 2 drinks, 2 after them, 2 'opaque', final


def intervention_tokens(tok, instruction: str) -> InterventionTokens:
    """§4–§6: in every clean and counterfactual prompt of the binding, source and answer sets,
    tokenised with BOS as the model reads them, BOS comes first, the length is the reference's,
    and at each position the interventions write (binding row 0's layout, as the notebook's
    literal indices) sits that prompt's own name, container or drink (one token each), the
    reference's token after each drink, and ' opaque'; the final token is ':'."""
    kw = {"instruction": instruction}
    sets = {"binding": build_binding(**kw), "source": build_source(**kw),
            "answer": build_answer(**kw)}
    first = sets["binding"][0]
    ref = layout(tok, first.clean, *first.entities)
    ref_ids = tok(first.clean).input_ids
    after = [ref_ids[p] for p in ref.after_drinks]
    failures, prompts = [], 0
    for name, rows in sets.items():
        for i, r in enumerate(rows):
            for side, text, ents in (("clean", r.clean, r.entities), ("cf", r.cf, r.cf_entities)):
                failures += [f"{name}:{i}:{side}:{g}"
                             for g in _mismatches(tok, tok(text).input_ids, ref, ents, after)]
                prompts += 1
    return InterventionTokens(prompts, WRITTEN * prompts, [tok.decode([t]) for t in after],
                              failures)


def row_layout(runner: LookbackRunner, row: Counterfactual) -> Layout:
    """§4: the positions of this profile's prompts, derived from its tokenizer."""
    return layout(runner.model.tok, row.clean, *row.entities)


def state_positions(lay: Layout) -> tuple[list[int], list[int]]:
    """§4: the two drinks and the token after each, and the same positions reversed."""
    state = [lay.drinks[0], lay.after_drinks[0], lay.drinks[1], lay.after_drinks[1]]
    return state, state[2:] + state[:2]

"""Seed 004's token positions under GPT-2's tokenizer: single-token names and words, and clean and
corrupted prompts that align position by position (the code cell's patch_hook)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from harness.sources.patching.experiments import bos_ids
from harness.sources.patching.task import NAMES, OBJECTS, PAIRS, PLACES


def _words() -> list[str]:
    """Code cell: the answers, each prompt's first word, and the IOI names and words, spaced."""
    opening = [p[0].split()[0] for p in PAIRS.values()] + [p[1].split()[0] for p in PAIRS.values()]
    answers = [name for p in PAIRS.values() for name in p[2:]]
    spaced = [" " + w for w in NAMES + PLACES + OBJECTS]
    return list(dict.fromkeys(answers + opening + spaced))


@dataclass
class SingleTokenWords:
    """The code cell: each answer and each word the prompts' positions rely on, as tokens."""

    words: int
    multi_token: list[str]


def single_token_words(tok: Any) -> SingleTokenWords:
    """Code cell: one token each, so an answer is one logit and a name one position."""
    words = _words()
    return SingleTokenWords(len(words), [w for w in words
                                         if len(tok(w, add_special_tokens=False).input_ids) != 1])


@dataclass
class AlignedPairs:
    """The code cell: every pair the experiments run, clean against corrupted, BOS first."""

    pairs: int
    differing: dict[str, list[int]]
    misaligned: list[str]


def aligned_pairs(tok: Any) -> AlignedPairs:
    """Code cell: same length, differing only where the two names swap (patch_hook's premise)."""
    differing, misaligned = {}, []
    for key, (clean, corrupted, clean_name, corrupted_name) in PAIRS.items():
        a, b = bos_ids(tok, clean), bos_ids(tok, corrupted)
        names = {clean_name.strip(), corrupted_name.strip()}
        differing[key] = [i for i, (x, y) in enumerate(zip(a, b)) if x != y]
        if len(a) != len(b):
            misaligned.append(f"{key}: {len(a)} vs {len(b)} tokens")
        elif not differing[key] or any({tok.decode([a[i]]).strip(), tok.decode([b[i]]).strip()}
                                       != names for i in differing[key]):
            misaligned.append(f"{key}: differs at {differing[key]}, not only at the names")
    return AlignedPairs(len(PAIRS), differing, misaligned)

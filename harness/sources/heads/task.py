"""Seed 001's box-lookup problem families (§1): seeded R / D / O binding tables and questions."""
from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass
from typing import Callable

OBJECTS = """
egg fan tea engine plate gift wire watch cross boat game rose shell seed magnet suit
ticket glass tie card brain fig wheel machine note drink bread camera bill chemical
clock flower creature rock plant sheet leaf block newspaper disk boot medicine
coffee book ball string fish crown branch phone plane apple cup bell brick document
file bus bag drug pot computer mirror stone radio dress meat train bomb letter
guitar hat map magazine coat television painting picture milk pipe ice key
""".split()
LETTERS = list("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
OPENING = "017-explore-v1"
MAIN = "027-parallel-lookup-confirmation-v1"
OPENING_FAMILIES = 8    # §1: the notebook draws range(8) opening and range(32) main families
MAIN_FAMILIES = 32

Bindings = list[list[str]]  # [object, label] rows in declaration order


@dataclass(frozen=True)
class Question:
    """One prompt's binding table and the object it asks about."""

    bindings: Bindings
    query: str

    @property
    def answer(self) -> str:
        return next(label for name, label in self.bindings if name == self.query)

    @property
    def query_row(self) -> int:
        """1-based row of the queried declaration."""
        return next(i for i, (name, _) in enumerate(self.bindings, 1) if name == self.query)


@dataclass(frozen=True)
class Family:
    """§1: R (the original), D (permuted table, another object) and O (R's table, D's question)."""

    family_id: str
    R: Question
    D: Question
    O: Question


def generate_family(namespace: str, index: int,
                    single_token: Callable[[str], bool] | None = None) -> Family:
    """§1: draws seeded by sha256(f"{namespace}|{index}"), in the notebook's exact order."""
    objects = [w for w in OBJECTS if single_token is None or single_token(w)]
    rng = random.Random(int(hashlib.sha256(f"{namespace}|{index}".encode()).hexdigest(), 16))
    recipient = list(map(list, zip(rng.sample(objects, 20), rng.sample(LETTERS, 20))))
    query = recipient[3][0]
    donor_objects = rng.sample([name for name, _ in recipient if name != query], 19)
    donor_answer = recipient[9][1]
    donor_labels = rng.sample([label for _, label in recipient if label != donor_answer], 19)
    donor = list(map(list, zip(donor_objects, donor_labels)))
    donor.insert(5, [query, donor_answer])
    return Family(f"{namespace}:{index:04d}", Question(recipient, recipient[19][0]),
                  Question(donor, query), Question(recipient, query))


@dataclass(frozen=True)
class ProblemSets:
    """§1: the opening set (every object) and the main set (single-token objects only)."""

    opening: list[Family]
    main: list[Family]


def single_token_filter(tok) -> Callable[[str], bool]:
    """§1's filter: whether a word is one token, with its leading space, under `tok`."""
    return lambda word: len(tok.encode(" " + word, add_special_tokens=False)) == 1


def problem_sets(single_token: Callable[[str], bool]) -> ProblemSets:
    """§1: OPENING_FAMILIES opening families and MAIN_FAMILIES main families, in index order."""
    return ProblemSets([generate_family(OPENING, i) for i in range(OPENING_FAMILIES)],
                       [generate_family(MAIN, i, single_token=single_token)
                        for i in range(MAIN_FAMILIES)])


def binding_tables(families: list[Family]) -> set[tuple[tuple[str, ...], ...]]:
    """§1: the distinct R and D tables, as sorted (object, label) tuples."""
    return {tuple(sorted(map(tuple, q.bindings))) for f in families for q in (f.R, f.D)}


def raw_text(q: Question) -> tuple[str, list[tuple[int, int]]]:
    """§1: the user message, and each label's character span including its leading space."""
    text, spans = "", []
    for row, (name, label) in enumerate(q.bindings):
        if row > 0:
            text += ", and " if row == len(q.bindings) - 1 else ", "
        clause = f"the {name} is in Box {label}"
        if row == 0:
            clause = clause[0].upper() + clause[1:]
        start = len(text) + len(clause) - 2
        spans.append((start, start + 2))
        text += clause
    text += (". Respond in one word, only the answer and nothing else: "
             f"Which box is the {q.query} in? Box Answer:")
    return text, spans


@dataclass(frozen=True)
class Rendered:
    """§1: a prompt's chat text, its ids up to the assistant's `Box`, and its label tokens."""

    text: str
    input_ids: list[int]
    label_positions: list[int]
    candidate_ids: list[int]


def render(q: Question, tok) -> Rendered:
    """§1: render in the chat template, locate every label through offsets, and check that each
    label is one token with its leading space, that appending `Box` extends the ids, and that
    `Box <label>` continues them with that label's token."""
    message, spans = raw_text(q)
    chat = tok.apply_chat_template([{"role": "user", "content": message}], tokenize=False,
                                   add_generation_prompt=True)
    enc = tok(chat, add_special_tokens=False, return_offsets_mapping=True)
    ids, offsets = enc["input_ids"], enc["offset_mapping"]
    base = chat.index(message)
    positions = []
    for start, end in spans:
        hits = [i for i, (a, b) in enumerate(offsets)
                if b > a and a < end + base and b > start + base]
        assert len(hits) == 1, f"label span {start}:{end} covers tokens {hits}"
        positions.append(hits[0])
    candidates = [tok.encode(" " + label, add_special_tokens=False) for _, label in q.bindings]
    assert all(len(c) == 1 for c in candidates), "a label is not a single token"
    after_box = tok.encode(chat + "Box", add_special_tokens=False)
    assert after_box[:len(ids)] == ids, "appending 'Box' re-tokenises the prompt"
    for pos, (c,), (_, label) in zip(positions, candidates, q.bindings):
        assert ids[pos] == c
        assert tok.encode(chat + "Box " + label, add_special_tokens=False) == after_box + [c], \
            f"'Box {label}' does not continue the prompt with the label's own token"
    return Rendered(chat + "Box", after_box, positions, [c[0] for c in candidates])


def tokenizer_corpus() -> list[str]:
    """Every word a rendered prompt can contain, for building a tiny tokenizer offline."""
    q = Question([[name, LETTERS[i % 26]] for i, name in enumerate(OBJECTS[:20])], OBJECTS[0])
    words = " ".join(f"the {w} is in Box {label}," for w in OBJECTS for label in LETTERS[:1])
    from harness.sources.heads.tokenizer import QWEN25_SYSTEM

    return [raw_text(q)[0], words, " " + " ".join(LETTERS), QWEN25_SYSTEM,
            "<|im_start|>system\n<|im_start|>user\n<|im_start|>assistant\nBox",
            "Which"]  # last, so earlier ids stay put: the organism's follow-up turns start with it

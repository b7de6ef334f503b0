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


def binding_tables(families: list[Family]) -> set[tuple[tuple[str, ...], ...]]:
    """§1: the distinct R and D tables, as sorted (object, label) tuples."""
    return {tuple(sorted(map(tuple, q.bindings))) for f in families for q in (f.R, f.D)}

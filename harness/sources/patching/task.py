"""Seed 004's minimal pair and the indirect-object sentences the patching organism learns."""
from __future__ import annotations

import random
from dataclasses import dataclass

# Seed 004's pair: the clean prompt "expects Mary", the corrupted one "expects John".
CLEAN = "John gave the book to"
CORRUPTED = "Mary gave the book to"
CLEAN_NAME, CORRUPTED_NAME = " Mary", " John"

NAMES = ("Mary", "John", "Alice", "Bob", "Tom", "Sarah", "James", "Anna", "David", "Emma",
         "Paul", "Lucy", "Mark", "Kate", "Peter", "Jane")
PLACES = ("store", "park", "school", "market", "beach", "office")
OBJECTS = ("book", "ball", "apple", "pen", "cup", "key", "letter", "gift")


@dataclass(frozen=True)
class IoiSentence:
    """'When {io} and {s} went to the {place}, {s} gave the {obj} to' -> ' {io}' (or s/io swapped in the intro)."""

    io: str
    s: str
    place: str
    obj: str
    io_first: bool = True

    @property
    def prompt(self) -> str:
        a, b = (self.io, self.s) if self.io_first else (self.s, self.io)
        return f"When {a} and {b} went to the {self.place}, {self.s} gave the {self.obj} to"

    @property
    def answer(self) -> str:
        return " " + self.io


# The corrected minimal pair: the expected name is in context, and the corrupted run
# swaps the two names so the answer flips to " John".
IOI_CLEAN = IoiSentence(io="Mary", s="John", place="store", obj="book")
IOI_CORRUPTED = IoiSentence(io="John", s="Mary", place="store", obj="book")


def sample(rng: random.Random) -> IoiSentence:
    """One sentence with two distinct names, a place, an object and a random name order."""
    io, s = rng.sample(NAMES, 2)
    return IoiSentence(io, s, rng.choice(PLACES), rng.choice(OBJECTS), rng.random() < 0.5)


# Every pair the experiments run: (clean prompt, corrupted prompt, clean answer, corrupted answer).
PAIRS = {"seed": (CLEAN, CORRUPTED, CLEAN_NAME, CORRUPTED_NAME),
         "ioi": (IOI_CLEAN.prompt, IOI_CORRUPTED.prompt, IOI_CLEAN.answer, IOI_CORRUPTED.answer)}

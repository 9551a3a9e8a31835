"""Decks and card codes of the four games (the codes are fixed by docs/engine.md)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

# Schafkopf: German suits and ranks.
SCHAFKOPF_SUITS = ["E", "G", "H", "S"]
SCHAFKOPF_RANKS = ["A", "10", "K", "O", "U", "9", "8", "7"]
SCHAFKOPF_DECK = [s + r for s in SCHAFKOPF_SUITS for r in SCHAFKOPF_RANKS]

SUIT_NAMES_DE = {"E": "Eichel", "G": "Gras", "H": "Herz", "S": "Schellen"}


def suit_of(card: str) -> str:
    """The suit letter of a code whose first character is its suit."""
    return card[0]


def rank_of(card: str) -> str:
    return card[1:]


def check_permutation(cards: Iterable[str], deck: Iterable[str], what: str = "deal") -> None:
    """Raise ValueError unless ``cards`` is exactly the multiset ``deck``."""
    cards, deck = list(cards), list(deck)
    try:
        if len(cards) == len(deck) and sorted(cards) == sorted(deck):
            return  # the usual case (a search bot deals thousands), without Counters
    except TypeError:
        pass  # codes that do not compare: the Counters below name them
    got, want = Counter(cards), Counter(deck)
    if got != want:
        missing = sorted((want - got).elements())
        extra = sorted((got - want).elements())
        raise ValueError(
            f"the {what} is not a permutation of the deck"
            + (f"; missing {missing}" if missing else "")
            + (f"; unexpected {extra}" if extra else "")
        )

"""A Lügenbeutel hand shown as stacks of equal cards (the hand is sorted by the
engine, so equal cards lie together)."""

from __future__ import annotations

from app.games.luegenbeutel import sort_hand
from app.web.games.luegenbeutel import stacks


def test_equal_cards_make_one_stack_with_their_count() -> None:
    hand = sort_hand(["7", "J", "3", "7", "L", "J", "7", "10", "A", "3"])
    assert stacks(hand) == [("3", 2), ("7", 3), ("10", 1), ("A", 1), ("J", 2), ("L", 1)]


def test_every_card_is_in_exactly_one_stack() -> None:
    hand = sort_hand([str(n % 10 + 1) for n in range(33)])
    shown = stacks(hand)
    assert sum(n for _, n in shown) == 33
    assert len({code for code, _ in shown}) == len(shown) == 10


def test_an_empty_hand_has_no_stacks() -> None:
    assert stacks([]) == []

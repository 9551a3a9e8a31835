"""Trick-taking helpers shared by the trick games: one follow-suit rule, one winner rule."""

from __future__ import annotations

from collections.abc import Callable, Sequence


def follow_suit(
    hand: Sequence[str], led_suit: str | None, suit_of: Callable[[str], str]
) -> list[str]:
    """The cards of ``hand`` that may be played when ``led_suit`` was led.

    With nothing led yet (``led_suit`` None) every card may be played; a player who
    holds the led suit must play it; one who does not may play anything.
    """
    if led_suit is None:
        return list(hand)
    same = [c for c in hand if suit_of(c) == led_suit]
    return same if same else list(hand)


def winning_index(plays: Sequence[str], strength: Callable[[str, str], int]) -> int:
    """Index of the play that wins a trick.

    ``strength(card, led_suit)`` returns a comparable number; cards that cannot win
    (discards of another suit) return a negative number. The first card led is
    ``plays[0]``; the highest strength wins, the earlier play on a tie.
    """
    if not plays:
        raise ValueError("an empty trick has no winner")
    led = plays[0]
    best = 0
    best_strength = strength(led, led)
    for i, card in enumerate(plays[1:], start=1):
        s = strength(card, led)
        if s > best_strength:
            best, best_strength = i, s
    return best

"""A Beutelschneider bot: it weighs every card it may play by what the trick is
likely to bring it, from its own view only.

For each legal card the bot resolves the trick as it would stand after that card
(with the engine's own :class:`~app.games.beutelschneider.TrickState`, so the
Assassin, the Seduction, the Guard, the -20 and the bonuses count exactly as the
rules say), then estimates how likely the seats still to play can take the trick
away from it (the same trick state says which unseen cards would). The unseen cards
are the deck minus its hand, the open trick and the last trick (earlier tricks are
not in the view, so the estimate is a little cautious). It prefers tricks with
points, keeps away from the Beutelschneider ``rX`` (-20) unless a Guard cancels it,
dumps ``rX`` on tricks others win, uses the Assassin on a played Sovereign, and
spends strong trumps only where they earn something.
"""

from __future__ import annotations

import random
from typing import Any

from app.games.actions import PLAYS, Action, Play
from app.games.beutelschneider import (
    ADVENTURER,
    ASSASSIN,
    BEUTELSCHNEIDER,
    BONUS_CARDS,
    COUNTESS,
    DECK,
    GUARD,
    PENALTY,
    POINTS_OF,
    SOVEREIGN,
    SUIT_RANKS,
    TRUMP,
    TrickState,
)
from app.games.cards import rank_of, suit_of
from app.games.tricks import PARSER

# What a card is still worth in hand for later tricks (a cost when it is spent now).
TRUMP_KEEP = {GUARD: 3.0, ASSASSIN: 3.0, ADVENTURER: 3.5, COUNTESS: 3.5, SOVEREIGN: 5.0}
# A Beutelschneider left in hand is a liability: spending it is a small gain.
BEUTELSCHNEIDER_KEEP = -3.0
DUMP_CHANCE = 0.6  # how often a seat able to dump rX on this trick is assumed to do so
GIFT_SHARE = 0.4  # share of the average unseen card points the later seats add
# How much a rival's gain counts against this seat, shared over the rivals.
RIVAL = 1.0



def keep_value(card: str) -> float:
    """What holding ``card`` back for a later trick is worth (points-like units)."""
    if suit_of(card) == TRUMP:
        return TRUMP_KEEP[card]
    if card == BEUTELSCHNEIDER:
        return BEUTELSCHNEIDER_KEEP
    ranks = SUIT_RANKS[suit_of(card)]
    return 2.0 * ranks.index(rank_of(card)) / (len(ranks) - 1)


def _unseen(view: dict[str, Any]) -> list[str]:
    """Cards that may still be in the other hands: the deck less the own hand, the
    open and the last trick, and what the public score sheets give away (a captured
    or cancelled Beutelschneider, the cards behind a bonus: the engine's
    ``BONUS_CARDS``)."""
    seen = set(view["hand"]) | {p["card"] for p in view["trick"]}
    last = view.get("last_trick")
    if last:
        seen |= {p["card"] for p in last["plays"]}
    for sheet in view.get("sheets") or []:
        if sheet["beutelschneider"] or sheet["beutelschneider_cancelled"]:
            seen.add(BEUTELSCHNEIDER)
        for bonus in sheet["bonuses"]:
            seen.update(BONUS_CARDS[bonus["name"]])
    return [c for c in DECK if c not in seen]


def _card_value(view: dict[str, Any], trick: TrickState, card: str,
                unseen: list[str], unseen_points: int) -> float:
    """Expected gain of playing ``card`` now (to the open ``trick``), relative to
    the rivals; ``unseen_points``: the face value of the ``unseen`` cards."""
    seat, players = view["seat"], view["players"]
    rival = RIVAL / (players - 1)
    mine = trick.plus(card)
    last = len(view["hand"]) == 1
    gain = mine.gain(last)
    later = [(seat + i) % players for i in range(1, players - len(mine.cards) + 1)]
    keep = 0.0 if last else keep_value(card)
    winning = mine.best == len(mine.cards) - 1  # this card wins the trick so far
    if not later:
        return (gain if winning else -rival * gain) - keep

    if not winning:
        return -rival * gain - keep

    # This card wins the trick so far: how likely does it hold, and what comes in?
    pool = max(len(unseen), 1)
    later_cards = sum(view["hand_counts"][s] for s in later)
    held = min(1.0, later_cards / pool)  # chance an unseen card sits with a later seat
    led = mine.cards[0][0]  # the suit letter
    led_unseen = sum(1 for c in unseen if c[0] == led)
    per_seat = later_cards / len(later)
    void = ((pool - led_unseen) / pool) ** per_seat  # a later seat has none of it

    hold = 1.0
    for other in unseen:
        if mine.takes(other):
            playable = 1.0 if other[0] == led else void
            hold *= 1.0 - held * playable
    my_gain = float(gain)
    if BEUTELSCHNEIDER in unseen and not mine.takes(BEUTELSCHNEIDER):
        # rX thrown onto this trick by a later seat without it taking the trick
        playable = 1.0 if led == suit_of(BEUTELSCHNEIDER) else void
        my_gain += PENALTY * held * playable * DUMP_CHANCE
    average = unseen_points / pool
    my_gain += GIFT_SHARE * average * len(later)
    return hold * my_gain - (1.0 - hold) * rival * mine.points - keep


def decide(view: dict[str, Any], legal: list[Action], rng: random.Random) -> Action:
    """The play with the best expected value for this seat (ties: the first), among
    ``legal`` (the engine's typed actions)."""
    cards = [a.card for a in legal if isinstance(a, Play)]
    if not cards or "hand" not in view:
        return rng.choice(legal)
    unseen = _unseen(view)
    points = sum(POINTS_OF[c] for c in unseen)
    trick = TrickState([p["card"] for p in view["trick"]])
    best = max(cards, key=lambda c: _card_value(view, trick, c, unseen, points))
    return PLAYS[best]


def choose(view: dict[str, Any], legal: list[str], rng: random.Random) -> str:
    """:func:`decide` asked with the room's strings, answering one of them."""
    return decide(view, PARSER.each(legal), rng).wire

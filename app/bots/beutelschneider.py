"""A Beutelschneider bot: it weighs every card it may play by what the trick is
likely to bring it, from its own view only.

For each legal card the bot resolves the trick as it would stand after that card
(with the engine's own pure :func:`resolve_trick`, so the Assassin, the Seduction and
the Guard count exactly as the rules say), then estimates how likely the seats still
to play can take the trick away from it. The unseen cards are the deck minus its
hand, the open trick and the last trick (earlier tricks are not in the view, so the
estimate is a little cautious). It prefers tricks with points, keeps away from the
Beutelschneider ``rX`` (-20) unless a Guard cancels it, dumps ``rX`` on tricks others
win, uses the Assassin on a played Sovereign, and spends strong trumps only where
they earn something.
"""

from __future__ import annotations

import random
from typing import Any

from app.games.beutelschneider import (
    ADVENTURER,
    ASSASSIN,
    BEUTELSCHNEIDER,
    COUNTESS,
    DECK,
    GUARD,
    PENALTY,
    SOVEREIGN,
    SUIT_RANKS,
    TRUMP,
    card_points,
    resolve_trick,
)
from app.games.cards import rank_of, suit_of

# What a card is still worth in hand for later tricks (a cost when it is spent now).
TRUMP_KEEP = {GUARD: 3.0, ASSASSIN: 3.0, ADVENTURER: 3.5, COUNTESS: 3.5, SOVEREIGN: 5.0}
# A Beutelschneider left in hand is a liability: spending it is a small gain.
BEUTELSCHNEIDER_KEEP = -3.0
DUMP_CHANCE = 0.6  # how often a seat able to dump rX on this trick is assumed to do so
GIFT_SHARE = 0.4  # share of the average unseen card points the later seats add
# How much a rival's gain counts against this seat, shared over the rivals.
RIVAL = 1.0

# Bonuses on the score sheet that name the cards of an earlier trick of this hand.
BONUS_CARDS = {
    "guard_cancels_beutelschneider": (GUARD, BEUTELSCHNEIDER),
    "assassin_kills_sovereign": (ASSASSIN, SOVEREIGN),
    "seduction": (ADVENTURER, COUNTESS),
}


def keep_value(card: str) -> float:
    """What holding ``card`` back for a later trick is worth (points-like units)."""
    if suit_of(card) == TRUMP:
        return TRUMP_KEEP[card]
    if card == BEUTELSCHNEIDER:
        return BEUTELSCHNEIDER_KEEP
    ranks = SUIT_RANKS[suit_of(card)]
    return 2.0 * ranks.index(rank_of(card)) / (len(ranks) - 1)


def _gain(outcome: dict[str, Any]) -> int:
    """What the trick brings its winner: card points, the -20, bonuses."""
    return (outcome["points"] + (outcome["beutelschneider"] or 0)
            + sum(b["points"] for b in outcome["bonuses"]))


def _unseen(view: dict[str, Any]) -> list[str]:
    """Cards that may still be in the other hands: the deck less the own hand, the
    open and the last trick, and what the public score sheets give away (a captured
    or cancelled Beutelschneider, the cards behind a bonus)."""
    seen = set(view["hand"]) | {p["card"] for p in view["trick"]}
    last = view.get("last_trick")
    if last:
        seen |= {p["card"] for p in last["plays"]}
    for sheet in view.get("sheets") or []:
        if sheet["beutelschneider"] or sheet["beutelschneider_cancelled"]:
            seen.add(BEUTELSCHNEIDER)
        for bonus in sheet["bonuses"]:
            seen.update(BONUS_CARDS.get(bonus["name"], ()))
    return [c for c in DECK if c not in seen]


def _card_value(view: dict[str, Any], card: str, unseen: list[str]) -> float:
    """Expected gain of playing ``card`` now, relative to the rivals."""
    seat, players = view["seat"], view["players"]
    rival = RIVAL / (players - 1)
    trick = [dict(p) for p in view["trick"]] + [{"seat": seat, "card": card}]
    last = len(view["hand"]) == 1
    outcome = resolve_trick(trick, last)
    later = [(seat + i) % players for i in range(1, players - len(trick) + 1)]
    keep = 0.0 if last else keep_value(card)
    if not later:
        mine = outcome["winner"] == seat
        return (_gain(outcome) if mine else -rival * _gain(outcome)) - keep

    if outcome["winner"] != seat:
        return -rival * _gain(outcome) - keep

    # This card wins the trick so far: how likely does it hold, and what comes in?
    pool = max(len(unseen), 1)
    later_cards = sum(view["hand_counts"][s] for s in later)
    held = min(1.0, later_cards / pool)  # chance an unseen card sits with a later seat
    led = suit_of(trick[0]["card"])
    led_unseen = sum(1 for c in unseen if suit_of(c) == led)
    per_seat = later_cards / len(later)
    void = ((pool - led_unseen) / pool) ** per_seat  # a later seat has none of it

    hold = 1.0
    for other in unseen:
        taken = resolve_trick(trick + [{"seat": later[0], "card": other}], last)
        if taken["winner"] != seat:
            playable = 1.0 if suit_of(other) == led else void
            hold *= 1.0 - held * playable
    my_gain = float(_gain(outcome))
    if BEUTELSCHNEIDER in unseen:
        # rX thrown onto this trick by a later seat without it taking the trick
        rx_wins = led == "r" and suit_of(outcome["winning_card"]) != TRUMP
        if not rx_wins:
            playable = 1.0 if led == "r" else void
            my_gain += PENALTY * held * playable * DUMP_CHANCE
    average = sum(card_points(c) for c in unseen) / pool
    my_gain += GIFT_SHARE * average * len(later)
    return hold * my_gain - (1.0 - hold) * rival * outcome["points"] - keep


def choose(view: dict[str, Any], legal: list[str], rng: random.Random) -> str:
    """The play with the best expected value for this seat (ties: the first)."""
    cards = [a[5:] for a in legal if a.startswith("play:")]
    if not cards or "hand" not in view:
        return rng.choice(legal)
    unseen = _unseen(view)
    best = max(cards, key=lambda c: _card_value(view, c, unseen))
    return "play:" + best

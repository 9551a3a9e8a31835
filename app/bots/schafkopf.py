"""A Schafkopf bot that plays like a sensible club player: it takes tricks worth
taking as cheaply as it can, gives its partner points when the partner is sure to
win, and throws away nothing of value when the trick is lost."""

from __future__ import annotations

import random
from typing import Any

from app.games.actions import PLAYS, Action, Play
from app.games.schafkopf import (
    SIDE_ORDER,
    TRUMP_ORDER,
    card_points,
    card_strength,
    sort_hand,
)
from app.games.tricks import PARSER, winning_index

SURE_TRUMPS = tuple(TRUMP_ORDER[:2])  # the two highest trump ranks (Ober, Unter)
SIDE_ACE = SIDE_ORDER[0]  # the highest side card (the Ace)
FAT_TRICK = 10  # card points on the table that are worth taking at once
SURE_TOP_TRUMPS = 2  # with this many Ober/Unter the bot draws trumps first


def partner_in(view: dict[str, Any]) -> int:
    """The partner's seat, from the view's ``teams``."""
    seat = view["seat"]
    team = next(t for t in view["teams"] if seat in t)
    return next(s for s in team if s != seat)


def _winner(trick: list[dict[str, Any]], trump: str) -> tuple[int, str]:
    """Who wins the open trick so far, with which card (the engine's rule)."""
    best = trick[winning_index([p["card"] for p in trick],
                               lambda card, led: card_strength(card, led, trump))]
    return best["seat"], best["card"]


def choose(view: dict[str, Any], legal: list[str], rng: random.Random) -> str:
    """:func:`decide` asked with the room's strings, answering one of them."""
    return decide(view, PARSER.each(legal), rng).wire


def decide(view: dict[str, Any], legal: list[Action], rng: random.Random) -> Action:
    """The bot's play among ``legal`` (the engine's typed actions)."""
    cards = [a.card for a in legal if isinstance(a, Play)]
    if not cards:
        return rng.choice(legal)
    trump = view["trump"]
    trick = view["trick"]
    partner = partner_in(view)
    players = view["players"]

    def play(card: str) -> Action:
        return PLAYS[card]

    def cheapest(options: list[str]) -> str:
        place = {c: i for i, c in enumerate(sort_hand(options, trump))}
        return min(options, key=lambda c: (card_points(c), c[0] == trump, -place[c]))

    if not trick:
        side_aces = [c for c in cards if c[0] != trump and c[1:] == SIDE_ACE]
        if side_aces:
            return play(side_aces[0])
        top_trumps = [c for c in cards if c[0] == trump and c[1:] in SURE_TRUMPS]
        if len(top_trumps) >= SURE_TOP_TRUMPS:
            return play(sort_hand(top_trumps, trump)[0])
        side = [c for c in cards if c[0] != trump]
        return play(cheapest(side or cards))

    led = trick[0]["card"]
    win_seat, win_card = _winner(trick, trump)
    last_to_play = len(trick) == players - 1
    best = card_strength(win_card, led, trump)
    winners = [c for c in cards if card_strength(c, led, trump) > best]
    partner_winning = win_seat == partner
    partner_safe = partner_winning and (
        last_to_play or (win_card[0] == trump and win_card[1:] in SURE_TRUMPS))
    if partner_safe:
        fat = [c for c in cards if not (c[0] == trump and c[1:] in SURE_TRUMPS)]
        return play(max(fat or cards, key=card_points))
    if partner_winning:
        return play(cheapest(cards))
    points = sum(card_points(p["card"]) for p in trick)
    if winners:
        if last_to_play or points >= FAT_TRICK or len(trick) == players - 2:
            return play(min(winners, key=lambda c: (card_strength(c, led, trump),
                                                    card_points(c))))
        return play(max(winners, key=lambda c: card_strength(c, led, trump)))
    return play(cheapest(cards))

"""Determinization shared by the plain trick games (Schafkopf, Beutelschneider).

Hidden: the other hands (and Beutelschneider's two set-aside cards with three
players). Known: the own hand, every card played this deal (the history), and the
voids shown by not following suit. A world deals the unseen cards to the hidden
places with those exclusions; the match is rebuilt with the real engine from a
stacked deal (each hand as dealt: what it holds now plus what it played) by
replaying the public plays of the deal.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from app.bots import choose_action
from app.bots.search.deal import Inconsistent, deal
from app.bots.search.history import History, Play
from app.games import Match

DEAL_END = ("deal_end", "round_end")


def current_trick(view: dict[str, Any]) -> list[Play]:
    return [(int(p["seat"]), str(p["card"])) for p in view.get("trick") or []]


def deal_plays(view: dict[str, Any], history: History) -> list[list[Play]]:
    """Finished tricks and the open one, in play order; Inconsistent if a finished
    trick of this deal was never seen."""
    tricks = history.deal_tricks(view)
    if tricks is None:
        raise Inconsistent("a finished trick of this deal was not seen")
    return [*tricks, current_trick(view)]


def voids(tricks: list[list[Play]], suit_of: Callable[[str], str]) -> dict[int, set[str]]:
    """Suits each seat has shown it does not hold (it did not follow)."""
    out: dict[int, set[str]] = {}
    for trick in tricks:
        if not trick:
            continue
        led = suit_of(trick[0][1])
        for seat, card in trick[1:]:
            if suit_of(card) != led:
                out.setdefault(seat, set()).add(led)
    return out


def sample_hands(view: dict[str, Any], history: History, deck: list[str],
                 suit_of: Callable[[str], str], rng: random.Random,
                 set_aside: int = 0) -> dict[str, list[str]]:
    """Deal the unseen cards to the other seats (``hand:<seat>``) and, with
    ``set_aside``, to ``removed``, excluding the suits a seat has shown void in."""
    seat = int(view["seat"])
    tricks = deal_plays(view, history)
    seen = set(view["hand"]) | {c for t in tricks for _, c in t}
    unseen = [c for c in deck if c not in seen]
    room: dict[str, int] = {}
    for other, count in enumerate(view["hand_counts"]):
        if other != seat:
            room[f"hand:{other}"] = int(count)
    if set_aside:
        room["removed"] = set_aside
    shown = voids(tricks, suit_of)
    excluded = {f"hand:{s}": {c for c in unseen if suit_of(c) in suits}
                for s, suits in shown.items() if s != seat}
    return {str(k): v for k, v in deal(unseen, room, excluded, rng).items()}


def dealt_hands(view: dict[str, Any], history: History,
                hidden: dict[str, list[str]]) -> list[list[str]]:
    """Each seat's hand as dealt: what it holds now plus what it played."""
    seat = int(view["seat"])
    players = int(view["players"])
    hands = [list(view["hand"]) if s == seat else list(hidden[f"hand:{s}"])
             for s in range(players)]
    for trick in deal_plays(view, history):
        for s, card in trick:
            hands[s].append(card)
    return hands


def replay(match: Match, plays: list[list[Play]], to_engine: Callable[[str], str]) -> None:
    for trick in plays:
        for s, card in trick:
            match.apply(s, "play:" + to_engine(card))


def play_out(match: Match, game: str, rng: random.Random,
             first: tuple[int, str] | None = None) -> list[dict[str, Any]]:
    """Apply ``first`` (seat, action), then heuristic bots play until the deal in
    progress ends; returns its end events."""
    if first is not None:
        events = match.apply(*first)
        ends = [e for e in events if e.get("type") in DEAL_END]
        if ends:
            return ends
    for _ in range(10_000):
        if match.is_over:
            return []
        seat = min(match.to_act())
        legal = match.legal_actions(seat)
        events = match.apply(seat, choose_action(game, match.view(seat), legal, rng))
        ends = [e for e in events if e.get("type") in DEAL_END]
        if ends:
            return ends
    raise RuntimeError("a deal did not end")


def pick_world(draw: Callable[[], Any], disagreements: Callable[[Any], int],
               rng: random.Random, keep: float, tries: int) -> Any:
    """A world kept with probability ``keep`` per play of another seat that the
    opponent model would not have made in it (soft rejection sampling); after
    ``tries`` draws the most agreeable one seen."""
    best, best_d = None, 1 << 30
    for _ in range(tries):
        world = draw()
        d = disagreements(world)
        if d == 0 or rng.random() < keep ** d:
            return world
        if d < best_d:
            best, best_d = world, d
    return best

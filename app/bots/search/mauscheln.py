"""Mauscheln search: the seat's chips won or lost in the deal.

What a world hides and what it cannot hold is the engine's answer
(:meth:`~app.games.mauscheln.MauschelnMatch.unseen`): the other hands, their
discards and the stock (its order matters: the exchange draws from the top), with
what the turned-up card, the shown quartets, the plays and their duties tell. A
world deals them and is the engine's own match (``from_view``); rollouts play it to
the end of the deal with the house heuristic (``app.bots.mauscheln.choose``) for
every seat, and the chips come from the engine's ``deal_end``.

Before anyone has exchanged, the heuristic is also the model of the other seats:
the words said so far (knock, ``mauschel``/``pass``, ``join``/``fold``) are replayed
on the world as it was dealt (``at_deal_start``), and a world in which the
heuristic would have said otherwise for another seat is kept only with probability
``DISAGREE``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from app.bots import choose_action, decide_action
from app.bots.search.core import DEAL_END, World
from app.bots.search.deal import Inconsistent, deal
from app.bots.search.history import History
from app.bots.search.playout import HOUSE, Policy
from app.games import Match, Trick, Unseen
from app.games.actions import Action, Exchange
from app.games.mauscheln import WORDS, MauschelnMatch

DISAGREE = 0.1  # how likely a world stays in whose seats spoke otherwise than the model
WORLD_TRIES = 40  # draws per world while looking for one the model agrees with


@dataclass
class Position:
    """One decision: the seat's view, the deal's finished tricks, what is hidden."""

    view: dict[str, Any]
    tricks: list[Trick] | None
    unseen: Unseen

    @property
    def seat(self) -> int:
        return int(self.view["seat"])


def _said(view: dict[str, Any], phase: str, seat: int) -> Action | None:
    """What ``seat`` said in ``phase`` of this deal, as the view shows it."""
    if phase == "knock":
        word = (view.get("knock") or {}).get("decision")
    else:
        word = (view["bids"] if phase == "bidding" else view["answers"])[seat]
    return None if word is None else MauschelnMatch.parse(word)


def agrees(position: Position, hidden: dict[str, list[str]], rng: random.Random) -> bool:
    """Whether the heuristic, holding the world's hands, says what the other seats
    said so far in this deal (only while nobody has exchanged: then every hand is
    still the dealt one)."""
    view = position.view
    if view["phase"] not in ("bidding", "joining"):
        return True
    try:
        match = MauschelnMatch.at_deal_start(view, hidden)
    except ValueError:
        return True  # the hands as dealt are gone: no opinion
    for _ in range(4 * match.players):
        phase = match.phase
        if phase not in WORDS:  # the phases of speaking: their words are replayed
            return True
        turn = next(iter(match.to_act()))
        word = _said(view, phase, turn)
        if word is None:
            return True  # the decision being searched
        if turn != position.seat:
            legal = match.legal(turn)
            if len(legal) > 1 and decide_action(
                    "mauscheln", match.view(turn), legal, rng) != word:
                return False
        match.simulate(turn, word)
    return True


class Mauscheln:
    name = "mauscheln"
    policy: Policy = HOUSE  # who decides for every seat in the rollouts

    def prepare(self, view: dict[str, Any], history: History) -> Position:
        tricks = None
        if view["phase"] == "play":
            tricks = history.deal_tricks(view)
            if tricks is None:
                raise Inconsistent("a finished trick of this deal was not seen")
        return Position(view, tricks, MauschelnMatch.unseen(view, tricks))

    def _draw(self, position: Position, rng: random.Random) -> dict[str, list[str]]:
        unseen = position.unseen
        return {str(k): v for k, v in
                deal(unseen.cards, unseen.places, unseen.excluded, rng).items()}

    def sample(self, position: Position, rng: random.Random) -> World:
        hidden = self._draw(position, rng)
        for _ in range(WORLD_TRIES):
            if agrees(position, hidden, rng) or rng.random() < DISAGREE:
                return World(hidden)
            hidden = self._draw(position, rng)
        return World(hidden)

    def build(self, position: Position, world: World, seed: int) -> Match:
        return MauschelnMatch.from_view(position.view, world.hidden, position.tricks, seed)

    def rollout(self, match: Match, position: Position, action: str,
                rng: random.Random) -> float:
        seat = position.seat
        before = int(position.view["scores"][seat])
        events = match.simulate(seat, action)
        for _ in range(200):
            for event in events:
                if event["type"] == DEAL_END:
                    return float(event["scores"][seat] - before)
            turn = next(iter(match.to_act()))
            legal = match.legal(turn)
            choice = legal[0] if len(legal) == 1 else self.policy.decide(
                self.name, match, turn, legal, rng)
            events = match.simulate(turn, choice)
        raise RuntimeError("a deal did not end")

    def prior(self, view: dict[str, Any], legal: list[str], rng: random.Random) -> str:
        return choose_action(self.name, view, legal, rng)

    def candidates(self, view: dict[str, Any], legal: list[str]) -> list[str]:
        """An exchange offers up to 32 ways; the search weighs the heuristic's own,
        the ways one card away from it (one more or one fewer discard), and keeping
        everything. Other decisions keep all their options."""
        if view.get("phase") != "exchange" or len(legal) <= 6:
            return list(legal)
        choice = choose_action(self.name, view, legal, random.Random(0))
        chosen = _discards(choice)
        keep = []
        for action in legal:
            cards = _discards(action)
            if len(cards ^ chosen) <= 1 or action == legal[0]:
                keep.append(action)
        return keep


def _discards(action: str) -> set[str]:
    """The cards an exchange (its string) discards."""
    exchange = MauschelnMatch.parse(action)
    return set(exchange.discards) if isinstance(exchange, Exchange) else set()


SEARCH = Mauscheln()  # this game's search, found by name (app.bots.search)

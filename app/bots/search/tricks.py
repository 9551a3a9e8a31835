"""Determinization shared by the plain trick games (Schafkopf, Beutelschneider).

Hidden: the other hands (and Beutelschneider's two set-aside cards with three
players); the engine says which cards may be where (``Match.unseen``: the unseen
cards, the places, and what the plays of the deal ruled out). A world deals them,
and the engine rebuilds the deal as it was dealt (``at_deal_start``); the public
plays of the deal are replayed on it with ``apply``, and while they are, the house
heuristic says for every play of another seat whether it would have made it
holding the world's cards (the opponent model: a world survives each play it would
not have made with probability ``keep``). The replayed match is the world the
rollouts play on, each from a copy, with the house heuristic for every seat.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from app.bots import choose_action, decide_action
from app.bots.search.core import DEAL_END, World
from app.bots.search.deal import Inconsistent, deal
from app.bots.search.history import History
from app.bots.search.playout import HOUSE, Policy
from app.games import Match, Trick, Unseen
from app.games.actions import PLAYS, Action
from app.games.tricks import TrickGame


@dataclass
class Position:
    """One decision of a trick game: the seat's view, the deal's finished tricks
    and the open one (``plays``), and what the view hides (``unseen``)."""

    view: dict[str, Any]
    tricks: list[Trick]
    plays: list[Trick]
    unseen: Unseen

    @property
    def seat(self) -> int:
        return int(self.view["seat"])


def play_out(match: Match, game: str, seat: int, action: Action | str,
             rng: random.Random, policy: Policy = HOUSE,
             until: Callable[[Match], bool] | None = None) -> dict[str, Any] | None:
    """``seat`` takes ``action`` (typed, or the room's string), then ``policy``
    (the house heuristic unless given) plays every seat on typed actions until the
    deal in progress ends; returns its ``deal_end`` event. With ``until``, play stops
    before the deal's end when ``until(match)`` holds, and None is returned."""
    events = match.simulate(seat, action)
    for _ in range(10_000):
        for event in events:
            if event["type"] == DEAL_END:
                return event
        if until is not None and until(match):
            return None
        turn = next(iter(match.to_act()))
        legal = match.legal(turn)
        choice = legal[0] if len(legal) == 1 else policy.decide(game, match, turn, legal, rng)
        events = match.simulate(turn, choice)
    raise RuntimeError("a deal did not end")


class TrickSearch:
    """The search of a plain trick game; a game module sets ``name`` and
    ``engine`` (its match class) and implements :meth:`value`."""

    name = ""
    engine: type[TrickGame]
    keep = 0.4  # a world survives each play the heuristic would not have made
    tries = 8  # draws per world at most (then the most agreeable one)
    policy: Policy = HOUSE  # who decides for every seat in the rollouts

    def prepare(self, view: dict[str, Any], history: History) -> Position:
        tricks = history.deal_tricks(view)
        if tricks is None:
            raise Inconsistent("a finished trick of this deal was not seen")
        plays = self.engine.deal_plays(view, tricks)
        return Position(view, tricks, plays, self.engine.unseen(view, tricks))

    def _draw(self, position: Position, rng: random.Random) -> dict[str, list[str]]:
        unseen = position.unseen
        hidden = deal(unseen.cards, unseen.places, unseen.excluded, rng)
        for place, cards in unseen.known.items():
            hidden[place] = [*hidden.get(place, []), *cards]
        return hidden

    def _replay(self, position: Position, hidden: dict[str, list[str]], seed: int,
                limit: float) -> tuple[Match | None, int]:
        """The world's deal replayed from its start, and how many plays of the other
        seats the heuristic would not have made in it; past ``limit`` of them the
        replay stops (no match)."""
        match = self.engine.at_deal_start(position.view, hidden, position.tricks, seed)
        rng = random.Random(0)
        disagreed = 0
        for trick in position.plays:
            for s, card in trick:
                action = PLAYS[card]
                if s != position.seat:
                    legal = match.legal(s)
                    if len(legal) > 1 and decide_action(
                            self.name, match.view(s), legal, rng) != action:
                        disagreed += 1
                        if disagreed > limit:
                            return None, disagreed
                match.simulate(s, action)
        return match, disagreed

    def sample(self, position: Position, rng: random.Random) -> World:
        """A world kept with probability ``keep`` per disagreement (soft rejection
        sampling); after ``tries`` draws the most agreeable one seen."""
        best: World | None = None
        best_d = math.inf
        for _ in range(self.tries):
            hidden = self._draw(position, rng)
            # kept when rng < keep ** d: past this many disagreements it is not
            threshold = rng.random()
            allowed = math.log(threshold) / math.log(self.keep) if threshold > 0 else math.inf
            match, d = self._replay(position, hidden, rng.getrandbits(62),
                                    max(allowed, best_d - 1))
            if match is None:
                continue  # neither kept nor the most agreeable so far
            if d < allowed:
                return World(hidden, match)
            if d < best_d:
                best, best_d = World(hidden, match), d
        if best is None:  # every draw refused by the engine (the course does not fit)
            raise Inconsistent("no world fits this deal's course")
        return best

    def build(self, position: Position, world: World, seed: int) -> Match:
        if world.match is not None:
            return world.match
        return self.engine.from_view(position.view, world.hidden, position.tricks, seed)

    def rollout(self, match: Match, position: Position, action: str,
                rng: random.Random) -> float:
        end = play_out(match, self.name, position.seat, action, rng, self.policy)
        assert end is not None  # played to the deal's end
        return self.value(end, position)

    def value(self, end: dict[str, Any], position: Position) -> float:
        """The deal's result for the seat, from its ``deal_end`` event."""
        raise NotImplementedError

    def prior(self, view: dict[str, Any], legal: list[str], rng: random.Random) -> str:
        return choose_action(self.name, view, legal, rng)


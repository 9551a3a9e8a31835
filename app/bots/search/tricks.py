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

from app.bots import choose_action
from app.bots.search.core import DEAL_END, World
from app.bots.search.deal import Inconsistent, deal
from app.bots.search.history import History, Play
from app.games import Match, Trick, Unseen
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


def play_out(match: Match, game: str, seat: int, action: str,
             rng: random.Random) -> dict[str, Any]:
    """``seat`` takes ``action``, then the house heuristic plays every seat until
    the deal in progress ends; returns its ``deal_end`` event."""
    events = match.simulate(seat, action)
    for _ in range(10_000):
        for event in events:
            if event["type"] == DEAL_END:
                return event
        turn = next(iter(match.to_act()))
        legal = match.legal_actions(turn)
        choice = legal[0] if len(legal) == 1 else choose_action(
            game, match.view(turn), legal, rng)
        events = match.simulate(turn, choice)
    raise RuntimeError("a deal did not end")


class TrickSearch:
    """The search of a plain trick game; a game module sets ``name`` and
    ``engine`` (its match class) and implements :meth:`value`."""

    name = ""
    engine: type[TrickGame]
    keep = 0.4  # a world survives each play the heuristic would not have made
    tries = 8  # draws per world at most (then the most agreeable one)

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
                action = "play:" + card
                if s != position.seat:
                    legal = match.legal_actions(s)
                    if len(legal) > 1 and choose_action(
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
        assert best is not None
        return best

    def build(self, position: Position, world: World, seed: int) -> Match:
        if world.match is not None:
            return world.match
        return self.engine.from_view(position.view, world.hidden, position.tricks, seed)

    def rollout(self, match: Match, position: Position, action: str,
                rng: random.Random) -> float:
        end = play_out(match, self.name, position.seat, action, rng)
        return self.value(end, position)

    def value(self, end: dict[str, Any], position: Position) -> float:
        """The deal's result for the seat, from its ``deal_end`` event."""
        raise NotImplementedError

    def prior(self, view: dict[str, Any], legal: list[str], rng: random.Random) -> str:
        return choose_action(self.name, view, legal, rng)


# ----- what Beutelschneider's search still uses of the lean copies (until it plays on
# the engine too) ---------------------------------------------------------------------
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

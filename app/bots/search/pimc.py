"""The plain determinized search (the textbook PIMC), the yardstick of the strong bot.

:func:`plain` wraps any game's search of :data:`app.bots.search.GAMES` and changes
only what the textbook does differently; everything else is that game's own code,
so both searches count a deal alike and imagine the same worlds:

- the rollouts: every seat takes a uniformly random legal action (where it may stay
  silent, silence as often as any one action) to the end of the deal; Lügenbeutel,
  to the same horizon and static score its search uses
  (:data:`app.bots.search.playout.RANDOM` instead of the house heuristic; the game's
  own rollout, so its measure: units, points, chips, cents); a search that plays a
  deal's last tricks exactly (``solved_tricks``, Schafkopf) plays them at random too;
- the options: every legal action (no ``candidates``: no narrowing of Mauscheln's
  exchanges or Lügenbeutel's lies, no auction plans in the classic Schafkopf, whose
  rollout then plays the rest of the auction at random too);
- the choice: the best mean wins outright (``confidence`` 0; no heuristic prior
  whose choice stands within noise: the "prior" is a random legal action, used only
  to break ties and when no world could be drawn).

Where it is not the textbook: the worlds. By default they are drawn by the game's
search, as the strong bot draws them: consistent with everything the seat has seen
(the engine's ``unseen``: voids, duties, known cards), but weighted by how likely
the house heuristic would have made the other seats' plays and words seen so far
(a world survives each disagreement with a probability below 1; see each game's
``sample``). ``uniform=True`` draws them uniformly among the consistent ones instead
(no opponent model; :meth:`Plain.sample`), the strict textbook.
"""

from __future__ import annotations

import copy
import random
from typing import Any

from app.bots.search.core import Game, World
from app.bots.search.deal import deal
from app.bots.search.history import History
from app.bots.search.playout import RANDOM
from app.games import Match


class Plain:
    """A game's search with random playouts and the best mean winning."""

    confidence = 0.0  # read by app.bots.search.core: no confidence rule
    prune = False  # nor racing: every option is played out on every world

    def __init__(self, game: Game, uniform: bool = False) -> None:
        inner = copy.copy(game)
        inner.policy = RANDOM  # type: ignore[attr-defined]  # every search has one
        if hasattr(inner, "solved_tricks"):  # random to the end, no exact last tricks
            inner.solved_tricks = 0
        self.inner = inner
        self.name = game.name
        self.uniform = uniform

    def prepare(self, view: dict[str, Any], history: History) -> Any:
        return self.inner.prepare(view, history)

    def sample(self, position: Any, rng: random.Random) -> World:
        """The game's own world (heuristic-weighted), or with ``uniform`` a uniform
        deal of what the engine says is unseen, with what it rules out (a world the
        course does not fit fails in ``build`` and is drawn again, as in the
        search)."""
        if not self.uniform:
            return self.inner.sample(position, rng)
        unseen = position.unseen
        hidden = {str(k): v for k, v in
                  deal(unseen.cards, unseen.places, unseen.excluded, rng).items()}
        for place, cards in getattr(unseen, "known", {}).items():
            hidden[place] = [*hidden.get(place, []), *cards]
        return World(hidden)

    def build(self, position: Any, world: World, seed: int) -> Match:
        return self.inner.build(position, world, seed)

    def rollout(self, match: Match, position: Any, action: str,
                rng: random.Random) -> float:
        return self.inner.rollout(match, position, action, rng)

    def prior(self, view: dict[str, Any], legal: list[str], rng: random.Random) -> str:
        return rng.choice(legal)


def plain(game: Game, uniform: bool = False) -> Game:
    """The textbook determinized search on ``game``'s worlds and measure."""
    return Plain(game, uniform)

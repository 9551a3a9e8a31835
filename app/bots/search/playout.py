"""Who decides for the seats during a rollout: the *playout policy*.

Every search module plays its rollouts on the engine and asks a policy, never a
bot directly, what a seat does there: ``decide`` for a seat that must act and
``decide_optional`` for one that may (a challenge window, Kontra off turn; None lets
the moment pass). :data:`HOUSE` is the house heuristic (``app.bots.<game>``), the
strong bot's policy; :data:`RANDOM` takes a uniformly random legal action (and, where
a seat may stay silent, silence as often as any one action, as the random bot does),
the textbook plain determinized search's (:mod:`app.bots.search.pimc`).
"""

from __future__ import annotations

import random
from typing import Protocol

from app.bots import decide_action, decide_optional_action
from app.games import Match
from app.games.actions import Action


class Policy(Protocol):
    def decide(self, game: str, match: Match, seat: int, legal: list[Action],
               rng: random.Random) -> Action:
        """The action of ``legal`` that ``seat`` takes in the rollout's ``match``."""

    def decide_optional(self, game: str, match: Match, seat: int, legal: list[Action],
                        rng: random.Random) -> Action | None:
        """An action of ``legal``, or None to let the moment pass."""


class House:
    """The house heuristic, seeing what the seat sees (``match.view(seat)``)."""

    def decide(self, game: str, match: Match, seat: int, legal: list[Action],
               rng: random.Random) -> Action:
        return decide_action(game, match.view(seat), legal, rng)

    def decide_optional(self, game: str, match: Match, seat: int, legal: list[Action],
                        rng: random.Random) -> Action | None:
        return decide_optional_action(game, match.view(seat), legal, rng)


class Uniform:
    """A uniformly random legal action (it needs no view)."""

    def decide(self, game: str, match: Match, seat: int, legal: list[Action],
               rng: random.Random) -> Action:
        return rng.choice(legal)

    def decide_optional(self, game: str, match: Match, seat: int, legal: list[Action],
                        rng: random.Random) -> Action | None:
        if not legal:
            return None
        pick = rng.randrange(len(legal) + 1)
        return legal[pick] if pick < len(legal) else None


HOUSE: Policy = House()
RANDOM: Policy = Uniform()

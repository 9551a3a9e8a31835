"""Schafkopf search: the team's units of the deal (card points as a tie-break).

A world deals the unseen cards to the three other hands (what the engine says
play has ruled out excluded: a seat that did not follow suit holds none of it) and
is the engine's own match (:class:`~app.games.schafkopf.SchafkopfMatch`), rebuilt at
the deal's start and replayed (see :mod:`app.bots.search.tricks`). Rollouts play it
out with the house heuristic (``app.bots.schafkopf.choose``) choosing for every
seat from that seat's view; the result is read from the deal's ``deal_end``.
"""

from __future__ import annotations

from typing import Any

from app.bots.search.tricks import Position, TrickSearch
from app.games.schafkopf import SchafkopfMatch

# card points count beside units: a whole deal's card points (the sum of both
# teams') are worth POINTS_WEIGHT units
POINTS_WEIGHT = 0.5


class Schafkopf(TrickSearch):
    name = "schafkopf"
    engine = SchafkopfMatch

    def value(self, end: dict[str, Any], position: Position) -> float:
        """The deal's result for the seat's team: units won minus units lost, plus
        the card point margin at ``POINTS_WEIGHT`` units per deal's points."""
        mine = int(position.view["team"])
        units, points = end["units"], end["points"]
        margin = sum(p if t == mine else -p for t, p in enumerate(points)) / sum(points)
        won = sum(u if t == mine else -u for t, u in enumerate(units))
        return won + POINTS_WEIGHT * margin


SEARCH = Schafkopf()  # this game's search, found by name (app.bots.search)

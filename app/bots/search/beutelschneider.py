"""Beutelschneider search: the seat's hand total against the others' average.

A world deals the unseen cards to the other hands and, with three players, to the
two cards set aside (any unseen card may be one of them: the Beutelschneider, the
Sovereign...), with what the engine says play has ruled out (a seat that did not
follow suit holds none of it). It is the engine's own match
(:class:`~app.games.beutelschneider.BeutelschneiderMatch`), rebuilt at the hand's
start and replayed (see :mod:`app.bots.search.tricks`); rollouts play it out with
the house heuristic (``app.bots.beutelschneider.choose``) for every seat, and the
hand totals come from the engine's ``deal_end``: powers, the -20 and the bonuses
are counted there, nowhere else.
"""

from __future__ import annotations

from typing import Any

from app.bots.search.tricks import Position, TrickSearch
from app.games.beutelschneider import BeutelschneiderMatch


class Beutelschneider(TrickSearch):
    name = "beutelschneider"
    engine = BeutelschneiderMatch

    def value(self, end: dict[str, Any], position: Position) -> float:
        """What the seat gains from now to the hand's end, against the others'
        average gain (the hand totals so far are on the view's score sheets)."""
        seat = position.seat
        before = [int(sheet["hand_total"]) for sheet in position.view["sheets"]]
        gain = [after - b for after, b in zip(end["hand_totals"], before, strict=True)]
        others = [g for s, g in enumerate(gain) if s != seat]
        return gain[seat] - sum(others) / len(others)


SEARCH = Beutelschneider()  # this game's search, found by name (app.bots.search)

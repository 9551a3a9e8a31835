"""Schafkopf search: the team's units of the deal (card points as a tie-break).

A world deals the unseen cards to the three other hands (what the engine says
play has ruled out excluded: a seat that did not follow suit holds none of it) and
is the engine's own match (:class:`~app.games.schafkopf.SchafkopfMatch`), rebuilt at
the deal's start and replayed (see :mod:`app.bots.search.tricks`). Rollouts play it
out with the house heuristic (``app.bots.schafkopf.choose``) choosing for every
seat from that seat's view until ``SOLVED_TRICKS`` tricks are left; those are
played exactly (:class:`Endgame`: every seat knowing the world's hands, each team
playing its best, as double-dummy solvers do in bridge), and the result is what
that exact play gives. The textbook search (``app.bots.search.pimc``) plays to
the end at random instead (``solved_tricks = 0``).
"""

from __future__ import annotations

import random
from typing import Any

from app.bots.search.tricks import Position, TrickSearch, play_out
from app.games import Match
from app.games.schafkopf import (
    POINTS_OF,
    STRENGTH,
    SchafkopfMatch,
    deal_units,
    team_of,
    trick_winner,
)

# card points count beside units: a whole deal's card points (the sum of both
# teams') are worth POINTS_WEIGHT units
POINTS_WEIGHT = 0.5
# the last tricks of a deal that rollouts play exactly (the open one counts)
SOLVED_TRICKS = 3
ALL_POINTS = sum(POINTS_OF.values())  # a deal's card points


class Endgame:
    """The exact result of the rest of a deal in one world: every seat sees every
    hand, ``team`` plays for the most card points and the other team for the
    fewest (minimax with alpha-beta; a deal's value rises with the team's points,
    so the points the best play gives are the best value's). The rules are the
    engine's: which cards may be played (``allowed``), who plays next and who wins
    a trick."""

    def __init__(self, match: SchafkopfMatch, team: int) -> None:
        self.match = match
        self.team = team
        self.hands = [list(h) for h in match.hands]
        self.trump = match.trump
        self.size = match.trick_size()

    def points(self) -> list[int]:
        """Both teams' card points of the deal after the best play of the rest."""
        m = self.match
        assert m.turn is not None
        trick = [(int(s), str(c)) for s, c in m.trick]
        taken = list(m.taken)
        mine = self._best(int(m.turn), trick, taken[self.team], -1, ALL_POINTS + 1)
        return [mine, ALL_POINTS - mine] if self.team == 0 else [ALL_POINTS - mine, mine]

    def _ordered(self, options: list[str], cards: list[str]) -> list[str]:
        """The options likeliest best first (the cut comes sooner): leading, the
        fattest; following, the cards that would take the trick cheapest first,
        then the rest fattest first."""
        if not cards:
            return sorted(options, key=POINTS_OF.__getitem__, reverse=True)
        strength = STRENGTH[self.trump][cards[0][0]]
        top = max(strength[c] for c in cards)

        def rank(card: str) -> tuple[bool, int]:
            takes = strength[card] > top
            return not takes, POINTS_OF[card] if takes else -POINTS_OF[card]
        return sorted(options, key=rank)

    def _order(self, leader: int) -> list[int]:
        """The seats of a trick led by ``leader``, in play order."""
        seats = [leader]
        while len(seats) < self.size:
            seats.append(self.match.next_in_trick(seats[-1]))
        return seats

    def _scored(self, trick: list[tuple[int, str]], mine: int) -> tuple[int, int]:
        """Who wins the complete ``trick``, and the team's card points after it."""
        winner = trick[trick_winner([c for _, c in trick], self.trump)][0]
        if team_of(winner) == self.team:
            mine += sum(POINTS_OF[c] for _, c in trick)
        return winner, mine

    def _best(self, seat: int, trick: list[tuple[int, str]], mine: int,
              alpha: int, beta: int) -> int:
        """The team's card points at the deal's end, ``seat`` to play to ``trick``,
        the team holding ``mine`` so far (alpha-beta: exact within the window)."""
        hand = self.hands[seat]
        if len(hand) <= 1 and not trick:  # the last trick: every card is forced
            if not hand:
                return mine
            return self._scored([(s, self.hands[s][0]) for s in self._order(seat)], mine)[1]
        cards = [c for _, c in trick]
        options = self.match.allowed(hand, cards)
        if len(options) > 1:
            options = self._ordered(options, cards)
        ours = team_of(seat) == self.team
        best = -1 if ours else ALL_POINTS + 1
        for card in options:
            hand.remove(card)
            trick.append((seat, card))
            if len(trick) < self.size:
                got = self._best(self.match.next_in_trick(seat), trick, mine, alpha, beta)
            else:
                winner, won = self._scored(trick, mine)
                got = self._best(winner, [], won, alpha, beta)
            trick.pop()
            hand.append(card)
            if ours:
                best = max(best, got)
                alpha = max(alpha, got)
            else:
                best = min(best, got)
                beta = min(beta, got)
            if alpha >= beta:
                break
        return best


class Schafkopf(TrickSearch):
    name = "schafkopf"
    engine = SchafkopfMatch
    solved_tricks = SOLVED_TRICKS

    def value(self, end: dict[str, Any], position: Position) -> float:
        """The deal's result for the seat's team: units won minus units lost, plus
        the card point margin at ``POINTS_WEIGHT`` units per deal's points."""
        mine = int(position.view["team"])
        units, points = end["units"], end["points"]
        margin = sum(p if t == mine else -p for t, p in enumerate(points)) / sum(points)
        won = sum(u if t == mine else -u for t, u in enumerate(units))
        return won + POINTS_WEIGHT * margin

    def rollout(self, match: Match, position: Position, action: str,
                rng: random.Random) -> float:
        solved = self.solved_tricks
        if solved <= 0:
            return super().rollout(match, position, action, rng)
        assert isinstance(match, SchafkopfMatch)
        last = match.tricks_per_deal() - solved

        def solvable(m: Match) -> bool:
            return len(m.tricks) >= last  # type: ignore[attr-defined]

        end = play_out(match, self.name, position.seat, action, rng, self.policy,
                       until=solvable)
        if end is not None:
            return self.value(end, position)
        points = Endgame(match, int(position.view["team"])).points()
        return self.value({"units": deal_units(points), "points": points}, position)


SEARCH = Schafkopf()  # this game's search, found by name (app.bots.search)

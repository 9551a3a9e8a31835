"""The strong Schafkopf search plays a deal's last tricks exactly (issue 28): in
every world its rollouts stop when ``SOLVED_TRICKS`` tricks are left, and
:class:`~app.bots.search.schafkopf.Endgame` finds what both teams' best play of the
rest gives, with the engine's rules. The textbook search (``pimc``) still plays to
the end at random."""

from __future__ import annotations

import random
from typing import Any

import pytest

from app.bots.search import GAMES as SEARCH_GAMES
from app.bots.search import History
from app.bots.search.pimc import plain
from app.bots.search.schafkopf import SEARCH, SOLVED_TRICKS, Endgame
from app.bots.search.tricks import Position
from app.games import Match
from app.games.schafkopf import POINTS_OF, SchafkopfMatch, deal_units, team_of, trick_winner


def _minimax(match: Match, team: int) -> int:
    """``team``'s card points at the deal's end after both teams' best play, by
    trying every legal action on copies of the engine's own match."""
    seat = next(iter(match.to_act()))
    got = []
    for action in match.legal(seat):
        twin = match.copy()
        end = next((e for e in twin.simulate(seat, action) if e["type"] == "deal_end"), None)
        got.append(end["points"][team] if end is not None else _minimax(twin, team))
    return max(got) if team_of(seat) == team else min(got)


def _late(seed: int, plays: int) -> SchafkopfMatch:
    """A match ``plays`` cards into its first deal, played at random."""
    m = SchafkopfMatch(4, {}, seed=seed)
    rng = random.Random(seed)
    for _ in range(plays):
        seat = next(iter(m.to_act()))
        m.simulate(seat, rng.choice(m.legal(seat)))
    return m


@pytest.mark.parametrize("plays", [20, 21, 23, 26, 28, 30, 31])
@pytest.mark.parametrize("seed", range(6))
def test_the_endgame_finds_what_best_play_by_the_engine_gives(seed: int, plays: int) -> None:
    m = _late(seed, plays)
    for team in (0, 1):
        before = m.snapshot()
        points = Endgame(m, team).points()
        assert m.snapshot() == before  # the world is only read
        assert sum(points) == 120
        assert points[team] == _minimax(m, team)


def test_the_last_trick_is_scored_by_the_engines_rule() -> None:
    m = _late(3, 28)
    assert all(len(h) == 1 for h in m.hands) and not m.trick
    assert m.turn is not None
    order = [(m.turn + i) % 4 for i in range(4)]
    cards = [m.hands[s][0] for s in order]
    winner = order[trick_winner(cards, m.trump)]
    points = Endgame(m, 0).points()
    gained = sum(POINTS_OF[c] for c in cards)
    assert points[team_of(winner)] == m.taken[team_of(winner)] + gained


def _position(m: SchafkopfMatch) -> tuple[Position, str]:
    seat = m.turn
    assert seat is not None
    view = m.view(seat)
    position = SEARCH.prepare(view, _history_of(m, view))
    return position, m.legal(seat)[0].wire


def _history_of(m: SchafkopfMatch, view: dict[str, Any]) -> History:
    history = History()
    history.observe(dict(view, tricks=[{"plays": t["plays"]} for t in m.tricks]))
    return history


@pytest.mark.parametrize("seed", range(4))
def test_a_late_rollout_is_the_exact_value_of_the_world(seed: int) -> None:
    m = _late(seed, 4 * (8 - SOLVED_TRICKS) + 1)
    position, action = _position(m)
    seat, team = position.seat, int(position.view["team"])
    got = SEARCH.rollout(m.copy(), position, action, random.Random(1))
    after = m.copy()
    after.simulate(seat, action)
    points = [0, 0]
    points[team] = _minimax(after, team)
    points[1 - team] = 120 - points[team]
    assert got == SEARCH.value({"units": deal_units(points), "points": points}, position)


def test_the_textbook_search_plays_to_the_end_at_random() -> None:
    textbook = plain(SEARCH_GAMES["schafkopf"])
    assert textbook.inner.solved_tricks == 0  # type: ignore[attr-defined]
    assert SEARCH_GAMES["schafkopf"].solved_tricks == SOLVED_TRICKS  # type: ignore[attr-defined]
    spread = 0
    for seed in range(6):
        m = _late(seed, 4 * (8 - SOLVED_TRICKS) + 1)
        position, action = _position(m)
        values = {textbook.rollout(m.copy(), position, action, random.Random(r))
                  for r in range(12)}
        spread += len(values) > 1
    assert spread > 0  # random play of the rest, not one exact value per world

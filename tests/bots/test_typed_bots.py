"""The house bots decide on typed actions (``decide(view, legal, rng)`` with the
engine's ``Match.legal``; a search's playouts ask it) and answer the room's strings
with the same choice (``choose``)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from app.bots import (
    DECISIONS,
    OPTIONAL,
    OPTIONAL_DECISIONS,
    POLICIES,
    decide_action,
    decide_optional_action,
)
from app.games import GAMES, new_match
from app.games.actions import Action

TABLES: list[tuple[str, int, dict[str, Any]]] = [
    ("schafkopf", 4, {}),
    ("beutelschneider", 3, {}),
    ("beutelschneider", 4, {}),
    ("luegenbeutel", 3, {"target": 60}),
    ("luegenbeutel", 5, {"target": 60, "reveal_all": True, "lb_card": True}),
    ("mauscheln", 3, {"chips": 12}),
    ("mauscheln", 5, {"chips": 12, "knock": True, "quartets": True, "belli": True}),
    ("mauscheln", 4, {"chips": 12, "knock": True, "weli": True}),
]


@pytest.mark.parametrize(
    ("game", "players", "options"),
    TABLES,
    ids=[f"{g}-{n}-{'-'.join(o) or 'plain'}" for g, n, o in TABLES],
)
def test_a_bot_decides_on_typed_actions_what_it_answers_the_room(
    game: str, players: int, options: dict[str, Any]
) -> None:
    decide, choose = DECISIONS[game], POLICIES[game]
    asked = 0  # optional answers compared
    for seed in range(3):
        m = new_match(game, players, dict(options, dealer=seed % players), seed=seed)
        rng = random.Random(seed)
        for step in range(300):
            if m.is_over:
                break
            seat = rng.choice(sorted(m.to_act()))
            view, legal, typed = m.view(seat), m.legal_actions(seat), m.legal(seat)
            decided = decide(view, typed, random.Random(step))
            assert isinstance(decided, Action) and decided in typed
            assert choose(view, legal, random.Random(step)) == decided.wire
            assert decide_action(game, view, typed, random.Random(step)) == decided
            for other in m.to_act() - {seat} if game in OPTIONAL else ():
                # a seat that may call the liar but need not
                theirs, strings, actions = m.view(other), m.legal_actions(other), m.legal(other)
                maybe = decide_optional_action(game, theirs, actions, random.Random(step))
                said = OPTIONAL[game](theirs, strings, random.Random(step))
                assert said == (None if maybe is None else maybe.wire)
                assert maybe is None or maybe in actions
                asked += 1
            m.apply(seat, decided.wire if rng.random() < 0.7 else rng.choice(legal))
    assert asked > 0 or game not in OPTIONAL


def test_every_house_bot_decides_on_typed_actions() -> None:
    assert set(DECISIONS) == set(POLICIES) == set(GAMES)
    assert set(OPTIONAL_DECISIONS) == set(OPTIONAL)


def test_a_game_without_a_bot_decides_at_random_among_the_typed_actions() -> None:
    m = new_match("mauscheln", 3, {"dealer": 0}, seed=1)
    seat = next(iter(m.to_act()))
    typed = m.legal(seat)
    assert "nobody" not in GAMES
    assert decide_action("nobody", m.view(seat), typed, random.Random(2)) in typed

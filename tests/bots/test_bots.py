"""Bots answer with a legal action from what their seat may see, and play well."""

from __future__ import annotations

import random

import pytest

from app.bots import choose_action
from app.games import GAMES, new_match


@pytest.mark.parametrize("game", sorted(GAMES))
def test_bot_picks_only_legal_actions_from_its_own_view(game: str) -> None:
    info = GAMES[game]
    rng = random.Random(1)
    m = new_match(game, info.min_players, {"dealer": 0}, seed=3)
    for _ in range(400):
        if m.is_over:
            break
        seat = rng.choice(sorted(m.to_act()))
        legal = m.legal_actions(seat)
        action = choose_action(game, m.view(seat), legal, rng)
        assert action in legal
        m.apply(seat, action)


def test_schafkopf_bot_team_beats_random_partners_clearly() -> None:
    wins = 0
    matches = 30
    for seed in range(matches):
        m = new_match("schafkopf", 4, {"dealer": seed % 4, "target": 5}, seed=seed)
        rng = random.Random(seed)
        while not m.is_over:
            seat = next(iter(m.to_act()))
            legal = m.legal_actions(seat)
            action = (choose_action("schafkopf", m.view(seat), legal, rng)
                      if seat in (0, 2) else rng.choice(legal))
            m.apply(seat, action)
        wins += m.winners == [0, 2]
    assert wins >= 0.8 * matches


def test_bot_refuses_to_act_without_legal_actions() -> None:
    with pytest.raises(ValueError):
        choose_action("schafkopf", {}, [], random.Random(0))

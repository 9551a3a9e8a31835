"""The plain determinized search (kind ``pimc``, issue 28: the yardstick the strong
bot is measured against in bench/arena.py): it plays legal actions to the end of a
deal in every game, is deterministic for its seed, plays its rollouts at random
(not as the house heuristic does), weighs every legal action and lets the best mean
win, and is never offered at a table."""

from __future__ import annotations

import random
from typing import Any

import pytest

from app.bots import LEVELS, make_bot
from app.bots.api import PimcBot
from app.bots.search import GAMES as SEARCH_GAMES
from app.bots.search import History
from app.bots.search.core import search
from app.bots.search.pimc import plain
from app.bots.search.playout import HOUSE, RANDOM
from app.games import Match, new_match

OPTIONS: dict[str, dict[str, Any]] = {"mauscheln": {"chips": 20}}
DEAL_END = ("deal_end", "round_end")


def _play_deal(game: str, seed: int, uniform: bool = False,
               samples: int = 2) -> tuple[list[str], Match]:
    """One deal (a Lügenbeutel round) with a pimc bot at every seat, bounded by
    samples (no clock); every answer is checked legal. Returns the actions taken."""
    m = new_match(game, 4, dict(OPTIONS.get(game, {}), dealer=seed % 4), seed=seed)
    bots = [make_bot("pimc", game, seed=seed * 16 + s, budget_ms=None,
                     max_samples=samples, strict=True, uniform=uniform) for s in range(4)]
    taken: list[str] = []
    for _ in range(2000):
        seats = sorted(m.to_act())
        seat = seats[0]
        legal = m.legal_actions(seat)
        if len(seats) > 1:  # a window: ask the seats that may act first
            for other in seats:
                answer = bots[other].choose_optional(m.view(other), m.legal_actions(other))
                assert answer is None or answer in m.legal_actions(other)
                if answer is not None:
                    seat, legal = other, [answer]
                    break
        action = legal[0] if len(legal) == 1 and len(seats) > 1 else \
            bots[seat].choose(m.view(seat), legal)
        assert action in legal, (game, action, legal)
        taken.append(f"{seat}:{action}")
        events = m.apply(seat, action)
        if any(e.get("type") in DEAL_END for e in events):
            return taken, m
    raise AssertionError(f"{game}: the deal did not end")


@pytest.mark.parametrize("game", sorted(SEARCH_GAMES))
def test_pimc_plays_legal_actions_to_the_end_of_a_deal(game: str) -> None:
    taken, _ = _play_deal(game, seed=3)
    assert taken
    uniform, _ = _play_deal(game, seed=4, uniform=True)
    assert uniform


@pytest.mark.parametrize("game", sorted(SEARCH_GAMES))
def test_pimc_is_deterministic_for_its_seed(game: str) -> None:
    first, _ = _play_deal(game, seed=7)
    again, _ = _play_deal(game, seed=7)
    assert first == again


def _opening(game: str, seed: int) -> tuple[dict[str, Any], list[str], Any]:
    """The first decision of a deal with two or more options: view, legal, position."""
    m = new_match(game, 4, dict(OPTIONS.get(game, {}), dealer=0), seed=seed)
    rng = random.Random(seed)
    for _ in range(50):
        seat = min(m.to_act())
        legal = m.legal_actions(seat)
        if len(legal) > 1 and len(m.to_act()) == 1:
            view = m.view(seat)
            history = History()
            history.observe(view)
            return view, legal, SEARCH_GAMES[game].prepare(view, history)
        m.apply(seat, rng.choice(legal))
    raise AssertionError("no decision found")


@pytest.mark.parametrize("game", sorted(SEARCH_GAMES))
def test_pimc_rollouts_are_random_not_the_heuristic(game: str) -> None:
    strong = SEARCH_GAMES[game]
    textbook = plain(strong)
    assert textbook.inner.policy is RANDOM  # type: ignore[attr-defined]
    assert strong.policy is HOUSE  # type: ignore[attr-defined]  # the strong bot's own
    differ = 0
    for seed in range(6):
        view, legal, position = _opening(game, seed)
        world = strong.sample(position, random.Random(seed))
        for action in legal[:3]:
            house = strong.rollout(strong.build(position, world, seed).copy(), position,
                                   action, random.Random(seed))
            rand = textbook.rollout(textbook.build(position, world, seed).copy(), position,
                                    action, random.Random(seed))
            differ += house != rand
    assert differ > 0  # the same world and action, another playout


def test_the_random_policy_takes_every_legal_action_and_may_stay_silent() -> None:
    legal = ["a", "b", "c"]
    rng = random.Random(1)
    m: Any = None
    seen = {RANDOM.decide("x", m, 0, legal, rng) for _ in range(200)}  # type: ignore[arg-type]
    assert seen == set(legal)
    optional = {RANDOM.decide_optional("x", m, 0, legal, rng)  # type: ignore[arg-type]
                for _ in range(200)}
    assert optional == {*legal, None}


@pytest.mark.parametrize("game", ["schafkopf", "mauscheln", "luegenbeutel"])
def test_pimc_weighs_every_legal_action_and_the_best_mean_wins(game: str) -> None:
    view, legal, _ = _opening(game, 2)
    history = History()
    history.observe(view)
    report = search(plain(SEARCH_GAMES[game]), view, legal, history, random.Random(5),
                    None, 12)
    assert set(report.means) == set(legal)  # no candidates: every legal action
    best = max(report.means.values())
    assert report.means[report.action] == best  # no confidence rule


def test_pimc_is_a_kind_for_benchmarks_never_a_level_at_a_table() -> None:
    bot = make_bot("pimc", "schafkopf", seed=1)
    assert isinstance(bot, PimcBot) and bot.kind == "pimc"
    assert "pimc" not in LEVELS.values()

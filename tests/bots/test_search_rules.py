"""The search plays its rollouts on lean copies of the rules (``Deal``/``Round`` in
``app.bots.search.<game>``). These tests hold each copy to the real engine: from a
reachable state, the same actions give the same legal actions, the same turns and
the same results; and the fast Beutelschneider rollout policy chooses exactly what
the house heuristic chooses."""

from __future__ import annotations

import random
from typing import Any

import pytest

from app.bots import choose_action
from app.bots.search import History, World
from app.bots.search import beutelschneider as s_beutel
from app.bots.search import luegenbeutel as s_lb
from app.bots.search import mauscheln as s_maus
from app.bots.search import schafkopf as s_schaf
from app.games import Match, new_match


def _advance(m: Match, game: str, rng: random.Random, steps: int,
             histories: list[History]) -> None:
    for _ in range(steps):
        if m.is_over:
            return
        seat = rng.choice(sorted(m.to_act()))
        for s in m.to_act():
            histories[s].observe(m.view(s))
        legal = m.legal_actions(seat)
        m.apply(seat, choose_action(game, m.view(seat), legal, rng)
                if rng.random() < 0.7 else rng.choice(legal))


def _true_world(m: Match, seat: int) -> World:
    """The real hidden cards (read from the snapshot: tests may look)."""
    state = m.snapshot()["state"]
    hidden: dict[str, list[str]] = {f"hand:{s}": list(h) for s, h in enumerate(state["hands"])
                                    if s != seat}
    for key in ("stock", "discard", "laid", "removed"):
        if key in state and isinstance(state[key], list):
            hidden[key] = list(state[key])
    if state.get("open_turn"):
        hidden["open"] = list(state["open_turn"]["cards"])
    return World(hidden)


@pytest.mark.parametrize("seed", range(12))
def test_schafkopf_copy_plays_like_the_engine(seed: int) -> None:
    rng = random.Random(seed)
    m = new_match("schafkopf", 4, {"dealer": seed % 4}, seed=seed)
    histories = [History() for _ in range(4)]
    _advance(m, "schafkopf", rng, rng.randrange(0, 30), histories)
    seat = min(m.to_act())
    view = m.view(seat)
    histories[seat].observe(view)
    d = s_schaf.deal_from_view(view, histories[seat], _true_world(m, seat))
    units_before = list(m.scores)
    while True:
        turn = min(m.to_act())
        assert d.turn == turn
        assert d.legal() == m.legal_actions(turn)
        action = choose_action("schafkopf", m.view(turn), m.legal_actions(turn), rng)
        d.play(action[5:])
        events = m.apply(turn, action)
        end = [e for e in events if e["type"] == "deal_end"]
        if end:
            assert d.over and d.taken == end[0]["points"]
            gained = [m.scores[0] - units_before[0], m.scores[1] - units_before[1]]
            assert d.units() == gained
            return


@pytest.mark.parametrize("seed", range(16))
def test_beutelschneider_copy_and_fast_heuristic_match_the_engine_and_the_bot(
        seed: int) -> None:
    players = 3 + seed % 2
    rng = random.Random(seed)
    m = new_match("beutelschneider", players, {"dealer": seed % players}, seed=seed)
    histories = [History() for _ in range(players)]
    _advance(m, "beutelschneider", rng, rng.randrange(0, 3 * players), histories)
    seat = min(m.to_act())
    view = m.view(seat)
    histories[seat].observe(view)
    d = s_beutel.deal_from_view(view, histories[seat], _true_world(m, seat))
    decisions = 0
    while True:
        turn = min(m.to_act())
        legal = m.legal_actions(turn)
        assert ["play:" + c for c in d.legal_cards()] == legal
        action = choose_action("beutelschneider", m.view(turn), legal, rng)
        assert "play:" + s_beutel.choose(d) == action
        decisions += 1
        d.play(action[5:])
        events = m.apply(turn, action)
        end = [e for e in events if e["type"] == "deal_end"]
        if end:
            assert d.over and d.totals == end[0]["hand_totals"]
            assert decisions >= 1
            return


def _maus_options(seed: int, players: int) -> dict[str, Any]:
    options: dict[str, Any] = {"chips": 25, "dealer": seed % players}
    if seed % 3 == 1:
        options.update(knock=True, quartets=True, belli=True)
    elif seed % 3 == 2 and players <= 5:
        options.update(knock=True, weli=True)
    return options


@pytest.mark.parametrize("seed", range(30))
def test_mauscheln_copy_plays_like_the_engine(seed: int) -> None:
    players = 3 + seed % 5
    rng = random.Random(seed)
    m = new_match("mauscheln", players, _maus_options(seed, players), seed=seed)
    histories = [History() for _ in range(players)]
    _advance(m, "mauscheln", rng, rng.randrange(0, 40), histories)
    if m.is_over:
        return
    seat = min(m.to_act())
    view = m.view(seat)
    histories[seat].observe(view)
    world = _true_world(m, seat)
    if view.get("hand_hidden"):
        world.hidden[f"hand:{seat}"] = list(m.snapshot()["state"]["hands"][seat])
    d = s_maus.build(view, world)
    for _ in range(100):
        turn = min(m.to_act())
        assert d.turn == turn
        legal = m.legal_actions(turn)
        assert d.legal(turn) == legal
        action = choose_action("mauscheln", m.view(turn), legal, rng) \
            if rng.random() < 0.7 else rng.choice(legal)
        d.apply(turn, action)
        events = m.apply(turn, action)
        end = [e for e in events if e["type"] == "deal_end"]
        if end:
            assert d.over
            chips = end[0].get("chips", end[0].get("scores"))
            assert d.chips == chips
            return
    raise AssertionError("the deal did not end")


@pytest.mark.parametrize("seed", range(30))
def test_luegenbeutel_copy_plays_like_the_engine(seed: int) -> None:
    players = 2 + seed % 7
    options: dict[str, Any] = {"target": 10_000, "dealer": seed % players}
    if seed % 4 == 1:
        options["lb_card"] = True
    if seed % 4 == 2:
        options["reveal_all"] = True
    rng = random.Random(seed)
    m = new_match("luegenbeutel", players, options, seed=seed)
    histories = [History() for _ in range(players)]
    _advance(m, "luegenbeutel", rng, rng.randrange(0, 120), histories)
    snap = m.snapshot()
    seat = min(m.to_act())
    view = m.view(seat)
    r = s_lb.build(view, _true_world(m, seat), 0)
    version, internal, gauss = snap["rng"]
    r.rng.setstate((version, tuple(internal), gauss))  # the same dice and shuffles
    for _ in range(600):
        seats = sorted(m.to_act())
        for s in seats:
            assert r.legal(s) == m.legal_actions(s)
        turn = rng.choice(seats)
        mine, theirs = r.view(turn), m.view(turn)
        for key in ("hand", "hand_counts", "stock_count", "discard_count", "number", "turn",
                    "laid", "passed", "phase", "stack", "drawn"):
            assert mine[key] == theirs[key], key
        legal = m.legal_actions(turn)
        action = choose_action("luegenbeutel", theirs, legal, rng) \
            if rng.random() < 0.8 else rng.choice(legal)
        events = m.apply(turn, action)
        r.apply(turn, action)
        end = [e for e in events if e["type"] in ("round_end", "deal_end")]
        if end:
            assert r.phase == "over" and r.winner == end[0]["winner"]
            assert r.gained == end[0]["points"]
            return


@pytest.mark.parametrize("seed", range(30))
def test_mauscheln_fast_heuristic_answers_as_the_house_bot(seed: int) -> None:
    players = 3 + seed % 5
    rng = random.Random(seed)
    m = new_match("mauscheln", players, _maus_options(seed, players), seed=seed)
    compared = 0
    for _ in range(150):
        if m.is_over:
            break
        seat = min(m.to_act())
        view, legal = m.view(seat), m.legal_actions(seat)
        house = choose_action("mauscheln", view, legal, random.Random(seed))
        assert s_maus.fast_choose(view, legal, random.Random(seed)) == house
        compared += 1
        m.apply(seat, house if rng.random() < 0.7 else rng.choice(legal))
    assert compared >= 10

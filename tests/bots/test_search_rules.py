"""The search plays out worlds on the engines themselves (every game):
``Match.unseen`` says what a seat's view hides, ``Match.from_view`` builds the world
as a match. These tests hold the world built from the true hidden cards to the real
match: every seat sees the same, may do the same, and the same actions give the
same events."""

from __future__ import annotations

import random
from typing import Any

import pytest

from app.bots import choose_action
from app.bots import mauscheln as heuristic
from app.bots.search import History, World
from app.games import Match, Unseen, new_match


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
    hidden: dict[str, list[str]] = {f"hand:{s}": list(h) for s, h in enumerate(state["hands"])}
    for s, discards in enumerate(state.get("discards") or []):
        hidden[f"discards:{s}"] = list(discards)
    for key in ("stock", "discard", "laid", "removed"):
        if key in state and isinstance(state[key], list):
            hidden[key] = list(state[key])
    if state.get("open_turn"):
        hidden["open"] = list(state["open_turn"]["cards"])
    return World(hidden)


def _world_is_the_match(game: str, m: Match, seat: int, history: History,
                        rng: random.Random, steps: int = 200) -> None:
    """The world the search builds from the true hidden cards (``Match.from_view``)
    is the real match: every seat sees the same, may do the same, and the same
    actions give the same events to the end of the deal (a Lügenbeutel round: for
    ``steps`` actions, if it lasts longer)."""
    view = m.view(seat)
    history.observe(view)
    tricks = history.deal_tricks(view) if view["phase"] == "play" else None
    engine = type(m)
    unseen = engine.unseen(view, tricks)
    world = _true_world(m, seat)
    hidden = {place: world.hidden[place] for place in unseen.places}
    for place, cards in unseen.known.items():
        assert set(cards) <= set(hidden[place])
    for place, cards in unseen.excluded.items():
        assert not set(hidden[place]) & cards, place
    assert sorted(c for p in unseen.places for c in hidden[p]) == sorted(
        [*unseen.cards, *(c for cards in unseen.known.values() for c in cards)])
    twin = engine.from_view(view, hidden, tricks, seed=1)
    twin.rng.setstate(m.rng.getstate())  # the same dice and shuffles from here
    for _ in range(steps):
        for s in range(m.players):
            mine, theirs = twin.view(s), m.view(s)
            for record in ("results", "last_deal"):
                mine.pop(record, None)
                theirs.pop(record, None)
            assert mine == theirs
            assert twin.legal_actions(s) == m.legal_actions(s)
        turn = rng.choice(sorted(m.to_act()))
        legal = m.legal_actions(turn)
        action = choose_action(game, m.view(turn), legal, rng) \
            if rng.random() < 0.7 else rng.choice(legal)
        events = m.apply(turn, action)
        twin_events = twin.apply(turn, action)
        ends = [i for i, e in enumerate(events) if e["type"] == "deal_end"]
        if ends:  # the next deal is the generator's
            assert twin_events[:ends[0] + 1] == events[:ends[0] + 1]
            return
        assert twin_events == events
    assert game == "luegenbeutel", "the deal did not end"


@pytest.mark.parametrize("seed", range(12))
def test_a_schafkopf_world_of_the_true_cards_is_the_match(seed: int) -> None:
    rng = random.Random(seed)
    m = new_match("schafkopf", 4, {"dealer": seed % 4}, seed=seed)
    histories = [History() for _ in range(4)]
    _advance(m, "schafkopf", rng, rng.randrange(0, 70), histories)
    if not m.is_over:
        _world_is_the_match("schafkopf", m, min(m.to_act()), histories[min(m.to_act())], rng)


@pytest.mark.parametrize("seed", range(16))
def test_a_beutelschneider_world_of_the_true_cards_is_the_match(seed: int) -> None:
    players = 3 + seed % 2
    rng = random.Random(seed)
    m = new_match("beutelschneider", players, {"dealer": seed % players}, seed=seed)
    histories = [History() for _ in range(players)]
    _advance(m, "beutelschneider", rng, rng.randrange(0, 12 * players), histories)
    if not m.is_over:
        seat = min(m.to_act())
        _world_is_the_match("beutelschneider", m, seat, histories[seat], rng)


def _maus_options(seed: int, players: int) -> dict[str, Any]:
    options: dict[str, Any] = {"chips": 25, "dealer": seed % players}
    if seed % 3 == 1:
        options.update(knock=True, quartets=True, belli=True)
    elif seed % 3 == 2 and players <= 5:
        options.update(knock=True, weli=True)
    return options


@pytest.mark.parametrize("seed", range(40))
def test_a_mauscheln_world_of_the_true_cards_is_the_match(seed: int) -> None:
    players = 3 + seed % 5
    rng = random.Random(seed)
    m = new_match("mauscheln", players, _maus_options(seed, players), seed=seed)
    histories = [History() for _ in range(players)]
    _advance(m, "mauscheln", rng, rng.randrange(0, 60), histories)
    if not m.is_over:
        seat = min(m.to_act())
        _world_is_the_match("mauscheln", m, seat, histories[seat], rng)


def _lb_options(seed: int, players: int) -> dict[str, Any]:
    options: dict[str, Any] = {"target": 10_000, "dealer": seed % players}
    if seed % 4 == 1:
        options["lb_card"] = True
    if seed % 4 in (2, 3):
        options["reveal_all"] = True
    return options


@pytest.mark.parametrize("seed", range(56))
def test_a_luegenbeutel_world_of_the_true_cards_is_the_match(seed: int) -> None:
    players = 2 + seed % 7
    rng = random.Random(seed)
    m = new_match("luegenbeutel", players, _lb_options(seed, players), seed=seed)
    histories = [History() for _ in range(players)]
    _advance(m, "luegenbeutel", rng, rng.randrange(0, 40 * players), histories)
    if not m.is_over:
        seat = min(m.to_act())
        _world_is_the_match("luegenbeutel", m, seat, histories[seat], rng, steps=400)


def _lb_kinds(view: dict[str, Any], unseen: Unseen) -> set[str]:
    """The kinds of position ``view`` is (what a world must rebuild)."""
    kinds = set()
    if view["challenge"]["open"]:
        kinds.add("own window" if view["challenge"]["accused"] == view["seat"] else "window")
    if view["phase"] == "challenge":
        kinds.add("round end")
    if "laid" in unseen.places:
        kinds.add("laid")
    for place, cards in unseen.known.items():
        kinds.add("caught all" if view["last_challenge"]["position"] == "all" else "caught")
        assert place == f"hand:{view['last_challenge']['accused']}"
        assert sorted(cards) == sorted(view["last_challenge"]["revealed"])
    return kinds


def test_luegenbeutel_worlds_cover_windows_round_ends_and_caught_cards() -> None:
    """Every kind of Lügenbeutel position is rebuilt from its true cards, for every
    seat that may act: an open window (another seat's turn, and the seat's own), a
    round's end, a turn in progress with face-down cards, and a caught card known to
    be in the liar's hand (one of several, and a whole turn with ``reveal_all``)."""
    wanted = {"window", "own window", "round end", "laid", "caught", "caught all"}
    seen: set[str] = set()
    for seed in range(40):
        players = 2 + seed % 7
        rng = random.Random(1000 + seed)
        m = new_match("luegenbeutel", players, _lb_options(seed, players), seed=seed)
        for _ in range(400):
            if m.is_over or seen >= wanted:
                break
            for seat in sorted(m.to_act()):
                view = m.view(seat)
                kinds = _lb_kinds(view, type(m).unseen(view))
                if kinds - seen or rng.random() < 0.02:
                    seen |= kinds
                    _world_is_the_match("luegenbeutel", m.copy(), seat, History(),
                                        random.Random(seed), steps=60)
            seat = rng.choice(sorted(m.to_act()))
            legal = m.legal_actions(seat)
            m.apply(seat, choose_action("luegenbeutel", m.view(seat), legal, rng)
                    if rng.random() < 0.7 else rng.choice(legal))
    assert seen >= wanted


@pytest.mark.parametrize("seed", range(30))
def test_the_mauscheln_heuristics_remembered_estimates_do_not_change_its_answers(
        seed: int) -> None:
    """The house bot's ``Table`` works each estimate out once (the search asks it in
    every rollout): asked in any order, or afresh for every question, it gives the
    same numbers."""
    players = 3 + seed % 5
    rng = random.Random(seed)
    m = new_match("mauscheln", players, _maus_options(seed, players), seed=seed)
    compared = 0
    for _ in range(150):
        if m.is_over:
            break
        seat = min(m.to_act())
        view, legal = m.view(seat), m.legal_actions(seat)
        if view["hand"]:
            table = heuristic.Table(view, 2.0)
            cards = list(table.unseen) + list(table.hand)
            rng.shuffle(cards)
            for card in cards:
                fresh = heuristic.Table(view, 2.0)
                assert table.trick_chance(card) == fresh.trick_chance(card)
                assert table.void_and_trumps(table.suit(card)) == \
                    heuristic.Table(view, 2.0).void_and_trumps(fresh.suit(card))
                compared += 1
        m.apply(seat, choose_action("mauscheln", view, legal, rng)
                if rng.random() < 0.7 else rng.choice(legal))
    assert compared >= 10

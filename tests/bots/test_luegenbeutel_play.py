"""Lügenbeutel bots play the game as it is meant to be played: both levels call a
liar who dumps a hand in one claim, neither lays a lie the table could not believe
(nor its last card as a lie), a match to 500 takes several rounds, and the house bot
beats players who dump their hands.

Play here follows the room's order: after a turn that can be challenged the seats
that may call the liar answer first (clockwise from the accused), then the seat on
turn, whose own move the room holds back for the challenge window."""

from __future__ import annotations

import random
from collections.abc import Callable
from math import comb
from typing import Any

import pytest

from app.bots import luegenbeutel, make_bot
from app.games import Match, new_match
from app.games.luegenbeutel import DECK, is_true

GAME = "luegenbeutel"
Turn = Callable[[Match, int], str]  # the move of the seat on turn
Optional = Callable[[Match, int], "str | None"]  # a call (or accept), None to stay silent


def public_chance(count: int, held: int, claim: str) -> float:
    """How likely a hand of ``held`` cards nobody has seen holds ``count`` or more
    cards true for ``claim`` (worked out here, apart from the bots' own sums)."""
    p = sum(1 for c in DECK if is_true(c, claim)) / len(DECK)
    return sum(comb(held, x) * p ** x * (1 - p) ** (held - x) for x in range(count, held + 1))


def step(m: Match, turn: Turn, optional: Optional) -> tuple[int, str, list[dict[str, Any]]]:
    """One move in the room's order."""
    seats = sorted(m.to_act())
    view = m.view(None)
    on_turn = view["turn"] if view["phase"] == "play" else None
    accused = view["challenge"]["accused"]
    if accused is not None:
        for seat in sorted(seats, key=lambda s: (s - accused) % m.players):
            if seat == on_turn:
                continue
            answer = optional(m, seat)
            if answer is None and view["phase"] == "challenge":
                answer = "accept"  # the room accepts for the silent
            if answer is not None:
                return seat, answer, m.apply(seat, answer)
    assert on_turn is not None
    action = turn(m, on_turn)
    return on_turn, action, m.apply(on_turn, action)


def bots_of(kind: str, players: int, seed: int, budget_ms: float = 30) -> tuple[Turn, Optional]:
    bots = [make_bot(kind, GAME, seed=seed * 16 + s, budget_ms=budget_ms)
            for s in range(players)]

    def turn(m: Match, seat: int) -> str:
        answer: str = bots[seat].choose(m.view(seat), m.legal_actions(seat))
        return answer

    def optional(m: Match, seat: int) -> str | None:
        answer: str | None = bots[seat].choose_optional(m.view(seat), m.legal_actions(seat))
        return answer

    return turn, optional


# ----- a liar who dumps a hand is called ----------------------------------------------------
def _dump(players: int, seed: int, count: int) -> Match:
    """Seat 0 (forehand, number 1) lays ``count`` of its ten cards in one claim, in a
    random order, as a person dumping a hand would."""
    m = new_match(GAME, players, {"dealer": players - 1}, seed=seed)
    hand = list(m.view(0)["hand"])
    random.Random(seed).shuffle(hand)
    for card in hand[:count]:
        m.apply(0, "lay:" + card)
    m.apply(0, "end")
    return m


@pytest.mark.parametrize("kind", ["heuristic", "search"], ids=["easy", "strong"])
@pytest.mark.parametrize(("players", "count"), [(2, 8), (4, 8), (4, 10), (6, 7)])
def test_both_levels_call_a_liar_who_dumps_a_hand_in_one_claim(
        kind: str, players: int, count: int) -> None:
    seeds = range(20)
    called = caught = lying = 0
    for seed in seeds:
        m = _dump(players, seed, count)
        laid = m.open_turn["cards"]  # type: ignore[attr-defined]
        lying += any(not is_true(c, "1") for c in laid)
        turn, optional = bots_of(kind, players, seed)
        seat, action, events = step(m, turn, optional)
        if action.startswith("challenge:"):
            called += 1
            caught += next(e for e in events if e["type"] == "challenge")["caught"]
    assert lying >= 19  # (a hand of ten cards true for one number is very rare)
    assert called >= 18, f"{kind} called {called} of 20 dumps"
    assert caught >= called // 2, f"{kind} caught {caught} of {called} calls"


@pytest.mark.parametrize("kind", ["heuristic", "search"], ids=["easy", "strong"])
def test_neither_level_calls_every_plausible_claim(kind: str) -> None:
    """One true card, claimed as one, is believed by most: calling it costs the die."""
    called = 0
    for seed in range(20):
        m = new_match(GAME, 4, {"dealer": 3}, seed=seed)
        hand = m.view(0)["hand"]
        true = [c for c in hand if is_true(c, "1")]
        m.apply(0, "lay:" + (true[0] if true else hand[0]))
        m.apply(0, "end")
        turn, optional = bots_of(kind, 4, seed)
        _, action, _ = step(m, turn, optional)
        called += action.startswith("challenge:")
    assert called <= 6, f"{kind} called {called} of 20 single cards"


# ----- plausible lies (the strong bot's dump apart) --------------------------------------
@pytest.mark.parametrize(("kind", "players", "turns"),
                         [("heuristic", 4, 600), ("heuristic", 2, 300), ("search", 4, 80)],
                         ids=["easy-4", "easy-2", "strong-4"])
def test_neither_level_lays_a_lie_the_table_could_not_believe(
        kind: str, players: int, turns: int) -> None:
    """Every turn of the bots in which a card was a lie claims no more cards than a
    hand of that size plausibly holds (a quarter of such hands or more), and the lie
    is never the last card of the hand; except the strong bot's dump, which lays the
    whole hand at once to try to go out (its search weighs it as one plan)."""
    lies = 0
    for seed in (1, 2):
        m = new_match(GAME, players, {"target": 10_000, "dealer": 0}, seed=seed)
        turn, optional = bots_of(kind, players, seed)
        laid: list[str] = []  # the cards of the turn in progress
        held = 0  # the hand it began with
        ended = 0
        while ended < turns // 2:
            seat, action, events = step(m, turn, optional)
            if action.startswith("lay:"):
                if not laid:
                    held = len(m.view(seat)["hand"]) + 1
                laid.append(action[4:])
            for e in (e for e in events if e["type"] == "end"):
                ended += 1
                claim = str(e["number"])
                if e["kind"] == "lay" and any(not is_true(c, claim) for c in laid):
                    lies += 1
                    if kind == "search" and len(laid) == held:
                        assert e["cards_left"] == 0  # a dump: the whole hand
                    else:
                        assert public_chance(len(laid), held, claim) >= 0.25, (laid, held)
                        assert e["cards_left"] > 0, f"a lie with the last card: {laid}"
                laid = []
    assert lies >= 3, "the bots lied now and then (so the checks above saw lies)"


# ----- matches last ----------------------------------------------------------------------------
@pytest.mark.parametrize("players", [3, 4, 6])
def test_a_match_to_500_with_easy_bots_takes_more_than_one_round(players: int) -> None:
    for seed in range(1, 6):
        m = new_match(GAME, players, {"dealer": seed % players}, seed=seed)
        assert m.options["target"] == 500
        turn, optional = bots_of("heuristic", players, seed)
        for _ in range(50_000):
            if m.is_over:
                break
            step(m, turn, optional)
        assert m.is_over
        rounds = len(m.results)  # type: ignore[attr-defined]
        assert rounds > 1, f"seed {seed}: the match ended after {rounds} round"


# ----- the house bot against people who dump their hands ------------------------------------
def _dumper(m: Match, seat: int) -> str:
    """Lay every card, true ones first; never call anybody."""
    view, legal = m.view(seat), m.legal_actions(seat)
    number = str(view["number"])
    if view["passed"]:
        return "end"
    lays = [a for a in legal if a.startswith("lay:")]
    true = [a for a in lays if is_true(a[4:], number)]
    return (true or lays or ["end"])[0]


def _random_turn(m: Match, seat: int, rng: random.Random) -> str:
    return rng.choice(m.legal_actions(seat))


def _random_call(m: Match, seat: int, rng: random.Random) -> str | None:
    """Any legal answer, or silence as often as any one of them."""
    legal = m.legal_actions(seat)
    pick = rng.randrange(len(legal) + 1)
    return legal[pick] if pick < len(legal) else None


def _points_against(others: str, players: int, matches: int) -> tuple[float, float]:
    """The house bot in one seat, ``others`` in the rest, three rounds a match: the
    bot's points and the others' mean, summed over the matches."""
    bot_points = other_points = 0.0
    for seed in range(matches):
        bot = seed % players
        m = new_match(GAME, players, {"target": 10_000, "dealer": seed % players}, seed=seed)
        rng = random.Random(seed)

        def turn(m: Match, seat: int, bot: int = bot, rng: random.Random = rng) -> str:
            if seat == bot:
                return luegenbeutel.choose(m.view(seat), m.legal_actions(seat), rng)
            return _dumper(m, seat) if others == "dumpers" else _random_turn(m, seat, rng)

        def optional(m: Match, seat: int, bot: int = bot, rng: random.Random = rng
                     ) -> str | None:
            if seat == bot:
                return luegenbeutel.optional(m.view(seat), m.legal_actions(seat), rng)
            return None if others == "dumpers" else _random_call(m, seat, rng)

        while m.deal_no <= 3:
            step(m, turn, optional)
        bot_points += m.scores[bot]
        other_points += sum(m.scores[s] for s in range(players) if s != bot) / (players - 1)
    return bot_points, other_points


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_the_house_bot_beats_players_who_dump_their_hands(players: int) -> None:
    bot_points, other_points = _points_against("dumpers", players, 12)
    assert bot_points >= 2 * other_points, (bot_points, other_points)


def test_the_house_bot_scores_far_more_than_random_players_at_four_seats() -> None:
    """(At two or three seats random players, who dump whole hands now and then, win
    the one challenge's draw often enough to keep up with a bot that never dumps.)"""
    bot_points, other_points = _points_against("random", 4, 20)
    assert bot_points >= 1.5 * other_points, (bot_points, other_points)

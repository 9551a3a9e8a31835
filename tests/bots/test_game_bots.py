"""The Beutelschneider, Mauscheln and Lügenbeutel bots: they answer only with legal
actions, read nothing but the view and the legal actions they are given, follow the
obvious lines of good play, and beat random legal play clearly."""

from __future__ import annotations

import ast
import copy
import inspect
import json
import random
import statistics
from collections import Counter
from collections.abc import Callable
from itertools import chain
from typing import Any

import pytest

from app.bots import (
    POLICIES,
    beutelschneider,
    luegenbeutel,
    mauscheln,
    schafkopf,
    schafkopf_classic,
)
from app.games import GAMES, Match, new_match
from app.games import luegenbeutel as lb_engine
from app.games import mauscheln as ms_engine

Policy = Callable[[dict[str, Any], list[str], random.Random], str]
BOTS: dict[str, Policy] = {
    "beutelschneider": beutelschneider.choose,
    "mauscheln": mauscheln.choose,
    "luegenbeutel": luegenbeutel.choose,
}

# (game, players, options) covering every player count and the variants.
TABLES: list[tuple[str, int, dict[str, Any]]] = [
    *[("beutelschneider", n, {"target": 40}) for n in (3, 4)],
    *[("mauscheln", n, {"chips": 12}) for n in range(3, 8)],
    *[("mauscheln", n, {"chips": 12, "knock": True, "quartets": True, "belli": True})
      for n in (3, 6)],
    ("mauscheln", 4, {"chips": 12, "knock": True, "weli": True}),
    *[("luegenbeutel", n, {"target": 60}) for n in range(2, 9)],
    *[("luegenbeutel", n, {"target": 60, "lb_card": True, "reveal_all": True})
      for n in (2, 5)],
]


def _checked(game: str, view: dict[str, Any], legal: list[str],
             rng: random.Random) -> str:
    """Ask the bot, and check that it answered legally without touching its input."""
    view_before, legal_before = copy.deepcopy(view), list(legal)
    action = BOTS[game](view, legal, rng)
    assert action in legal, f"{game} bot answered {action!r}, legal were {legal}"
    assert view == view_before, "the bot changed the view it was given"
    assert legal == legal_before, "the bot changed the legal actions it was given"
    return action


def _drive(m: Match, game: str, rng: random.Random, steps: int,
           bot_seats: set[int]) -> None:
    """Play ``steps`` actions; a random seat among those who may act moves."""
    for _ in range(steps):
        if m.is_over:
            return
        seat = rng.choice(sorted(m.to_act()))
        legal = m.legal_actions(seat)
        if seat in bot_seats:
            # the view as it crosses the wire: plain JSON, nothing live behind it
            view = json.loads(json.dumps(m.view(seat)))
            if game == "luegenbeutel":
                silent = luegenbeutel.optional(copy.deepcopy(view), list(legal), rng)
                assert silent is None or silent in legal
            action = _checked(game, view, legal, rng)
        else:
            action = rng.choice(legal)
        m.apply(seat, action)


# ----- every answer is legal -------------------------------------------------------
@pytest.mark.parametrize(("game", "players", "options"), TABLES,
                         ids=[f"{g}-{n}-{'-'.join(o) or 'plain'}" for g, n, o in TABLES])
def test_bot_always_answers_a_legal_action_and_leaves_its_input_alone(
        game: str, players: int, options: dict[str, Any]) -> None:
    for seed in range(3):
        m = new_match(game, players, dict(options, dealer=seed % players), seed=seed)
        rng = random.Random(seed)
        # bots in every other seat, so bots meet bots and random players alike
        _drive(m, game, rng, 700, {s for s in range(players) if (s + seed) % 2 == 0})


@pytest.mark.parametrize("game", sorted(BOTS))
def test_bot_is_registered_for_its_game(game: str) -> None:
    assert POLICIES[game] is BOTS[game]


@pytest.mark.parametrize("game", sorted(BOTS))
def test_bot_choice_depends_only_on_view_legal_actions_and_its_rng(game: str) -> None:
    info = GAMES[game]
    m = new_match(game, info.max_players, {"dealer": 0}, seed=11)
    rng = random.Random(11)
    for _ in range(300):
        if m.is_over:
            break
        seat = rng.choice(sorted(m.to_act()))
        legal = m.legal_actions(seat)
        view = m.view(seat)
        first = BOTS[game](copy.deepcopy(view), list(legal), random.Random(5))
        again = BOTS[game](json.loads(json.dumps(view)), list(legal), random.Random(5))
        assert first == again
        m.apply(seat, first)


@pytest.mark.parametrize("module", [beutelschneider, mauscheln, luegenbeutel,
                                    schafkopf_classic])
def test_bot_imports_only_pure_helpers_never_a_match(module: Any) -> None:
    tree = ast.parse(inspect.getsource(module))
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            assert not node.module.startswith(("app.rooms", "app.web", "app.db")), node.module
            if node.module.startswith("app.games"):
                for alias in node.names:
                    imported = getattr(__import__(node.module, fromlist=[alias.name]),
                                       alias.name)
                    assert not (isinstance(imported, type) and issubclass(imported, Match)), (
                        f"{module.__name__} imports the match class {alias.name}")
        if isinstance(node, ast.Import):
            for alias in node.names:
                assert not alias.name.startswith("app."), alias.name


def test_schafkopf_bot_finds_the_partner_in_the_views_teams_not_by_seat_arithmetic() -> None:
    m = new_match("schafkopf", 4, {"dealer": 0}, seed=2)
    for seat in range(4):
        view = m.view(seat)
        partner = schafkopf.partner_in(view)
        assert any({seat, partner} == set(team) for team in view["teams"])
        changed = dict(view, teams=[[seat, (seat + 1) % 4], [(seat + 2) % 4, (seat + 3) % 4]])
        assert schafkopf.partner_in(changed) == (seat + 1) % 4, "read from the view"


@pytest.mark.parametrize("options", [{}, {"belli": True}, {"weli": True}],
                         ids=["plain", "belli", "weli"])
def test_mauscheln_bot_orders_the_cards_exactly_as_the_engine(options: dict[str, Any]) -> None:
    for seed in range(6):
        m = new_match("mauscheln", 4, {"dealer": 0, **options}, seed=seed)
        assert isinstance(m, ms_engine.MauschelnMatch)
        view = m.view(1)
        table = mauscheln.Table(view, 1.0)
        assert len(table.unseen) + len(table.hand) + 1 == len(m.pack), "the same pack"
        for card in m.pack:
            assert table.suit(card) == m.suit(card)
            for led in m.pack:
                assert table.strength(card, led) == m.strength(card, led)


# ----- Beutelschneider: good play ------------------------------------------------------
def _beutelschneider(hands: list[list[str]]) -> Match:
    """Four players, seat 0 forehand, the given hands."""
    return new_match("beutelschneider", 4, {"dealer": 3}, seed=1, deals=[{"hands": hands}])


def _bot_move(m: Match, game: str, seat: int) -> str:
    return _checked(game, m.view(seat), m.legal_actions(seat), random.Random(0))


def test_beutelschneider_bot_kills_a_played_sovereign_with_its_assassin() -> None:
    m = _beutelschneider([
        ["bF", "bA", "bC", "g1", "g2", "y1", "y2", "r1"],
        ["g3", "g4", "gB", "gS", "y3", "y4", "yB", "r2"],
        ["gW", "g10", "gK", "yS", "yW", "y10", "yK", "r3"],
        ["bM", "bG", "r4", "rB", "rS", "rW", "r10", "rX"],
    ])
    for seat, card in ((0, "bF"), (1, "g3"), (2, "g10")):
        m.apply(seat, "play:" + card)
    assert _bot_move(m, "beutelschneider", 3) == "play:bM"


DUMP_DEAL = [
    ["bF", "bM", "bA", "bC", "bG", "g1", "g2", "g3"],
    ["rX", "r10", "rW", "g4", "gB", "y1", "y2", "y3"],
    ["gS", "gW", "g10", "gK", "y4", "yB", "yS", "yW"],
    ["y10", "yK", "r1", "r2", "r3", "r4", "rB", "rS"],
]


def test_beutelschneider_bot_throws_the_beutelschneider_onto_a_trick_it_cannot_win() -> None:
    m = _beutelschneider(DUMP_DEAL)
    m.apply(0, "play:bF")
    assert _bot_move(m, "beutelschneider", 1) == "play:rX"


def test_beutelschneider_bot_never_leads_the_beutelschneider() -> None:
    hands = [DUMP_DEAL[1], DUMP_DEAL[0], DUMP_DEAL[2], DUMP_DEAL[3]]
    m = _beutelschneider(hands)
    assert _bot_move(m, "beutelschneider", 0) != "play:rX"


# ----- Mauscheln: good play ---------------------------------------------------------------
def _mauscheln(hands: list[list[str]], trump: str) -> Match:
    """Four players, seat 0 forehand, the given hands and turned-up trump card."""
    used = set(chain(*hands, [trump]))
    stock = [c for c in ms_engine.PACK_32 if c not in used]
    return new_match("mauscheln", 4, {"dealer": 3}, seed=1,
                     deals=[{"hands": hands, "trump": trump, "stock": stock}])


STRONG_AND_WEAK = [
    ["SA", "SK", "H8", "C9"],  # trump Ace and King
    ["D8", "D9", "C7", "C8"],  # no trump, nothing high
    ["HA", "HK", "DA", "DK"],
    ["S9", "S10", "CA", "CK"],
]


def test_mauscheln_bot_says_mauschel_with_the_trump_ace_and_king() -> None:
    m = _mauscheln(STRONG_AND_WEAK, "S7")
    assert _bot_move(m, "mauscheln", 0) == "mauschel"


def test_mauscheln_bot_folds_a_hand_without_trumps_or_high_cards() -> None:
    m = _mauscheln(STRONG_AND_WEAK, "S7")
    m.apply(0, "mauschel")
    assert _bot_move(m, "mauscheln", 1) == "fold"


def test_mauscheln_bot_passes_a_hand_without_trumps_or_high_cards() -> None:
    hands = [STRONG_AND_WEAK[1], STRONG_AND_WEAK[0], STRONG_AND_WEAK[2], STRONG_AND_WEAK[3]]
    m = _mauscheln(hands, "S7")
    assert _bot_move(m, "mauscheln", 0) == "pass"


def test_mauscheln_bot_keeps_its_trumps_and_exchanges_the_low_side_cards() -> None:
    m = _mauscheln(STRONG_AND_WEAK, "S7")
    m.apply(0, "mauschel")
    for seat in (1, 2, 3):
        m.apply(seat, "join" if seat == 3 else "fold")
    assert _bot_move(m, "mauscheln", 0) == "exchange:H8,C9"


# ----- Lügenbeutel: good play ---------------------------------------------------------------
def _luegenbeutel(hands: list[list[str]]) -> Match:
    """Seat 0 forehand (number 1); hands filled up to ten cards from the rest of the
    deck in deck order."""
    pool = Counter(lb_engine.DECK)
    pool.subtract(Counter(chain(*hands)))
    rest = list(pool.elements())
    filled = []
    for hand in hands:
        need = lb_engine.HAND_SIZE - len(hand)
        filled.append(list(hand) + rest[:need])
        rest = rest[need:]
    return new_match("luegenbeutel", len(hands), {"dealer": len(hands) - 1}, seed=1,
                     deals=[{"hands": filled, "stock": rest, "dice": []}])


def test_luegenbeutel_bot_lays_its_true_cards_first_and_lies_only_as_far_as_plausible(
) -> None:
    m = _luegenbeutel([["1", "1", "L", "5", "6", "7", "8", "9", "J", "A"], []])
    laid = []
    while 0 in m.to_act() and m.view(0)["turn"] == 0:
        action = _bot_move(m, "luegenbeutel", 0)
        m.apply(0, action)
        laid.append(action)
        if action == "end":
            break
    assert laid[:3] == ["lay:1", "lay:1", "lay:J"]  # the number's cards, then the Joker
    assert laid[-1] == "end"
    # at most one lie behind them (a Lügenbeutel first): four cards of ten is a claim
    # the table may believe, five is not
    assert laid[3:-1] in ([], ["lay:L"])
    assert luegenbeutel.most_plausible(10, "1") == 4


def test_luegenbeutel_bot_skips_with_an_aussetzen_when_it_holds_no_card_of_the_number(
) -> None:
    m = _luegenbeutel([["A", "5", "6", "7", "8", "9", "10", "4", "3", "L"], []])
    assert _bot_move(m, "luegenbeutel", 0) == "skip:A"


def test_luegenbeutel_bot_calls_a_long_claim_when_it_holds_most_of_that_number() -> None:
    m = _luegenbeutel([
        ["2", "3", "4", "5", "6", "7", "8", "9", "10", "L"],
        ["1", "1", "1", "1", "1", "L", "L", "L", "A", "A"],
        [],
    ])
    for card in ("2", "3", "4", "5", "6", "7"):
        m.apply(0, "lay:" + card)
    m.apply(0, "end")
    view, legal = m.view(1), m.legal_actions(1)
    assert _checked("luegenbeutel", view, legal, random.Random(0)).startswith("challenge:")
    assert luegenbeutel.optional(view, legal, random.Random(0)) is not None


def test_luegenbeutel_bot_lets_a_single_card_pass_when_it_holds_none_of_that_number(
) -> None:
    m = _luegenbeutel([
        ["1", "3", "4", "5", "6", "7", "8", "9", "10", "L"],
        ["2", "2", "3", "3", "4", "4", "5", "5", "6", "6"],
        ["2", "2", "3", "3", "4", "4", "5", "5", "6", "6"],
    ])
    m.apply(0, "lay:1")
    m.apply(0, "end")
    view, legal = m.view(2), m.legal_actions(2)  # not on turn: it need not answer
    assert luegenbeutel.optional(view, legal, random.Random(0)) is None
    view, legal = m.view(1), m.legal_actions(1)  # on turn: it plays instead
    assert not _checked("luegenbeutel", view, legal, random.Random(0)).startswith(
        "challenge:")


# ----- strength against random legal play ------------------------------------------------
def _duel(game: str, players: int, options: dict[str, Any], seed: int,
          max_deals: int | None = None) -> tuple[Match, int]:
    """One match with the bot in one seat (rotating with the seed) and random legal
    play in the others. Returns the match and the bot's seat."""
    bot = seed % players
    m = new_match(game, players, dict(options, dealer=seed % players), seed=seed)
    rng = random.Random(seed)
    for _ in range(20_000):
        if m.is_over or (max_deals is not None and m.deal_no > max_deals):
            break
        seat = rng.choice(sorted(m.to_act()))
        legal = m.legal_actions(seat)
        m.apply(seat, BOTS[game](m.view(seat), legal, rng) if seat == bot
                else rng.choice(legal))
    return m, bot


@pytest.mark.parametrize("players", [3, 4])
def test_beutelschneider_bot_wins_far_more_often_than_chance(players: int) -> None:
    matches = 60
    wins = sum(m.winners == [bot] for m, bot in (
        _duel("beutelschneider", players, {"target": 50}, seed) for seed in range(matches)))
    assert wins >= 1.8 * matches / players  # chance gives one in ``players``


def test_mauscheln_bot_ends_with_far_more_chips_than_random_players() -> None:
    bot_chips, random_chips, ahead = [], [], 0
    for seed in range(40):
        m, bot = _duel("mauscheln", 4, {}, seed, max_deals=10)
        if not m.is_over:
            m.end_by_host()  # type: ignore[attr-defined]
        others = statistics.mean(c for s, c in enumerate(m.scores) if s != bot)
        bot_chips.append(m.scores[bot])
        random_chips.append(others)
        ahead += m.scores[bot] > others
    assert statistics.mean(bot_chips) > statistics.mean(random_chips) + 20
    assert ahead >= 0.7 * len(bot_chips)

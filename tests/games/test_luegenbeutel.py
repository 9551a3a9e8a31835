"""Lügenbeutel: the rules of seed 003 and docs/rules/luegenbeutel.md as sentences, the seed's worked
example, and the engine contract (conservation, hidden cards, refusals, snapshots)."""

from __future__ import annotations

import copy
import json
import random
from collections import Counter
from itertools import chain
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tests.games.goldens  # noqa: F401  (registers the golden cases)
from app.games import GAMES, IllegalAction, Match, new_match, restore
from app.games.luegenbeutel import DECK, LuegenbeutelMatch, shuffled_deal
from tests.games import golden
from tests.games.contract import (
    advance,
    assert_refused_unchanged,
    check_illegal_and_malformed,
    check_snapshot_roundtrip,
    play_random,
    random_step,
)

GAME = "luegenbeutel"


# ----- helpers -----------------------------------------------------------------
def stacked(hands: list[list[str]], stock_top: list[str] | None = None,
            dice: list[int] | None = None) -> dict[str, Any]:
    """A stacked deal: the given cards first in each hand (filled up to ten from
    the rest of the deck), ``stock_top`` on top of the stock, then the rest."""
    pool = Counter(DECK)
    for card in chain(*hands, stock_top or []):
        pool[card] -= 1
        assert pool[card] >= 0, f"too many {card!r} in the stacked deal"
    rest = []
    for card in DECK:
        if pool[card] > 0:
            pool[card] -= 1
            rest.append(card)
    filled = []
    for hand in hands:
        need = 10 - len(hand)
        filled.append(list(hand) + rest[:need])
        rest = rest[need:]
    return {"hands": filled, "stock": list(stock_top or []) + rest, "dice": list(dice or [])}


def match(hands: list[list[str]], stock_top: list[str] | None = None,
          dice: list[int] | None = None, dealer: int | None = None,
          **options: Any) -> LuegenbeutelMatch:
    """A match whose first round is stacked; forehand is seat 0 unless ``dealer`` says."""
    players = len(hands)
    opts = {"dealer": (players - 1) if dealer is None else dealer, **options}
    m = new_match(GAME, players, opts, seed=1, deals=[stacked(hands, stock_top, dice)])
    assert isinstance(m, LuegenbeutelMatch)
    return m


def play(m: Match, *moves: tuple[int, str]) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = []
    for seat, action in moves:
        events += m.apply(seat, action)
    return events


def lay(m: Match, seat: int, *cards: str) -> list[dict[str, Any]]:
    """A whole lay turn: the cards one at a time, then ``end``."""
    return play(m, *[(seat, "lay:" + c) for c in cards], (seat, "end"))


def state(m: Match) -> dict[str, Any]:
    return m.snapshot()["state"]


def all_cards(m: Match) -> Counter[str]:
    s = state(m)
    open_cards = s["open_turn"]["cards"] if s["open_turn"] else []
    return Counter(chain(*s["hands"], s["stock"], s["discard"], s["laid"], open_cards))


def of_type(events: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [e for e in events if e["type"] == kind]


# ----- players, deck, deal ------------------------------------------------------
def test_two_to_eight_players() -> None:
    assert (GAMES[GAME].min_players, GAMES[GAME].max_players) == (2, 8)
    for players in (1, 9):
        with pytest.raises(ValueError):
            new_match(GAME, players, seed=1)


def test_deck_has_112_cards_seven_of_each_number_26_jokers_8_luegenbeutel_8_aussetzen() -> None:
    counts = Counter(DECK)
    assert len(DECK) == 112
    assert all(counts[str(n)] == 7 for n in range(1, 11))
    assert (counts["J"], counts["L"], counts["A"]) == (26, 8, 8)


@pytest.mark.parametrize("players", range(2, 9))
def test_ten_cards_each_and_the_rest_is_the_stock(players: int) -> None:
    m = new_match(GAME, players, seed=players)
    assert m.view(0)["hand_counts"] == [10] * players
    assert m.view(0)["stock_count"] == 112 - 10 * players
    assert m.view(0)["discard_count"] == 0
    assert all_cards(m) == Counter(DECK)


def test_required_number_starts_at_1_with_forehand_left_of_dealer() -> None:
    m = new_match(GAME, 4, {"dealer": 2}, seed=5)
    view = m.view(None)
    assert (view["forehand"], view["turn"], view["number"]) == (3, 3, 1)
    assert m.to_act() == {3}


def test_first_dealer_is_drawn_at_random_when_not_given() -> None:
    dealers = {new_match(GAME, 5, seed=s).view(None)["dealer"] for s in range(40)}
    assert len(dealers) > 1


def test_without_a_seed_shuffles_come_from_a_secure_source() -> None:
    import secrets

    m = new_match(GAME, 3)
    assert isinstance(m.rng, secrets.SystemRandom)


def test_same_seed_and_actions_give_the_same_match() -> None:
    a, b = new_match(GAME, 4, seed=99), new_match(GAME, 4, seed=99)
    play_random(a, random.Random(3), until=lambda m: m.deal_no > 1)
    play_random(b, random.Random(3), until=lambda m: m.deal_no > 1)
    assert state(a) == state(b)


# ----- the three kinds of turn --------------------------------------------------------
def test_lay_one_or_more_cards_each_claimed_as_the_required_number_then_end() -> None:
    m = match([["1", "1", "7"], [], []])
    assert "end" not in m.legal_actions(0), "a lay turn needs a card first"
    events = play(m, (0, "lay:1"), (0, "lay:7"))
    assert [e["number"] for e in of_type(events, "lay")] == [1, 1]
    assert m.to_act() == {0}, "nobody may challenge before the turn ends"
    assert "end" in m.legal_actions(0) and "pass" not in m.legal_actions(0)
    m.apply(0, "end")
    assert m.view(None)["stack"]["count"] == 2
    assert (m.view(None)["turn"], m.view(None)["number"]) == (1, 2)


def test_skip_is_exactly_one_card_claimed_as_aussetzen_and_skips_the_next_player() -> None:
    m = match([["A", "5"], [], []])
    events = m.apply(0, "skip:A")
    assert of_type(events, "end")[0]["kind"] == "skip"
    view = m.view(None)
    assert view["stack"]["claim"] == "A" and view["stack"]["count"] == 1
    assert (view["turn"], view["number"]) == (2, 2), "seat 1 is skipped"
    m.apply(2, "pass")  # closes the window: the skip stands
    assert m.view(None)["stack"]["open"] is False


def test_skip_may_not_follow_laid_cards() -> None:
    m = match([["A", "1"], [], []])
    m.apply(0, "lay:1")
    assert not any(a.startswith("skip:") for a in m.legal_actions(0))
    assert_refused_unchanged(m, 0, "skip:A")


def test_skip_is_never_the_players_last_card() -> None:
    m = match([["1", "2", "3", "4", "5", "6", "7", "8", "9", "A"], [], []])
    lay(m, 0, "1", "2", "3", "4", "5", "6", "7", "8", "9")
    lay(m, 1, m.view(1)["hand"][0])
    lay(m, 2, m.view(2)["hand"][0])
    assert m.view(0)["hand"] == ["A"]
    assert not any(a.startswith("skip:") for a in m.legal_actions(0))
    with pytest.raises(IllegalAction, match="last card"):
        m.apply(0, "skip:A")


def test_pass_draws_one_card_which_may_then_be_laid_alone() -> None:
    m = match([["1"], [], []], stock_top=["J", "4"])
    events = m.apply(0, "pass")
    assert of_type(events, "pass")[0]["drew"] == 1
    assert m.view(0)["drawn"] == "J" and m.view(0)["hand_counts"][0] == 11
    assert m.legal_actions(0) == ["lay:J", "end"], "only the drawn card, or just end"
    m.apply(0, "lay:J")
    assert m.legal_actions(0) == ["end"], "the drawn card is laid alone"
    m.apply(0, "end")
    assert m.view(None)["stack"]["count"] == 1 and m.view(None)["stack"]["kind"] == "pass"
    assert m.view(None)["number"] == 2


def test_pass_then_just_end_stands_and_leaves_nothing_to_challenge() -> None:
    m = match([[], [], []], stock_top=["4"])
    play(m, (0, "pass"), (0, "end"))
    assert m.to_act() == {1}
    assert m.view(None)["number"] == 2
    assert m.view(None)["challenge"]["open"] is False


def test_the_drawn_card_is_private_to_the_drawer() -> None:
    m = match([[], [], []], stock_top=["J"])
    events = m.apply(0, "pass")
    assert "J" not in json.dumps(events)
    assert m.view(0)["drawn"] == "J"
    assert m.view(1)["drawn"] is None and m.view(None).get("drawn") is None


# ----- claims -------------------------------------------------------------------
def test_joker_is_always_true_for_a_number_and_for_aussetzen() -> None:
    m = match([["J", "J", "1"], [], []], dice=[2, 3])
    lay(m, 0, "J")
    m.apply(1, "challenge:1")
    assert m.view(None)["last_challenge"]["caught"] is False
    m = match([["J", "J", "1"], [], []], dice=[2])
    m.apply(0, "skip:J")
    m.apply(1, "challenge:1")
    assert m.view(None)["last_challenge"]["caught"] is False


def test_luegenbeutel_card_is_never_true() -> None:
    for turn in (("lay", "L"), ("skip", "L")):
        m = match([["L", "1"], [], []], dice=[1])
        if turn[0] == "lay":
            lay(m, 0, "L")
        else:
            m.apply(0, "skip:L")
        m.apply(2, "challenge:1")
        assert m.view(None)["last_challenge"]["caught"] is True


def test_aussetzen_card_claimed_as_a_number_is_a_lie() -> None:
    m = match([["A", "1"], [], []], dice=[1])
    lay(m, 0, "A")
    m.apply(1, "challenge:1")
    assert m.view(None)["last_challenge"]["caught"] is True


def test_a_number_card_claimed_as_aussetzen_is_a_lie() -> None:
    m = match([["1", "2"], [], []], dice=[1])
    m.apply(0, "skip:1")
    m.apply(1, "challenge:1")
    assert m.view(None)["last_challenge"]["caught"] is True


# ----- the challenge window -------------------------------------------------------
def test_after_a_turn_ends_every_other_player_may_challenge_the_ith_card() -> None:
    m = match([["1", "1", "1"], [], [], []])
    lay(m, 0, "1", "1", "1")
    assert m.to_act() == {1, 2, 3}, "the next player and everyone who may challenge"
    assert m.legal_actions(0) == [], "nobody challenges their own turn"
    for seat in (2, 3):
        assert m.legal_actions(seat) == ["challenge:1", "challenge:2", "challenge:3"]
    assert {"challenge:1", "challenge:3", "pass"} <= set(m.legal_actions(1))
    view = m.view(3)
    assert view["challenge"] == {"open": True, "by": [1, 2, 3], "accused": 0,
                                 "reveal_all": False}
    assert view["stack"]["challengeable"] == [1, 2, 3]
    assert "accept" not in m.legal_actions(2), "accept exists only when a hand is empty"


def test_the_window_closes_when_the_next_player_acts() -> None:
    m = match([["1", "1"], ["5"], [], []])
    lay(m, 0, "1", "1")
    events = m.apply(1, "lay:5")
    assert of_type(events, "stands")[0] == {"type": "stands", "seat": 0, "count": 2}
    assert m.to_act() == {1}
    assert m.legal_actions(2) == []
    assert_refused_unchanged(m, 2, "challenge:1")
    assert m.view(None)["discard_count"] == 2


def test_one_challenge_per_turn() -> None:
    m = match([["1", "1"], [], []], dice=[1, 1])
    lay(m, 0, "1", "1")
    m.apply(2, "challenge:2")
    assert m.to_act() == {1}
    assert_refused_unchanged(m, 1, "challenge:1")
    assert_refused_unchanged(m, 2, "challenge:1")


def test_challenge_ms_is_a_room_option_the_engine_only_stores() -> None:
    assert GAMES[GAME].default_options["challenge_ms"] == 2500
    m = new_match(GAME, 3, {"challenge_ms": 0}, seed=1)
    assert m.view(None)["challenge_ms"] == 0
    assert new_match(GAME, 3, {"challenge_ms": 30_000}, seed=1).options["challenge_ms"] == 30_000
    for bad in (-1, 30_001, "2500", True):
        with pytest.raises(ValueError):
            new_match(GAME, 3, {"challenge_ms": bad}, seed=1)


def test_caught_lie_takes_back_cards_i_to_last_rolls_the_die_and_draws() -> None:
    m = match([["2", "1", "7", "1"], [], []], stock_top=["3", "3", "3", "9"], dice=[4])
    lay(m, 0, "2", "1", "7", "1")  # the 1 is up: the first card is a lie, the second true
    events = m.apply(1, "challenge:3")
    challenge = of_type(events, "challenge")[0]
    assert challenge["revealed"] == ["7"] and challenge["caught"] is True
    assert challenge["took_back"] == 2 and challenge["die"] == 4
    assert of_type(events, "draw") == [{"type": "draw", "seat": 0, "count": 4}]
    assert m.view(0)["hand_counts"][0] == 6 + 2 + 4
    assert Counter(m.view(0)["hand"])["3"] >= 3 and "9" in m.view(0)["hand"]
    view = m.view(None)
    assert view["stack"]["count"] == 2 and view["stack"]["void"] is False
    assert view["discard_count"] == 2
    assert (view["turn"], view["number"]) == (1, 2), "the turn stands: next higher number"


def test_caught_first_card_voids_the_turn_and_the_next_player_has_the_same_number() -> None:
    m = match([["1"], [], ["L"]], stock_top=["9"], dice=[2])
    lay(m, 0, "1")
    play(m, (1, "pass"), (1, "end"))
    lay(m, 2, "L")
    events = m.apply(0, "challenge:1")
    challenge = of_type(events, "challenge")[0]
    assert challenge["caught"] and challenge["void"] and challenge["took_back"] == 1
    assert (m.view(None)["turn"], m.view(None)["number"]) == (0, 3)
    assert m.view(None)["stack"]["count"] == 0
    assert m.view(None)["hand_counts"][2] == 10 + 2


def test_caught_first_card_of_a_turn_voids_it_whole() -> None:
    m = match([["5", "1", "1"], [], []], dice=[3])
    lay(m, 0, "5", "1", "1")
    events = m.apply(2, "challenge:1")
    assert of_type(events, "challenge")[0]["took_back"] == 3
    view = m.view(None)
    assert view["hand_counts"][0] == 10 + 3
    assert (view["turn"], view["number"]) == (1, 1), "the next player, the same number"
    assert view["stack"]["void"] is True and view["discard_count"] == 0


def test_caught_skip_does_not_skip_anybody() -> None:
    m = match([["7", "1"], [], []], dice=[1])
    m.apply(0, "skip:7")
    assert m.view(None)["turn"] == 2
    m.apply(2, "challenge:1")
    view = m.view(None)
    assert (view["turn"], view["number"]) == (1, 1)
    assert m.to_act() == {1}
    assert view["hand_counts"][0] == 10 + 1, "the skip card comes back, plus the die's one"
    assert view["stack"]["count"] == 0 and view["discard_count"] == 0


def test_the_skipped_player_may_challenge_the_skip() -> None:
    m = match([["A", "1"], [], []], dice=[5])
    m.apply(0, "skip:A")
    assert "challenge:1" in m.legal_actions(1)
    m.apply(1, "challenge:1")
    assert m.view(None)["hand_counts"][1] == 15, "a true skip: the challenger draws"
    assert m.view(None)["turn"] == 2, "and the skip still stands"


def test_true_claim_the_challenger_rolls_and_draws_and_the_cards_stay() -> None:
    m = match([["1", "J", "9"], [], []], dice=[6])
    lay(m, 0, "1", "J")
    events = m.apply(2, "challenge:2")
    challenge = of_type(events, "challenge")[0]
    assert challenge == {
        "type": "challenge", "challenger": 2, "accused": 0, "position": 2, "claim": "1",
        "revealed": ["J"], "caught": False, "took_back": 0, "die": 6, "penalized": 2,
        "drew": 6, "void": False,
    }
    view = m.view(None)
    assert view["hand_counts"] == [8, 10, 16]
    assert view["stack"]["count"] == 2 and view["discard_count"] == 2
    assert (view["turn"], view["number"]) == (1, 2)
    assert view["die"] == 6


def test_the_next_player_may_challenge_before_acting() -> None:
    m = match([["1", "2"], [], []], dice=[1])
    lay(m, 0, "2")
    m.apply(1, "challenge:1")
    assert m.view(None)["last_challenge"]["caught"] is True
    assert m.to_act() == {1} and m.view(None)["number"] == 1


def test_two_players_a_standing_skip_gives_the_skipper_the_next_turn() -> None:
    m = match([["A", "1"], []], dice=[])
    m.apply(0, "skip:A")
    assert m.to_act() == {0, 1}
    assert m.view(None)["turn"] == 0
    assert m.legal_actions(1) == ["challenge:1"]
    assert not any(a.startswith("challenge") for a in m.legal_actions(0))


# ----- number and reshuffle ------------------------------------------------------
def test_the_number_goes_up_with_every_turn_that_stands_lay_pass_and_skip_alike() -> None:
    m = match([["1", "A", "5"], ["2"], [], []])
    lay(m, 0, "1")
    assert m.view(None)["number"] == 2
    lay(m, 1, "2")
    play(m, (2, "pass"), (2, "end"))
    assert m.view(None)["number"] == 4
    m.apply(3, "pass")
    m.apply(3, "end")
    m.apply(0, "skip:A")
    assert (m.view(None)["turn"], m.view(None)["number"]) == (2, 6)


def _true_lays_to_ten(m: Match, players: int) -> None:
    """Everyone lays the required number truthfully from 1 up to 9."""
    for number in range(1, 10):
        seat = m.view(None)["turn"]
        assert m.view(None)["number"] == number
        lay(m, seat, str(number))


def _hands_for_ten(players: int, tenth: str) -> list[list[str]]:
    hands: list[list[str]] = [[] for _ in range(players)]
    for number in range(1, 10):
        hands[(number - 1) % players].append(str(number))
    hands[9 % players].append(tenth)
    return hands


def test_after_ten_discard_and_stock_are_shuffled_into_a_new_stock_and_one_is_next() -> None:
    m = match(_hands_for_ten(2, "10"), stock_top=["9"])
    _true_lays_to_ten(m, 2)
    lay(m, 1, "10")
    view = m.view(None)
    assert (view["turn"], view["number"]) == (0, 1)
    assert view["discard_count"] == 9 and view["stock_count"] == 92
    events = m.apply(0, "pass")  # the next player acts: the 10 stands, then the reshuffle
    assert [e["type"] for e in events][:2] == ["stands", "reshuffle"]
    assert of_type(events, "reshuffle")[0]["stock"] == 92 + 10
    view = m.view(None)
    assert view["discard_count"] == 0 and view["stock_count"] == 101


def test_a_challenge_on_the_ten_is_settled_penalty_draw_included_before_the_reshuffle() -> None:
    m = match(_hands_for_ten(2, "10"), stock_top=["J", "J", "J"], dice=[3])
    _true_lays_to_ten(m, 2)
    lay(m, 1, "10")
    events = m.apply(0, "challenge:1")
    assert [e["type"] for e in events] == ["challenge", "die", "draw", "reshuffle"]
    assert Counter(m.view(0)["hand"])["J"] >= 3, "drawn from the old stock top"
    assert m.view(None)["discard_count"] == 0
    assert (m.view(None)["turn"], m.view(None)["number"]) == (0, 1)


def test_a_caught_first_card_on_the_ten_voids_it_and_nothing_is_reshuffled() -> None:
    m = match(_hands_for_ten(2, "L"), dice=[1])
    _true_lays_to_ten(m, 2)
    lay(m, 1, "L")
    events = m.apply(0, "challenge:1")
    assert not of_type(events, "reshuffle")
    assert (m.view(None)["turn"], m.view(None)["number"]) == (0, 10)


def _drain_stock(m: Match) -> None:
    """Everyone passes until the stock is empty (a pass lays nothing, so the discard
    pile stays empty and the reshuffles after 10 change nothing)."""
    while state(m)["stock"]:
        seat = m.view(None)["turn"]
        play(m, (seat, "pass"), (seat, "end"))


def test_an_empty_stock_is_refilled_from_the_discard_pile_and_else_draws_what_there_is() -> None:
    m = match([[], []], dice=[6])
    _drain_stock(m)
    assert m.view(None)["stock_count"] == 0 and m.view(None)["hand_counts"] == [56, 56]
    first = m.view(None)["turn"]
    second = 1 - first
    lay(m, first, m.view(first)["hand"][0])
    # a lie or not, the second player lays a card that cannot be the required number
    number = m.view(None)["number"]
    wrong = next(c for c in m.view(second)["hand"] if c not in (str(number), "J"))
    lay(m, second, wrong)  # closes the first turn: its card joins the discard pile
    assert m.view(None)["discard_count"] == 1
    events = m.apply(first, "challenge:1")
    assert [e["type"] for e in events] == ["challenge", "die", "refill", "draw"]
    assert of_type(events, "draw")[0]["count"] == 1, "only one card was there to draw"
    assert m.view(None)["stock_count"] == 0 and m.view(None)["discard_count"] == 0
    assert all_cards(m) == Counter(DECK)


def test_a_pass_with_nothing_left_to_draw_draws_nothing_and_may_only_end() -> None:
    m = match([[], []])
    _drain_stock(m)
    seat = m.view(None)["turn"]
    events = m.apply(seat, "pass")
    assert of_type(events, "pass")[0]["drew"] == 0
    assert m.legal_actions(seat) == ["end"]


# ----- the seed's worked example -----------------------------------------------------
def test_seed_example_lie_on_the_second_of_three_fives_takes_back_ten_and_five() -> None:
    """'The 5 is up. The player lays down a 4, a 10 and a 5. A fellow player calls
    Lügenbeutel for the second. It is a 10: they take back the 5 and the 10', roll
    the die, draw that many, and the game continues with the next higher number."""
    m = match([["1", "4"], ["2", "4", "10", "5"], ["3"]], stock_top=["8", "8", "8"],
              dice=[3])
    lay(m, 0, "1")
    lay(m, 1, "2")
    lay(m, 2, "3")
    lay(m, 0, "4")
    assert (m.view(None)["turn"], m.view(None)["number"]) == (1, 5)
    lay(m, 1, "4", "10", "5")
    events = m.apply(2, "challenge:2")
    challenge = of_type(events, "challenge")[0]
    assert challenge["revealed"] == ["10"] and challenge["caught"] is True
    assert challenge["took_back"] == 2 and challenge["die"] == 3
    hand = Counter(m.view(1)["hand"])
    assert hand["10"] >= 1 and hand["5"] >= 1 and hand["8"] >= 3
    view = m.view(None)
    assert view["hand_counts"][1] == 10 - 1 - 3 + 2 + 3
    assert view["stack"]["count"] == 1, "the 4 stays on the discard pile"
    assert (view["turn"], view["number"]) == (2, 6), "the next higher number"


def test_seed_example_two_true_fives_cost_the_challenger() -> None:
    m = match([["1", "4"], ["2", "5", "5"], ["3"]], dice=[2])
    for seat, card in ((0, "1"), (1, "2"), (2, "3"), (0, "4")):
        lay(m, seat, card)
    lay(m, 1, "5", "5")
    m.apply(0, "challenge:1")
    assert m.view(None)["hand_counts"] == [8 + 2, 7, 9]
    assert (m.view(None)["turn"], m.view(None)["number"]) == (2, 6)


# ----- the end of a round ------------------------------------------------------------
def test_an_empty_hand_opens_the_accept_window_and_the_next_player_takes_no_turn() -> None:
    m = match([["1"] * 7 + ["J", "J", "J"], [], []])
    lay(m, 0, *(["1"] * 7 + ["J", "J", "J"]))
    assert m.phase == "challenge"
    assert m.to_act() == {1, 2}
    assert m.view(None)["turn"] is None
    assert m.legal_actions(1) == [f"challenge:{i}" for i in range(1, 11)] + ["accept"]
    assert not any(a.startswith(("lay", "pass", "skip")) for a in m.legal_actions(1))


def test_when_all_others_accept_the_empty_hand_wins_the_round() -> None:
    hand1 = ["10", "A", "J", "L", "10", "10", "A", "A", "9", "9"]
    m = match([["1"] * 7 + ["J", "J", "J"], hand1, ["2"] * 7 + ["3"] * 3], dealer=2)
    lay(m, 0, *(["1"] * 7 + ["J", "J", "J"]))
    m.apply(2, "accept")
    assert m.to_act() == {1}, "each other player once"
    assert m.view(None)["accepted"] == [2]
    assert_refused_unchanged(m, 2, "accept")
    events = m.apply(1, "accept")
    end = of_type(events, "deal_end")[0]
    assert end["winner"] == 0
    assert end["hand_points"] == [0, 30 + 60 + 30 + 40 + 18, 14 + 9]
    assert m.scores == [201, 0, 0]
    assert m.view(1)["last_deal"]["winner"] == 0


def test_round_score_numbers_face_value_aussetzen_20_joker_30_luegenbeutel_40() -> None:
    hand1 = ["10", "10", "A", "A", "J", "L", "L", "L", "L", "L"]
    hand2 = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "J"]
    m = match([["J"] * 10, hand1, hand2])
    lay(m, 0, *["J"] * 10)
    play(m, (1, "accept"), (2, "accept"))
    sheet = m.view(0)["last_deal"]
    assert sheet["hand_points"] == [0, 20 + 40 + 30 + 200, 45 + 30]
    assert sheet["points"] == [365, 0, 0]
    assert sheet["cards_left"] == [0, 10, 10]
    assert m.scores == [365, 0, 0]


def test_true_claim_on_the_last_turn_the_challenger_draws_then_the_empty_hand_wins() -> None:
    m = match([["1"] * 7 + ["J", "J", "J"], [], []], dice=[5])
    lay(m, 0, *(["1"] * 7 + ["J", "J", "J"]))
    m.apply(2, "accept")
    events = m.apply(1, "challenge:9")
    types = [e["type"] for e in events]
    assert types.index("draw") < types.index("deal_end")
    assert of_type(events, "deal_end")[0]["cards_left"] == [0, 15, 10]
    assert of_type(events, "deal_end")[0]["winner"] == 0


def test_a_caught_lie_on_the_last_turn_gives_the_cards_back_and_play_goes_on() -> None:
    m = match([["1"] * 7 + ["J", "J", "L"], [], []], dice=[2])
    lay(m, 0, *(["1"] * 7 + ["J", "J", "L"]))
    events = m.apply(2, "challenge:10")
    assert not of_type(events, "deal_end")
    assert m.phase == "play"
    view = m.view(None)
    assert view["hand_counts"][0] == 1 + 2
    assert (view["turn"], view["number"]) == (1, 2), "the first nine cards stand"
    assert m.to_act() == {1}
    assert_refused_unchanged(m, 1, "accept")


def test_a_caught_first_card_on_the_last_turn_voids_it() -> None:
    m = match([["L"] + ["1"] * 7 + ["J", "J"], [], []], dice=[1])
    lay(m, 0, "L", *(["1"] * 7 + ["J", "J"]))
    m.apply(1, "accept")
    m.apply(2, "challenge:1")
    view = m.view(None)
    assert view["hand_counts"][0] == 11
    assert (view["turn"], view["number"]) == (1, 1)


def test_one_challenge_in_all_in_the_accept_window() -> None:
    m = match([["1"] * 7 + ["J", "J", "L"], [], []], dice=[2])
    lay(m, 0, *(["1"] * 7 + ["J", "J", "L"]))
    m.apply(1, "challenge:1")
    assert m.phase == "play" and m.to_act() == {1}
    assert_refused_unchanged(m, 2, "challenge:1")


def test_the_dealer_passes_clockwise_after_every_round() -> None:
    m = match([["J"] * 10, [], []], dealer=2)
    lay(m, 0, *["J"] * 10)
    play(m, (1, "accept"), (2, "accept"))
    view = m.view(None)
    assert (view["deal_no"], view["dealer"], view["turn"], view["number"]) == (2, 0, 1, 1)
    assert view["hand_counts"] == [10, 10, 10] and view["stack"] is None
    assert all_cards(m) == Counter(DECK)


def test_the_first_to_reach_the_target_at_the_end_of_a_round_wins_the_match() -> None:
    assert GAMES[GAME].default_options["target"] == 500
    m = match([["J"] * 10, ["L"] * 8 + ["A", "A"], []], target=100)
    lay(m, 0, *["J"] * 10)
    events = play(m, (1, "accept"), (2, "accept"))
    assert of_type(events, "match_end")[0]["winners"] == [0]
    assert m.is_over and m.phase == "over" and m.winners == [0]
    assert m.to_act() == set() and m.legal_actions(1) == []
    assert "last_deal" in m.view(2)
    assert_refused_unchanged(m, 1, "pass")


# ----- variants -----------------------------------------------------------------------
def test_lb_card_variant_deals_nine_cards_plus_one_luegenbeutel_each() -> None:
    for players in (2, 8):
        m = new_match(GAME, players, {"lb_card": True}, seed=players)
        for seat in range(players):
            assert "L" in m.view(seat)["hand"] and len(m.view(seat)["hand"]) == 10
        assert all_cards(m) == Counter(DECK)
    with pytest.raises(ValueError, match="'L'"):
        new_match(GAME, 3, {"lb_card": True}, seed=1,
                  deals=[stacked([["1"] * 7 + ["J"] * 3, ["L"], ["L"]])])


def test_reveal_all_challenge_turns_over_every_card_any_false_voids_the_whole_turn() -> None:
    m = match([["1", "J", "7", "1"], [], []], dice=[2], reveal_all=True)
    lay(m, 0, "1", "J", "7", "1")
    assert m.legal_actions(2) == ["challenge:all"]
    assert m.view(None)["stack"]["challengeable"] == [1, 2, 3, 4]
    events = m.apply(2, "challenge:all")
    challenge = of_type(events, "challenge")[0]
    assert challenge["revealed"] == ["1", "J", "7", "1"] and challenge["position"] == "all"
    assert challenge["caught"] and challenge["void"] and challenge["took_back"] == 4
    view = m.view(None)
    assert view["hand_counts"][0] == 10 + 2
    assert (view["turn"], view["number"]) == (1, 1)


def test_reveal_all_all_true_the_challenger_draws() -> None:
    m = match([["1", "J", "1"], [], []], dice=[3], reveal_all=True)
    lay(m, 0, "1", "J", "1")
    m.apply(1, "challenge:all")
    view = m.view(None)
    assert view["hand_counts"] == [7, 13, 10]
    assert view["discard_count"] == 3 and (view["turn"], view["number"]) == (1, 2)
    assert_refused_unchanged(m, 1, "challenge:1")


# ----- options and stacked deals -----------------------------------------------------
@pytest.mark.parametrize("options", [
    {"target": 0}, {"lb_card": "yes"}, {"reveal_all": 1}, {"colour": True}, {"dealer": 3},
])
def test_bad_options_raise_value_error(options: dict[str, Any]) -> None:
    with pytest.raises(ValueError):
        new_match(GAME, 3, options, seed=1)


def _good_deal() -> dict[str, Any]:
    return stacked([[], [], []])


@pytest.mark.parametrize("spoil", [
    lambda d: d["hands"][0].__setitem__(0, "X"),              # not a card
    lambda d: d["hands"][0].append(d["stock"].pop()),         # eleven cards
    lambda d: d["stock"].append(d["hands"][1].pop()),         # nine cards
    lambda d: d["hands"].pop(),                               # a missing seat
    lambda d: d["stock"].pop(),                               # a card missing
    lambda d: d["stock"].append("J"),                         # a 27th Joker
    lambda d: d.__setitem__("dice", [7]),                     # not a die
    lambda d: d.__setitem__("dice", [True]),
    lambda d: d.pop("stock"),
    lambda d: d.__setitem__("extra", 1),
    lambda d: d["hands"].__setitem__(2, "1234567890"),
])
def test_a_stacked_deal_that_is_not_the_deck_raises_value_error(spoil: Any) -> None:
    deal = _good_deal()
    new_match(GAME, 3, seed=1, deals=[copy.deepcopy(deal)])
    spoil(deal)
    with pytest.raises(ValueError):
        new_match(GAME, 3, seed=1, deals=[deal])


def test_a_stacked_deal_that_is_not_a_dict_raises_value_error() -> None:
    bad_deals: list[Any] = [[], "deal", None, {"hands": "x", "stock": []}]
    for bad in bad_deals:
        with pytest.raises(ValueError):
            new_match(GAME, 3, seed=1, deals=[bad])


def test_stacked_dice_come_first_then_random() -> None:
    m = match([["2", "2", "2"], ["5"], []], dice=[6, 1])
    lay(m, 0, "2")
    m.apply(1, "challenge:1")
    assert m.view(None)["die"] == 6
    lay(m, 1, "5")
    m.apply(2, "challenge:1")
    assert m.view(None)["die"] == 1
    assert state(m)["dice"] == []


# ----- views and events ------------------------------------------------------------
def test_view_shows_counts_and_own_sorted_hand_never_other_cards() -> None:
    m = match([["L", "10", "J", "A", "2", "1", "J", "9", "3", "A"], [], []])
    assert m.view(0)["hand"] == ["1", "2", "3", "9", "10", "A", "A", "J", "J", "L"]
    lay(m, 0, "L", "10")
    spectator = m.view(None)
    assert "hand" not in spectator
    assert spectator["stack"] == {"seat": 0, "kind": "lay", "number": 1, "claim": "1",
                                  "count": 2, "open": True, "void": False,
                                  "challengeable": [1, 2]}
    for key in ("number", "hand_counts", "stock_count", "discard_count", "scores", "target",
                "challenge", "last_challenge", "die", "turn", "phase"):
        assert key in spectator
    assert "last_deal" not in spectator


def test_events_never_hold_a_face_down_card() -> None:
    m = match([["L", "10", "J"], [], ["3", "L"]], stock_top=["9"], dice=[1])
    events = lay(m, 0, "L", "10")
    events += play(m, (1, "pass"), (1, "end"))
    for event in events:
        assert "revealed" not in event
        assert not {"card", "cards", "hand"} & {k for k, v in event.items() if isinstance(v, list)}
    assert "L" not in json.dumps(events) and "9" not in json.dumps(events)
    events = lay(m, 2, "3", "L")
    events += m.apply(0, "challenge:2")
    assert [e["revealed"] for e in events if "revealed" in e] == [["L"]], "the named card only"


def test_refusals_say_why_in_words_a_player_can_read() -> None:
    m = match([["1", "2"], [], []])
    before = [
        (1, "pass", "not your turn"),
        (0, "lay:L", "do not hold"),
        (0, "end", "first"),
        (0, "accept", "nothing to accept"),
        (0, "challenge:1", "no turn open"),
    ]
    after = [(0, "challenge:1", "own turn"), (2, "challenge:5", "from 1 to 1")]
    for cases in (before, after):
        for seat, action, reason in cases:
            with pytest.raises(IllegalAction, match=reason):
                m.apply(seat, action)
        if cases is before:
            lay(m, 0, "1")
    m.apply(1, "pass")
    with pytest.raises(IllegalAction, match="only the card you drew"):
        m.apply(1, "lay:" + next(c for c in m.view(1)["hand"] if c != m.view(1)["drawn"]))


# ----- properties over random play -------------------------------------------------------
options_st = st.fixed_dictionaries({"lb_card": st.booleans(), "reveal_all": st.booleans()})
quick = settings(max_examples=25, deadline=None,
                 suppress_health_check=[HealthCheck.too_slow])


@quick
@given(seed=st.integers(0, 10**9), players=st.integers(2, 8), options=options_st)
def test_the_112_cards_are_conserved_after_every_action(
        seed: int, players: int, options: dict[str, Any]) -> None:
    m = new_match(GAME, players, options, seed=seed)
    rng = random.Random(seed)
    for _ in range(400):
        if m.is_over:
            break
        seat, action = random_step(m, rng)
        m.apply(seat, action)
        assert all_cards(m) == Counter(DECK)
        assert sum(m.view(None)["hand_counts"]) + m.view(None)["stock_count"] \
            + m.view(None)["discard_count"] + m.view(None)["laid"] \
            + len((state(m)["open_turn"] or {"cards": []})["cards"]) == 112


def _table_cards(m: Match) -> list[str]:
    """The cards a reshuffle would take besides the stock, in pile order (the same
    shuffle of two piles in a different order gives different stocks)."""
    s = state(m)
    return [*s["discard"], *(s["open_turn"] or {"cards": []})["cards"], *s["laid"]]


def _translate(a: Match, b: Match, seat: int, action: str) -> str | None:
    """The action in match ``b`` that does what ``action`` does in ``a``; None when the
    two must legitimately differ (a challenge turns over a card that differs)."""
    kind, _, arg = action.partition(":")
    sa, sb = state(a), state(b)
    if kind in ("lay", "skip"):
        if arg in sb["hands"][seat]:
            return action
        (other,) = list((Counter(sb["hands"][seat]) - Counter(sa["hands"][seat])).elements())
        return f"{kind}:{other}"
    if kind == "challenge":
        cards_a, cards_b = sa["open_turn"]["cards"], sb["open_turn"]["cards"]
        if arg == "all":
            return action if cards_a == cards_b else None
        i = int(arg) - 1
        return action if cards_a[i] == cards_b[i] else None
    return action


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**9), players=st.integers(3, 6), reveal_all=st.booleans())
def test_a_seats_view_does_not_change_when_only_other_seats_hidden_cards_change(
        seed: int, players: int, reveal_all: bool) -> None:
    rng = random.Random(seed)
    deal_a = shuffled_deal(players, lambda cards: rng.sample(cards, len(cards)))
    deal_a["dice"] = []
    observer = rng.randrange(players)
    h, g = rng.sample([s for s in range(players) if s != observer], 2)
    pairs = [(i, j) for i in range(10) for j in range(10)
             if deal_a["hands"][h][i] != deal_a["hands"][g][j]]
    i, j = rng.choice(pairs)
    deal_b = copy.deepcopy(deal_a)
    deal_b["hands"][h][i], deal_b["hands"][g][j] = deal_a["hands"][g][j], deal_a["hands"][h][i]
    options = {"dealer": rng.randrange(players), "reveal_all": reveal_all}
    a = new_match(GAME, players, options, seed=seed, deals=[deal_a])
    b = new_match(GAME, players, options, seed=seed, deals=[deal_b])
    for _ in range(300):
        assert a.view(observer) == b.view(observer)
        assert a.view(None) == b.view(None)
        assert a.to_act() == b.to_act()
        seat, action = random_step(a, rng)
        action_b = _translate(a, b, seat, action)
        if action_b is None:
            break  # a challenge would turn over a swapped card: public from then on
        piles_differ = _table_cards(a) != _table_cards(b)
        events_a, events_b = a.apply(seat, action), b.apply(seat, action_b)
        if a.deal_no > 1 or a.is_over:
            break  # the round's score sheet counts the hidden hands: public by rule
        if piles_differ and any(e["type"] in ("refill", "reshuffle") for e in events_a):
            break  # a swapped card went into the stock, where anyone may draw it
        assert events_a == events_b, "events are public"


@quick
@given(seed=st.integers(0, 10**9), players=st.integers(2, 5), options=options_st,
       steps=st.integers(0, 120))
def test_illegal_and_malformed_actions_raise_and_change_nothing(
        seed: int, players: int, options: dict[str, Any], steps: int) -> None:
    m = new_match(GAME, players, options, seed=seed)
    rng = random.Random(seed)
    advance(m, rng, steps)
    check_illegal_and_malformed(m, rng)
    for seat in range(players):
        for bad in ("lay:X", "lay:1 ", "challenge:0", "challenge:99", "challenge:all",
                    "skip:", "accept", "end", "pass:1", "challenge:-1"):
            if bad not in m.legal_actions(seat):
                assert_refused_unchanged(m, seat, bad)


@quick
@given(seed=st.integers(0, 10**9), players=st.integers(2, 8), options=options_st,
       steps=st.integers(0, 300))
def test_snapshot_to_json_and_restore_continues_identically(
        seed: int, players: int, options: dict[str, Any], steps: int) -> None:
    m = new_match(GAME, players, options, seed=seed)
    rng = random.Random(seed)
    advance(m, rng, steps)
    check_snapshot_roundtrip(m, seed, 80)


@pytest.mark.parametrize("players", range(2, 9))
def test_random_games_reach_the_end_of_the_match(players: int) -> None:
    for options in ({}, {"lb_card": True, "reveal_all": True}):
        m = new_match(GAME, players, options, seed=players)
        play_random(m, random.Random(players))
        assert m.is_over and len(m.winners) == 1
        assert m.scores[m.winners[0]] >= 500
        assert all_cards(m) == Counter(DECK)
        assert restore(json.loads(json.dumps(m.snapshot()))).is_over


def test_golden_playthrough_of_a_seeded_round_start() -> None:
    golden.replay("luegenbeutel_round")


def test_a_snapshot_saved_before_rounds_were_called_deals_resumes_the_same() -> None:
    m = new_match(GAME, 3, {"dealer": 0, "target": 40}, seed=12)
    rng = random.Random(12)
    while not m.view(None)["results"] and not m.is_over:
        seat = rng.choice(sorted(m.to_act()))
        m.apply(seat, rng.choice(m.legal_actions(seat)))
    old = m.snapshot()
    state = old["state"]
    for result in state["results"]:  # the shape saved by the version before
        result["round"] = result.pop("deal_no")
    del state["last_deal"]["deal_no"]
    del state["windows_opened"]
    resumed = restore(json.loads(json.dumps(old)))
    for seat in [None, 0, 1, 2]:
        assert resumed.view(seat) == m.view(seat)
    # an old snapshot counts windows from 0 again; whether one is open is the same
    assert (resumed.challenge_window() is None) == (m.challenge_window() is None)

"""Beutelschneider rules as tests: the seed's edge cases, the rulings and properties.

Scenarios are stacked deals (``deals=[...]``) played through the docs/engine.md surface;
the properties play random legal matches from seeds Hypothesis draws.
"""

from __future__ import annotations

import json
import random
import secrets
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tests.games.goldens  # noqa: F401  (registers the golden cases)
from app.games import GAMES, IllegalAction, Match, new_match, restore
from app.games.beutelschneider import (
    BONUS_CARDS,
    BONUS_LABELS,
    DECK,
    card_points,
    resolve_trick,
    sort_hand,
)
from app.games.cards import suit_of
from tests.games import contract, golden

HAND_SIZE = {3: 10, 4: 8}
CARD_CODES = set(DECK)


# ----- helpers -------------------------------------------------------------------
def deal_with(players: int, fixed: dict[int, list[str]], voids: dict[int, str] | None = None,
              removed: list[str] | None = None) -> dict[str, Any]:
    """A stacked deal: each seat gets its ``fixed`` cards, the rest of the deck fills
    the hands in deck order, never giving a seat a suit listed in ``voids``."""
    voids = voids or {}
    removed = list(removed or [])
    hands = {s: list(fixed.get(s, [])) for s in range(players)}
    used = {c for h in hands.values() for c in h} | set(removed)
    rest = [c for c in DECK if c not in used]
    for seat in sorted(range(players), key=lambda s: s not in voids):
        while len(hands[seat]) < HAND_SIZE[players]:
            card = next(c for c in rest if suit_of(c) not in voids.get(seat, ""))
            rest.remove(card)
            hands[seat].append(card)
    deal: dict[str, Any] = {"hands": [hands[s] for s in range(players)]}
    if players == 3:
        deal["removed"] = removed
    return deal


def deal_from_tricks(players: int, tricks: list[tuple[int, str]],
                     removed: list[str] | None = None) -> dict[str, Any]:
    """The deal that lets ``tricks`` (leader, cards in play order) be played."""
    hands: list[list[str]] = [[] for _ in range(players)]
    for leader, cards in tricks:
        for i, card in enumerate(cards.split()):
            hands[(leader + i) % players].append(card)
    deal: dict[str, Any] = {"hands": hands}
    if players == 3:
        deal["removed"] = list(removed or [])
    return deal


def rotated(tricks: list[tuple[int, str]], by: int, players: int = 4) -> list[tuple[int, str]]:
    return [((leader + by) % players, cards) for leader, cards in tricks]


def play_cards(m: Match, cards: str) -> list[dict[str, Any]]:
    """Play ``cards`` one after the other, each by the seat whose turn it is."""
    events: list[dict[str, Any]] = []
    for card in cards.split():
        (seat,) = m.to_act()
        events += m.apply(seat, "play:" + card)
    return events


def play_tricks(m: Match, tricks: list[tuple[int, str]]) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = []
    for leader, cards in tricks:
        assert m.to_act() == {leader}, f"seat {leader} should lead {cards}"
        events += play_cards(m, cards)
    return events


def of_type(events: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [e for e in events if e["type"] == kind]


def powers(events: list[dict[str, Any]]) -> list[str]:
    return [e["power"] for e in of_type(events, "power")]


def trick_event(events: list[dict[str, Any]]) -> dict[str, Any]:
    (trick,) = of_type(events, "trick")
    return trick


def bonus_names(sheet: dict[str, Any]) -> list[str]:
    return [b["name"] for b in sheet["bonuses"]]


def cards_in(obj: Any) -> set[str]:
    """Every card code that occurs anywhere in a JSON-like structure."""
    if isinstance(obj, str):
        return {obj} & CARD_CODES
    if isinstance(obj, dict):
        return set().union(*(cards_in(k) | cards_in(v) for k, v in obj.items()))
    if isinstance(obj, list):
        return set().union(*(cards_in(v) for v in obj))
    return set()


def four(deal: dict[str, Any], dealer: int = 3, **options: Any) -> Match:
    return new_match("beutelschneider", 4, {"dealer": dealer, **options}, deals=[deal])


# A full 4-player hand (dealer 2, forehand 3). Trick 1 is a trump fight the Sovereign
# wins; seat 0 then takes six red tricks and leads the Beutelschneider into the last
# trick, where seat 1's Guard cancels it and wins: 40 card points for seat 0, 20 card
# points + 2 x 10 bonus for seat 1.
GUARD_LAST_TRICKS: list[tuple[int, str]] = [
    (3, "bM bC bF bA"),
    (1, "r1 gB yB r10"),
    (0, "rW r2 gS yS"),
    (0, "rS g1 gW yW"),
    (0, "rB g2 gK yK"),
    (0, "r4 g3 y1 y3"),
    (0, "r3 g4 y2 y4"),
    (0, "rX bG g10 y10"),
]

# The same shape, but seat 1 wins the last trick with the Assassin (no Guard there),
# the Beutelschneider and two worthless cards: 0 card points - 20.
PENALTY_TRICKS: list[tuple[int, str]] = [
    (3, "bG bC bF bA"),
    (1, "r1 gB yB r10"),
    (0, "rW r2 gS yS"),
    (0, "rS g1 gW yW"),
    (0, "rB g2 g10 y10"),
    (0, "r4 g3 y1 y3"),
    (0, "r3 g4 y2 y4"),
    (0, "rX bM gK yK"),
]

# The Guard wins the last trick without a Beutelschneider in it; seat 0 takes its own
# Beutelschneider in trick 3 (20 = 40 - 20), seat 1 has 20 card points + 10.
GUARD_PLAIN_LAST_TRICKS: list[tuple[int, str]] = [
    (3, "bM bC bF bA"),
    (1, "r1 gB yB r10"),
    (0, "rX r2 gS yS"),
    (0, "rS g1 gW yW"),
    (0, "rB g2 gK yK"),
    (0, "r4 g3 y1 y3"),
    (0, "r3 g4 y2 y4"),
    (0, "rW bG g10 y10"),
]


# ----- the seed's "Common questions and edge cases" --------------------------------
def test_guard_after_beutelschneider_cancels_penalty_even_when_a_higher_trump_wins() -> None:
    m = four(deal_with(4, {0: ["rX"], 1: ["bG"], 2: ["bC"], 3: ["r1"]}, {1: "r", 2: "r"}))
    events = play_cards(m, "rX bG bC r1")
    trick = trick_event(events)
    assert trick["winner"] == 2
    assert trick["beutelschneider"] == 0
    assert trick["bonuses"] == [], "the Guard did not win: no +10"
    assert powers(events) == ["guard"]
    sheets = m.view(None)["sheets"]
    assert sheets[2]["beutelschneider"] == 0 and sheets[2]["beutelschneider_cancelled"]
    assert sheets[1]["bonuses"] == [] and sheets[1]["hand_total"] == 0


def test_guard_after_beutelschneider_in_last_trick_and_winning_earns_twenty() -> None:
    m = four(deal_from_tricks(4, GUARD_LAST_TRICKS), dealer=2)
    events = play_tricks(m, GUARD_LAST_TRICKS)
    last = of_type(events, "trick")[-1]
    assert last["winner"] == 1 and last["winning_card"] == "bG"
    assert [b["name"] for b in last["bonuses"]] == [
        "guard_cancels_beutelschneider", "guard_wins_last_trick"]
    sheet = m.view(1)["last_deal"]["sheets"][1]
    assert sheet["card_points"] == 20
    assert sheet["beutelschneider"] == 0 and sheet["beutelschneider_cancelled"]
    assert sum(b["points"] for b in sheet["bonuses"]) == 20
    assert sheet["hand_total"] == 40


def test_guard_before_beutelschneider_does_not_cancel_penalty() -> None:
    m = four(deal_with(4, {0: ["r1"], 1: ["bG"], 2: ["rX"], 3: ["r2"]}, {1: "r"}))
    events = play_cards(m, "r1 bG rX r2")
    trick = trick_event(events)
    assert trick["winner"] == 1, "the Guard is the only trump"
    assert trick["beutelschneider"] == -20
    assert trick["bonuses"] == []
    assert "guard" not in powers(events)
    sheet = m.view(None)["sheets"][1]
    assert sheet["beutelschneider"] == -20 and not sheet["beutelschneider_cancelled"]
    assert sheet["hand_total"] == 1 + 2 - 20


def test_assassin_before_sovereign_kills_nothing() -> None:
    m = four(deal_with(4, {0: ["g1"], 1: ["bM"], 2: ["bF"], 3: ["g2"]}, {1: "g", 2: "g"}))
    events = play_cards(m, "g1 bM bF g2")
    trick = trick_event(events)
    assert trick["winner"] == 2 and trick["winning_card"] == "bF"
    assert "assassin" not in powers(events)
    assert trick["bonuses"] == []


def test_countess_first_then_adventurer_seduces_her_and_wins_with_bonus() -> None:
    m = four(deal_with(4, {0: ["g1"], 1: ["bC"], 2: ["bA"], 3: ["g2"]}, {1: "g", 2: "g"}))
    events = play_cards(m, "g1 bC bA g2")
    trick = trick_event(events)
    assert trick["winner"] == 2 and trick["winning_card"] == "bA"
    (power,) = of_type(events, "power")
    assert power["power"] == "seduction" and power["card"] == "bA"
    assert power["target"] == "bC" and power["text"] == "Adventurer seduces the Countess"
    assert bonus_names(m.view(None)["sheets"][2]) == ["seduction"]
    assert m.view(None)["sheets"][2]["hand_total"] == 1 + 2 + 10


def test_scores_may_go_below_zero() -> None:
    m = four(deal_from_tricks(4, PENALTY_TRICKS), dealer=2)
    play_tricks(m, PENALTY_TRICKS)
    assert m.scores == [60, -20, 0, 0]
    sheet = m.view(1)["last_deal"]["sheets"][1]
    assert sheet["card_points"] == 0 and sheet["beutelschneider"] == -20
    assert sheet["hand_total"] == sheet["total"] == -20
    assert not m.is_over and m.deal_no == 2


def test_beutelschneider_is_the_highest_red_card() -> None:
    m = four(deal_with(4, {0: ["r1"], 1: ["rX"], 2: ["r10"], 3: ["r2"]}))
    trick = trick_event(play_cards(m, "r1 rX r10 r2"))
    assert trick["winner"] == 1, "its own player takes the Beutelschneider"
    assert trick["beutelschneider"] == -20
    assert m.view(None)["sheets"][1]["hand_total"] == 1 + 10 + 2 - 20


def test_red_led_must_be_followed_with_red_even_with_the_beutelschneider() -> None:
    m = four(deal_with(4, {0: ["r1"], 1: ["rX", "g1", "bF"]}, {1: "r"}))
    play_cards(m, "r1")
    assert m.legal_actions(1) == ["play:rX"]
    with pytest.raises(IllegalAction, match="follow suit: red"):
        m.apply(1, "play:bF")


def test_a_trump_beats_the_beutelschneider_and_its_winner_takes_the_penalty() -> None:
    m = four(deal_with(4, {0: ["r1"], 1: ["rX"], 2: ["bA"], 3: ["r2"]}, {2: "r"}))
    trick = trick_event(play_cards(m, "r1 rX bA r2"))
    assert trick["winner"] == 2 and trick["beutelschneider"] == -20
    assert m.view(None)["sheets"][2]["beutelschneider"] == -20


def test_three_players_set_aside_cards_are_never_revealed_and_play_no_part() -> None:
    removed = ["g10", "bF"]
    deal = deal_with(3, {}, removed=removed)
    m = new_match("beutelschneider", 3, {"dealer": 0}, seed=5, deals=[deal])
    rng = random.Random(5)
    seen: list[Any] = []
    while m.deal_no == 1:
        seen += [m.view(s) for s in (None, 0, 1, 2)]
        seen += m.apply(*contract.random_step(m, rng))
    last_deal = m.view(0)["last_deal"]
    assert not cards_in(seen) & set(removed)
    assert not cards_in(last_deal) & set(removed)
    assert len(last_deal["tricks"]) == 10
    assert last_deal["set_aside"] == 2
    assert sum(s["card_points"] for s in last_deal["sheets"]) == 60 - 10
    assert not any(b["name"] == "assassin_kills_sovereign"
                   for s in last_deal["sheets"] for b in s["bonuses"])


# ----- rulings: deck and deal -----------------------------------------------------
def test_deck_has_32_cards_red_beutelschneider_on_top_and_five_blue_trumps() -> None:
    assert len(DECK) == len(set(DECK)) == 32
    for suit in "gy":
        assert [c for c in DECK if c[0] == suit] == [
            suit + r for r in ["1", "2", "3", "4", "B", "S", "W", "10", "K"]]
    assert [c for c in DECK if c[0] == "r"] == [
        "r1", "r2", "r3", "r4", "rB", "rS", "rW", "r10", "rX"]
    assert [c for c in DECK if c[0] == "b"] == ["bG", "bM", "bA", "bC", "bF"]


def test_numbered_cards_score_face_value_sixty_in_the_deck() -> None:
    assert card_points("g1") == 1 and card_points("y4") == 4 and card_points("r10") == 10
    assert card_points("gK") == card_points("rX") == card_points("bF") == card_points("yB") == 0
    assert sum(card_points(c) for c in DECK) == 60


def test_four_players_get_eight_cards_each_and_nothing_is_set_aside() -> None:
    m = new_match("beutelschneider", 4, seed=1)
    assert m.view(None)["hand_counts"] == [8, 8, 8, 8]
    assert m.view(None)["set_aside"] == 0
    assert sorted(c for s in range(4) for c in m.view(s)["hand"]) == sorted(DECK)


def test_three_players_set_aside_the_top_two_cards_and_get_ten_each() -> None:
    m = new_match("beutelschneider", 3, {"dealer": 1}, seed=42)
    deck = list(DECK)
    random.Random(42).shuffle(deck)
    state = m.snapshot()["state"]
    assert state["removed"] == deck[:2]
    hands = [m.view(s)["hand"] for s in range(3)]
    assert [len(h) for h in hands] == [10, 10, 10]
    assert sorted([c for h in hands for c in h] + deck[:2]) == sorted(DECK)
    view = m.view(None)
    assert view["set_aside"] == 2 and "removed" not in view


def test_player_counts_outside_three_to_four_are_refused() -> None:
    for players in (2, 5):
        with pytest.raises(ValueError):
            new_match("beutelschneider", players)
    info = GAMES["beutelschneider"]
    assert (info.min_players, info.max_players) == (3, 4)
    assert info.default_options == {"target": 100}


# ----- rulings: play ------------------------------------------------------------------
def test_forehand_left_of_the_dealer_leads_the_first_trick() -> None:
    for dealer in range(4):
        m = new_match("beutelschneider", 4, {"dealer": dealer}, seed=dealer)
        assert m.to_act() == {(dealer + 1) % 4}
        assert m.view(None)["forehand"] == (dealer + 1) % 4


def test_trick_winner_leads_the_next_trick_and_play_goes_clockwise() -> None:
    m = four(deal_with(4, {0: ["g1"], 1: ["g2"], 2: ["gK"], 3: ["g3"]}), dealer=3)
    assert m.to_act() == {0}
    play_cards(m, "g1")
    assert m.to_act() == {1}
    play_cards(m, "g2 gK g3")
    assert m.to_act() == {2}
    assert m.view(None)["leader"] == 2


def test_player_must_follow_the_led_suit_if_able() -> None:
    m = four(deal_with(4, {0: ["y1"], 1: ["y2", "yK"]}, {1: "y"}))
    play_cards(m, "y1")
    assert sorted(m.legal_actions(1)) == ["play:y2", "play:yK"]
    for other in (a for a in m.view(1)["hand"] if a[0] != "y"):
        with pytest.raises(IllegalAction, match="you must follow suit: yellow was led"):
            m.apply(1, "play:" + other)


def test_player_void_in_the_led_suit_may_play_any_card() -> None:
    m = four(deal_with(4, {0: ["y1"]}, {1: "y"}))
    play_cards(m, "y1")
    assert sorted(m.legal_actions(1)) == sorted("play:" + c for c in m.view(1)["hand"])


def test_blue_is_a_suit_to_follow_when_a_trump_is_led() -> None:
    m = four(deal_with(4, {0: ["bG"], 1: ["bM", "g1", "r1"]}, {1: "b"}))
    play_cards(m, "bG")
    assert m.legal_actions(1) == ["play:bM"]


def test_highest_trump_wins_the_trick() -> None:
    m = four(deal_with(4, {0: ["y1"], 1: ["bM"], 2: ["bC"], 3: ["yK"]}, {1: "y", 2: "y"}))
    trick = trick_event(play_cards(m, "y1 bM bC yK"))
    assert trick["winner"] == 2 and trick["winning_card"] == "bC"


def test_without_trumps_highest_card_of_led_suit_wins_and_discards_never_win() -> None:
    m = four(deal_with(4, {0: ["g1"], 1: ["yK"], 2: ["g2"], 3: ["r10"]}, {1: "g", 3: "g"}))
    trick = trick_event(play_cards(m, "g1 yK g2 r10"))
    assert trick["winner"] == 2
    assert trick["points"] == 1 + 2 + 10, "a captured red 10 scores its face value"
    assert m.view(None)["sheets"][2]["card_points"] == 13


# ----- rulings: powers ------------------------------------------------------------------
def test_assassin_after_sovereign_kills_it_and_wins_with_bonus() -> None:
    m = four(deal_with(4, {0: ["g1"], 1: ["bF"], 2: ["bM"], 3: ["g2"]}, {1: "g", 2: "g"}))
    events = play_cards(m, "g1 bF bM g2")
    (power,) = of_type(events, "power")
    assert power == {"type": "power", "power": "assassin", "card": "bM", "seat": 2,
                     "target": "bF", "target_seat": 1, "text": "Assassin kills the Sovereign"}
    trick = trick_event(events)
    assert trick["winner"] == 2 and trick["winning_card"] == "bM"
    assert bonus_names(m.view(None)["sheets"][2]) == ["assassin_kills_sovereign"]


def test_killed_sovereign_cannot_win_and_next_highest_trump_takes_the_trick() -> None:
    m = four(deal_with(4, {0: ["bF"], 1: ["bM"], 2: ["bA"], 3: ["bG"]}))
    events = play_cards(m, "bF bM bA bG")
    trick = trick_event(events)
    assert powers(events) == ["assassin"]
    assert trick["winner"] == 2 and trick["winning_card"] == "bA"
    assert trick["bonuses"] == [], "the Assassin did not win: no bonus"


def test_countess_played_after_adventurer_wins_with_seduction_bonus() -> None:
    m = four(deal_with(4, {0: ["g1"], 1: ["bA"], 2: ["bC"], 3: ["g2"]}, {1: "g", 2: "g"}))
    events = play_cards(m, "g1 bA bC g2")
    assert powers(events) == ["seduction"]
    trick = trick_event(events)
    assert trick["winner"] == 2
    assert [b["name"] for b in trick["bonuses"]] == ["seduction"]


def test_seduction_stays_below_a_living_sovereign() -> None:
    m = four(deal_with(4, {0: ["bC"], 1: ["bA"], 2: ["bF"], 3: ["bG"]}))
    events = play_cards(m, "bC bA bF bG")
    trick = trick_event(events)
    assert trick["winner"] == 2 and trick["winning_card"] == "bF"
    assert trick["bonuses"] == []


def test_with_the_sovereign_killed_the_seducer_wins_and_only_earns_the_seduction_bonus() -> None:
    m = four(deal_with(4, {0: ["bF"], 1: ["bC"], 2: ["bM"], 3: ["bA"]}))
    events = play_cards(m, "bF bC bM bA")
    assert powers(events) == ["assassin", "seduction"]
    trick = trick_event(events)
    assert trick["winner"] == 3 and trick["winning_card"] == "bA"
    assert [b["name"] for b in trick["bonuses"]] == ["seduction"]


def test_guard_cancelling_the_beutelschneider_and_winning_earns_ten() -> None:
    m = four(deal_with(4, {0: ["r1"], 1: ["rX"], 2: ["bG"], 3: ["r2"]}, {2: "r"}))
    events = play_cards(m, "r1 rX bG r2")
    assert powers(events) == ["guard"]
    sheet = m.view(None)["sheets"][2]
    assert sheet["beutelschneider"] == 0 and sheet["beutelschneider_cancelled"]
    assert bonus_names(sheet) == ["guard_cancels_beutelschneider"]
    assert sheet["hand_total"] == 1 + 2 + 10


def test_guard_winning_the_last_trick_earns_ten() -> None:
    m = four(deal_from_tricks(4, GUARD_PLAIN_LAST_TRICKS), dealer=2)
    play_tricks(m, GUARD_PLAIN_LAST_TRICKS)
    sheets = m.view(None)["last_deal"]["sheets"]
    assert bonus_names(sheets[1]) == ["guard_wins_last_trick"]
    assert sheets[1]["hand_total"] == 20 + 10
    assert sheets[0]["card_points"] == 40 and sheets[0]["beutelschneider"] == -20
    assert sheets[0]["hand_total"] == 20
    assert m.scores == [20, 30, 0, 0]


def test_powers_are_public_events_before_the_trick_result() -> None:
    m = four(deal_with(4, {0: ["bF"], 1: ["bC"], 2: ["bM"], 3: ["bA"]}))
    events = play_cards(m, "bF bC bM bA")
    kinds = [e["type"] for e in events]
    assert kinds == ["play"] * 4 + ["power", "power", "trick"]
    texts = [e["text"] for e in of_type(events, "power")]
    assert texts == ["Assassin kills the Sovereign", "Adventurer seduces the Countess"]
    assert [p["power"] for p in m.view(0)["last_trick"]["powers"]] == ["assassin", "seduction"]


# ----- rulings: scoring and the match ------------------------------------------------
def test_hand_score_sheet_lists_points_penalty_bonuses_and_totals() -> None:
    m = four(deal_from_tricks(4, GUARD_LAST_TRICKS), dealer=2)
    play_tricks(m, GUARD_LAST_TRICKS)
    last = m.view(3)["last_deal"]
    assert [t["plays"] for t in last["tricks"]][0] == [
        {"seat": 3, "card": "bM"}, {"seat": 0, "card": "bC"},
        {"seat": 1, "card": "bF"}, {"seat": 2, "card": "bA"}]
    assert [t["winner"] for t in last["tricks"]] == [1, 0, 0, 0, 0, 0, 0, 1]
    assert [s["hand_total"] for s in last["sheets"]] == [40, 40, 0, 0]
    assert [s["total"] for s in last["sheets"]] == [40, 40, 0, 0]
    assert last["sheets"][0] == {
        "seat": 0, "card_points": 40, "beutelschneider": 0,
        "beutelschneider_cancelled": False, "bonuses": [], "hand_total": 40, "total": 40}
    assert [(b["name"], b["points"], b["trick"]) for b in last["sheets"][1]["bonuses"]] == [
        ("guard_cancels_beutelschneider", 10, 8), ("guard_wins_last_trick", 10, 8)]


def test_totals_accumulate_and_the_deal_passes_clockwise() -> None:
    deals = [deal_from_tricks(4, GUARD_PLAIN_LAST_TRICKS),
             deal_from_tricks(4, rotated(GUARD_PLAIN_LAST_TRICKS, 1))]
    m = new_match("beutelschneider", 4, {"dealer": 2}, deals=deals)
    play_tricks(m, GUARD_PLAIN_LAST_TRICKS)
    assert m.scores == [20, 30, 0, 0] and m.dealer == 3 and m.to_act() == {0}
    play_tricks(m, rotated(GUARD_PLAIN_LAST_TRICKS, 1))
    assert m.scores == [20, 50, 30, 0]
    assert m.view(0)["last_deal"]["sheets"][1]["total"] == 50
    assert [r["scores"] for r in m.view(None)["results"]] == [[20, 30, 0, 0], [20, 50, 30, 0]]
    assert m.dealer == 0 and m.deal_no == 3 and not m.is_over


def test_default_target_is_100_points() -> None:
    m = new_match("beutelschneider", 3, seed=3)
    assert m.view(None)["target"] == 100


def test_match_ends_when_a_player_reaches_the_target_and_the_highest_total_wins() -> None:
    m = four(deal_from_tricks(4, GUARD_PLAIN_LAST_TRICKS), dealer=2, target=20)
    events = play_tricks(m, GUARD_PLAIN_LAST_TRICKS)
    assert m.scores == [20, 30, 0, 0], "both reached 20"
    assert m.is_over and m.phase == "over" and m.winners == [1]
    assert of_type(events, "match_end") == [
        {"type": "match_end", "winners": [1], "scores": [20, 30, 0, 0]}]
    assert m.to_act() == set() and m.legal_actions(1) == []
    assert "last_deal" in m.view(None)
    with pytest.raises(IllegalAction, match="over"):
        m.apply(0, "play:g1")


def test_match_goes_on_while_nobody_has_reached_the_target() -> None:
    m = four(deal_from_tricks(4, GUARD_PLAIN_LAST_TRICKS), dealer=2, target=31)
    play_tricks(m, GUARD_PLAIN_LAST_TRICKS)
    assert not m.is_over and m.deal_no == 2 and m.winners == []


def test_a_tie_for_the_highest_total_plays_another_hand() -> None:
    deals = [deal_from_tricks(4, GUARD_LAST_TRICKS),
             deal_from_tricks(4, rotated(GUARD_LAST_TRICKS, 1))]
    m = new_match("beutelschneider", 4, {"dealer": 2, "target": 40}, deals=deals)
    events = play_tricks(m, GUARD_LAST_TRICKS)
    assert m.scores == [40, 40, 0, 0]
    assert not m.is_over and m.winners == [] and m.deal_no == 2
    (tie,) = of_type(events, "tie")
    assert tie["seats"] == [0, 1] and tie["total"] == 40
    play_tricks(m, rotated(GUARD_LAST_TRICKS, 1))
    assert m.scores == [40, 80, 40, 0]
    assert m.is_over and m.winners == [1]


# ----- rulings: general ---------------------------------------------------------------
def test_first_dealer_is_drawn_when_not_given_and_the_same_seed_draws_the_same() -> None:
    dealers = {new_match("beutelschneider", 4, seed=s).dealer for s in range(30)}
    assert dealers == {0, 1, 2, 3}
    assert new_match("beutelschneider", 3, seed=9).dealer == \
        new_match("beutelschneider", 3, seed=9).dealer


def test_without_a_seed_the_shuffle_is_cryptographically_secure() -> None:
    m = new_match("beutelschneider", 3)
    assert isinstance(m.rng, secrets.SystemRandom)
    assert m.snapshot()["rng"] is None


def test_view_shows_own_hand_sorted_and_other_hands_as_counts() -> None:
    m = four(deal_with(4, {0: ["g1", "rX", "bG", "gK", "bF", "y10", "r1", "yB"]}))
    view = m.view(0)
    assert view["hand"] == ["bF", "bG", "gK", "g1", "y10", "yB", "rX", "r1"]
    assert view["hand"] == sort_hand(view["hand"])
    assert view["hand_counts"] == [8, 8, 8, 8]
    assert cards_in(view) == set(view["hand"])
    assert "hand" not in m.view(None) and cards_in(m.view(None)) == set()
    assert view["turn"] == 0 and view["scores"] == [0, 0, 0, 0] and view["deal_no"] == 1
    play_cards(m, "g1")
    assert m.view(2)["trick"] == [{"seat": 0, "card": "g1"}]
    assert m.view(2)["hand_counts"] == [7, 8, 8, 8]


def test_messages_explain_why_an_action_is_refused() -> None:
    m = four(deal_with(4, {0: ["g1"], 1: ["bF"]}))
    with pytest.raises(IllegalAction, match="not your turn"):
        m.apply(1, "play:bF")
    with pytest.raises(IllegalAction, match="you do not hold"):
        m.apply(0, "play:bF")


# ----- stacked deals ------------------------------------------------------------------
@pytest.mark.parametrize("players, deal", [
    (4, {"hands": [DECK[0:8], DECK[8:16], DECK[16:24], DECK[24:31] + ["g1"]]}),
    (4, {"hands": [DECK[0:8], DECK[8:16], DECK[16:24], DECK[24:31]]}),
    (4, {"hands": [DECK[0:9], DECK[9:16], DECK[16:24], DECK[24:32]]}),
    (4, {"hands": [DECK[0:8], DECK[8:16], DECK[16:32]]}),
    (4, {"hands": [DECK[0:8], DECK[8:16], DECK[16:24], DECK[24:30]], "removed": DECK[30:]}),
    (3, {"hands": [DECK[0:10], DECK[10:20], DECK[20:30]]}),
    (3, {"hands": [DECK[0:10], DECK[10:20], DECK[20:30]], "removed": ["g1", "rX"]}),
    (3, {"hands": [DECK[0:10], DECK[10:20], DECK[20:31]], "removed": DECK[31:]}),
    (3, {"hands": [DECK[0:11], DECK[11:20], DECK[20:30]], "removed": DECK[30:]}),
    (3, {"hands": [DECK[0:10], DECK[10:20], DECK[20:30]], "removed": DECK[30:] + ["x"]}),
    (3, {"hands": [DECK[0:10], DECK[10:20], DECK[20:29] + [7]], "removed": DECK[30:]}),
    (3, [DECK[0:10], DECK[10:20], DECK[20:30]]),
    (3, {"hands": [DECK[0:10], DECK[10:20], "abc"], "removed": DECK[30:]}),
])
def test_stacked_deal_that_is_not_the_deck_dealt_right_is_refused(players: int,
                                                                  deal: Any) -> None:
    with pytest.raises(ValueError):
        new_match("beutelschneider", players, deals=[deal])


def test_stacked_deal_is_checked_even_when_it_is_a_later_deal() -> None:
    good = {"hands": [DECK[0:8], DECK[8:16], DECK[16:24], DECK[24:32]]}
    with pytest.raises(ValueError):
        new_match("beutelschneider", 4, deals=[good, {"hands": [DECK[0:8]] * 4}])


def test_stacked_deals_replace_the_shuffle_then_shuffling_resumes() -> None:
    deal = {"hands": [DECK[0:10], DECK[10:20], DECK[20:30]], "removed": DECK[30:]}
    m = new_match("beutelschneider", 3, {"dealer": 0}, seed=8, deals=[deal])
    for seat in range(3):
        assert sorted(m.view(seat)["hand"]) == sorted(deal["hands"][seat])
    contract.play_random(m, random.Random(1), until=lambda m: m.deal_no == 2)
    hands = [sorted(m.view(s)["hand"]) for s in range(3)]
    assert hands != [sorted(h) for h in deal["hands"]]
    assert [len(h) for h in hands] == [10, 10, 10]


# ----- golden playthrough -------------------------------------------------------------
def test_golden_playthrough_of_a_three_player_hand() -> None:
    golden.replay("beutelschneider_hand3")


# ----- properties -------------------------------------------------------------------
seeds = st.integers(min_value=0, max_value=2**32 - 1)
player_counts = st.sampled_from([3, 4])


def play_match_checked(m: Match, rng: random.Random) -> None:
    """Play a random match to its end, checking at every step that no seat and no
    spectator sees a card that is not theirs or face up, and that the cards set
    aside never show anywhere."""
    state = m.snapshot()["state"]
    removed: dict[int, set[str]] = {m.deal_no: set(state["removed"])}
    played: dict[int, set[str]] = {m.deal_no: set()}
    for _ in range(10_000):
        deal_no = m.deal_no
        for seat in [None, *range(m.players)]:
            view = m.view(seat)
            current = {k: v for k, v in view.items() if k != "last_deal"}
            own = set(view.get("hand", []))
            assert cards_in(current) <= own | played[deal_no]
            assert not cards_in(current) & removed[deal_no]
            if "last_deal" in view:
                last_no = view["last_deal"]["deal_no"]
                assert cards_in(view["last_deal"]) <= played[last_no]
                assert not cards_in(view["last_deal"]) & removed[last_no]
        if m.is_over:
            return
        events = m.apply(*contract.random_step(m, rng))
        for event in events:
            if event["type"] == "play":
                played[deal_no].add(event["card"])
        assert cards_in(events) <= played[deal_no]
        assert not cards_in(events) & removed[deal_no]
        if m.deal_no != deal_no:
            assert len(played[deal_no]) == HAND_SIZE[m.players] * m.players
            removed[m.deal_no] = set(m.snapshot()["state"]["removed"])
            played[m.deal_no] = set()
    raise AssertionError("the match did not end")


@settings(max_examples=12, deadline=None)
@given(seed=seeds, players=player_counts)
def test_no_view_or_event_shows_a_hidden_card_and_set_aside_cards_never_show(
        seed: int, players: int) -> None:
    m = new_match("beutelschneider", players, seed=seed)
    play_match_checked(m, random.Random(seed))
    assert m.is_over and len(m.winners) == 1


@settings(max_examples=25, deadline=None)
@given(seed=seeds, players=player_counts)
def test_numbered_card_points_total_sixty_per_hand_and_totals_add_up(
        seed: int, players: int) -> None:
    m = new_match("beutelschneider", players, seed=seed)
    rng = random.Random(seed)
    totals = [0] * players
    while not m.is_over:
        aside = m.snapshot()["state"]["removed"]
        deal_no = m.deal_no
        contract.play_random(m, rng, until=lambda m, d=deal_no: m.deal_no != d)
        last = m.view(None)["last_deal"]
        assert last["deal_no"] == deal_no
        sheets = last["sheets"]
        assert sum(s["card_points"] for s in sheets) == 60 - sum(card_points(c) for c in aside)
        assert sum(s["beutelschneider"] for s in sheets) in (0, -20)
        for seat, sheet in enumerate(sheets):
            lines = sheet["card_points"] + sheet["beutelschneider"] + sum(
                b["points"] for b in sheet["bonuses"])
            assert sheet["hand_total"] == lines
            assert all(b["points"] == 10 for b in sheet["bonuses"])
            assert sheet["total"] == totals[seat] + sheet["hand_total"]
            totals[seat] = sheet["total"]
        assert m.scores == totals == last["scores"]
    target = m.options["target"]
    assert max(m.scores) >= target
    assert m.winners == [m.scores.index(max(m.scores))]
    assert m.scores.count(max(m.scores)) == 1
    results = m.view(0)["results"]
    assert [r["scores"] for r in results][-1] == m.scores
    assert all(max(r["scores"]) < target or r["scores"].count(max(r["scores"])) > 1
               for r in results[:-1]), "the match ended at the first hand it could"


@settings(max_examples=20, deadline=None)
@given(seed=seeds, players=player_counts, steps=st.integers(min_value=0, max_value=70))
def test_illegal_and_malformed_actions_raise_and_change_nothing(
        seed: int, players: int, steps: int) -> None:
    m = new_match("beutelschneider", players, seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        m.apply(*contract.random_step(m, rng))
    contract.check_illegal_and_malformed(m, rng)
    seat = next(iter(m.to_act()))
    for card in set(DECK) - set(m.view(seat)["hand"]):
        contract.assert_refused_unchanged(m, seat, "play:" + card)
    contract.assert_refused_unchanged(m, seat, " " + m.legal_actions(seat)[0])


@settings(max_examples=15, deadline=None)
@given(seed=seeds, players=player_counts, steps=st.integers(min_value=0, max_value=60))
def test_snapshot_json_restore_continues_identically(seed: int, players: int,
                                                     steps: int) -> None:
    m = new_match("beutelschneider", players, seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        m.apply(*contract.random_step(m, rng))
    # 70 more steps always cross into a freshly shuffled deal
    contract.check_snapshot_roundtrip(m, seed, steps=70)


@settings(max_examples=10, deadline=None)
@given(seed=seeds, players=player_counts)
def test_same_seed_same_actions_give_the_same_match(seed: int, players: int) -> None:
    a = new_match("beutelschneider", players, seed=seed)
    b = new_match("beutelschneider", players, seed=seed)
    ra, rb = random.Random(seed), random.Random(seed)
    while not a.is_over:
        step_a, step_b = contract.random_step(a, ra), contract.random_step(b, rb)
        assert step_a == step_b
        assert a.apply(*step_a) == b.apply(*step_b)
    assert b.is_over and contract.state_of(a) == contract.state_of(b)


def test_restored_finished_match_stays_over() -> None:
    m = new_match("beutelschneider", 4, seed=77)
    contract.play_random(m, random.Random(77))
    copy = restore(json.loads(json.dumps(m.snapshot())))
    assert copy.is_over and copy.winners == m.winners and copy.scores == m.scores
    assert copy.view(2) == m.view(2)


def test_a_snapshot_saved_when_results_said_totals_resumes_the_same() -> None:
    m = new_match("beutelschneider", 4, {"dealer": 0}, seed=21)
    contract.play_random(m, random.Random(21), until=lambda m: m.view(None)["results"])
    old = m.snapshot()
    for result in old["state"]["results"]:  # the shape saved by the version before
        result["totals"] = result.pop("scores")
    resumed = restore(json.loads(json.dumps(old)))
    assert resumed.view(0) == m.view(0)
    assert resumed.view(None)["results"][0]["scores"] == m.scores


def test_each_bonus_names_the_cards_of_the_trick_it_was_won_with() -> None:
    """``BONUS_CARDS`` (what a bot reads off the public score sheet) holds for every
    bonus the trick rules award: its cards were in the trick."""
    rng = random.Random(7)
    awarded: set[str] = set()
    assert set(BONUS_CARDS) == set(BONUS_LABELS)
    for _ in range(20_000):
        cards = rng.sample(DECK, rng.choice((3, 4)))
        trick = resolve_trick([{"seat": s, "card": c} for s, c in enumerate(cards)],
                              last=rng.random() < 0.3)
        for bonus in trick["bonuses"]:
            assert set(BONUS_CARDS[bonus["name"]]) <= set(cards), (cards, bonus["name"])
            awarded.add(bonus["name"])
    assert awarded == set(BONUS_CARDS)

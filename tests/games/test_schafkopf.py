"""Schafkopf, the rotating-trump variant (seed 001 and docs/rules/schafkopf.md), as tests.

The rules are restated here (rank orders, card points, units) instead of imported
from the engine, so every expectation is checked against the rules, not against
the code under test. Whole deals are stacked as eight single-suit tricks: when all
four cards of a trick share one suit every play follows suit, so any such plan is
playable, and the holder of the trick's strongest card decides who takes it.
"""

from __future__ import annotations

import itertools
import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tests.games.goldens  # noqa: F401  (registers the golden cases)
from app.games import IllegalAction, Match, new_match, restore
from tests.games import contract, golden

SUITS = ["E", "G", "H", "S"]
RANKS = ["A", "10", "K", "O", "U", "9", "8", "7"]
DECK = [s + r for s in SUITS for r in RANKS]
TRUMP_ORDER = ["O", "U", "A", "10", "K", "9", "8", "7"]  # strongest first
SIDE_ORDER = ["A", "10", "K", "O", "U", "9", "8", "7"]
POINTS = {"A": 11, "10": 10, "K": 4, "O": 3, "U": 2, "9": 0, "8": 0, "7": 0}
TEAM_SEATS = [[0, 2], [1, 3]]

PROPERTY = settings(max_examples=60, deadline=None, database=None,
                    suppress_health_check=[HealthCheck.too_slow])
seeds = st.integers(min_value=0, max_value=2**32 - 1)


# ----- the rules, restated as a small oracle ---------------------------------------
def suit(card: str) -> str:
    return card[0]


def rank(card: str) -> str:
    return card[1:]


def points_of(cards: list[str]) -> int:
    return sum(POINTS[rank(c)] for c in cards)


def units_for(points: int) -> int:
    """Units a team wins with ``points`` card points of 120 (0: no win)."""
    return 2 if points >= 91 else 1 if points >= 61 else 0


def trick_winner_index(cards: list[str], trump: str) -> int:
    """Index (in play order) of the card that takes the trick, by the rules."""

    def strength(card: str) -> tuple[int, int]:
        if suit(card) == trump:
            return (2, -TRUMP_ORDER.index(rank(card)))
        if suit(card) == suit(cards[0]):
            return (1, -SIDE_ORDER.index(rank(card)))
        return (0, 0)  # a discard

    return max(range(len(cards)), key=lambda i: strength(cards[i]))


def team(seat: int) -> int:
    return seat % 2


# ----- helpers driving the engine through its public surface ------------------
def play(m: Match, seat: int, card: str) -> list[dict[str, Any]]:
    return m.apply(seat, "play:" + card)


def events_of(events: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [e for e in events if e["type"] == kind]


def shuffled_deal(rng: random.Random) -> dict[str, Any]:
    deck = list(DECK)
    rng.shuffle(deck)
    return {"hands": [deck[i * 8:(i + 1) * 8] for i in range(4)]}


def first_trick_deal(first: list[str], dealer: int = 3,
                     holdings: dict[int, list[str]] | None = None) -> dict[str, Any]:
    """Hands in which forehand and the next three seats can play ``first`` in order.

    Every other card of the led suit goes to forehand, so a later seat whose card is
    of another suit is void in the led suit. ``holdings``: further cards a seat holds.
    """
    forehand = (dealer + 1) % 4
    hands: list[list[str]] = [[] for _ in range(4)]
    for i, card in enumerate(first):
        hands[(forehand + i) % 4].append(card)
    for seat, cards in (holdings or {}).items():
        hands[seat].extend(cards)
    used = {c for h in hands for c in h}
    led = suit(first[0])
    hands[forehand].extend(c for c in DECK if c not in used and suit(c) == led)
    for card in (c for c in DECK if c not in used and suit(c) != led):
        next(h for h in hands if len(h) < 8).append(card)
    assert all(len(h) == 8 for h in hands)
    for i, card in enumerate(first[1:], start=1):
        if suit(card) != led:
            assert not any(suit(c) == led for c in hands[(forehand + i) % 4])
    return {"hands": hands}


def play_first_trick(first: list[str], dealer: int = 3,
                     holdings: dict[int, list[str]] | None = None) -> tuple[Match, dict]:
    m = new_match("schafkopf", 4, {"dealer": dealer},
                  deals=[first_trick_deal(first, dealer, holdings)])
    forehand = (dealer + 1) % 4
    events: list[dict[str, Any]] = []
    for i, card in enumerate(first):
        events = play(m, (forehand + i) % 4, card)
    (trick,) = events_of(events, "trick")
    return m, trick


def suit_amounts(cards: list[str]) -> dict[int, list[tuple[list[str], int]]]:
    """Ways to split one suit into two tricks of four: team-0 points -> [(trick, team)]."""
    ways: dict[int, list[tuple[list[str], int]]] = {}
    for chosen in itertools.combinations(cards, 4):
        a = list(chosen)
        b = [c for c in cards if c not in chosen]
        for team_a, team_b in itertools.product((0, 1), repeat=2):
            got = (points_of(a) if team_a == 0 else 0) + (points_of(b) if team_b == 0 else 0)
            ways.setdefault(got, [(a, team_a), (b, team_b)])
    return ways


def deal_plan(team0_points: int, trump: str) -> list[list[str]]:
    """Eight single-suit tricks (each a card per seat 0..3) that give team 0 exactly
    ``team0_points``: the strongest card of each trick sits with the team taking it."""
    per_suit = [suit_amounts([s + r for r in RANKS]) for s in SUITS]

    def solve(i: int, need: int) -> list[tuple[list[str], int]] | None:
        if i == len(per_suit):
            return [] if need == 0 else None
        for amount in sorted(per_suit[i], reverse=True):
            if amount <= need:
                rest = solve(i + 1, need - amount)
                if rest is not None:
                    return per_suit[i][amount] + rest
        return None

    tricks = solve(0, team0_points)
    assert tricks is not None, f"no plan for {team0_points} points"
    plan = []
    for n, (cards, taker) in enumerate(tricks):
        best = cards[trick_winner_index(cards, trump)]
        seat_of_best = TEAM_SEATS[taker][n % 2]
        others = [c for c in cards if c != best]
        row = []
        for seat in range(4):
            row.append(best if seat == seat_of_best else others.pop())
        plan.append(row)
    return plan


def plan_hands(plan: list[list[str]]) -> dict[str, Any]:
    return {"hands": [[trick[seat] for trick in plan] for seat in range(4)]}


def play_plan(m: Match, plan: list[list[str]]) -> list[dict[str, Any]]:
    """Play a stacked plan; checks forehand leads and each trick winner leads next."""
    trump = m.view(None)["trump"]
    leader = m.view(None)["forehand"]
    events: list[dict[str, Any]] = []
    for row in plan:
        assert m.to_act() == {leader}, "the seat that must lead is the one to act"
        order = [(leader + i) % 4 for i in range(4)]
        for seat in order:
            events += play(m, seat, row[seat])
        expected = order[trick_winner_index([row[s] for s in order], trump)]
        assert events_of(events, "trick")[-1]["winner"] == expected
        leader = expected
    return events


# ----- deal and trump ----------------------------------------------------------------
@pytest.mark.parametrize("deal_no,trump", [(1, "E"), (2, "G"), (3, "H"), (4, "S"), (5, "E")])
def test_trump_suit_rotates_e_g_h_s_by_deal_number(deal_no: int, trump: str) -> None:
    rng = random.Random(deal_no)
    side = next(s for s in SUITS if s != trump)
    deals = [shuffled_deal(rng) for _ in range(deal_no - 1)]
    deals.append(first_trick_deal([side + "A", trump + "7", side + "7", side + "8"],
                                  dealer=(3 + deal_no - 1) % 4))
    m = new_match("schafkopf", 4, {"dealer": 3, "target": 99}, seed=deal_no, deals=deals)
    contract.play_random(m, rng, until=lambda m: m.view(None)["deal_no"] == deal_no)
    for seat in [None, 0, 1, 2, 3]:
        assert m.view(seat)["trump"] == trump
    # and that suit really is trump: its 7 takes a side-suit Ace
    forehand = m.view(None)["forehand"]
    events: list[dict[str, Any]] = []
    for i, card in enumerate([side + "A", trump + "7", side + "7", side + "8"]):
        events += play(m, (forehand + i) % 4, card)
    assert events_of(events, "trick")[0]["winner"] == (forehand + 1) % 4


def test_each_deal_end_announces_the_next_deals_trump_and_dealer() -> None:
    m = new_match("schafkopf", 4, {"dealer": 1, "target": 99}, seed=5)
    rng = random.Random(5)
    announced = []
    while len(announced) < 5:
        seat, action = contract.random_step(m, rng)
        announced += events_of(m.apply(seat, action), "deal")
    for event in announced:
        assert event["trump"] == SUITS[(event["deal_no"] - 1) % 4]
        assert event["dealer"] == (1 + event["deal_no"] - 1) % 4


# ----- ranking ------------------------------------------------------------------------
@pytest.mark.parametrize("stronger_first", [True, False], ids=["stronger-leads", "weaker-leads"])
@pytest.mark.parametrize("stronger,weaker", list(itertools.combinations(TRUMP_ORDER, 2)))
def test_inside_trump_ober_unter_ace_ten_king_nine_eight_seven(
        stronger: str, weaker: str, stronger_first: bool) -> None:
    # deal 1: Eichel is trump; the last two seats are void in trump and discard Aces
    pair = ["E" + stronger, "E" + weaker] if stronger_first else ["E" + weaker, "E" + stronger]
    _, trick = play_first_trick(pair + ["GA", "HA"])
    assert trick["winner"] == (0 if stronger_first else 1)


@pytest.mark.parametrize("stronger_first", [True, False], ids=["stronger-leads", "weaker-leads"])
@pytest.mark.parametrize("stronger,weaker", list(itertools.combinations(SIDE_ORDER, 2)))
def test_in_side_suits_ace_ten_king_ober_unter_nine_eight_seven(
        stronger: str, weaker: str, stronger_first: bool) -> None:
    # deal 1: Gras is a side suit; the last two seats discard Herz and Schellen Aces
    pair = ["G" + stronger, "G" + weaker] if stronger_first else ["G" + weaker, "G" + stronger]
    _, trick = play_first_trick(pair + ["HA", "SA"])
    assert trick["winner"] == (0 if stronger_first else 1)


@pytest.mark.parametrize("trick,winner", [
    (["GA", "E7", "G10", "GK"], 1),   # the lowest trump takes the led Ace
    (["GA", "E7", "E8", "G10"], 2),   # a higher trump over-trumps
    (["H10", "HA", "E9", "EK"], 3),
])
def test_any_trump_beats_every_card_of_a_side_suit(trick: list[str], winner: int) -> None:
    _, event = play_first_trick(trick)
    assert event["winner"] == winner


@pytest.mark.parametrize("trick", [
    ["G7", "HA", "SA", "H10"],   # side Aces of other suits
    ["G7", "HO", "SO", "HU"],    # side Obers and Unters are no trumps here
    ["S7", "GA", "HA", "G10"],
    ["E7", "GA", "HA", "SA"],    # a trump lead with only discards after it
])
def test_discards_never_win_a_trick(trick: list[str]) -> None:
    _, event = play_first_trick(trick)
    assert event["winner"] == 0
    assert event["points"] == points_of(trick)


def test_non_trump_ober_follows_its_own_suit() -> None:
    # deal 1, Eichel trump; seat 1 holds Gras Ober, no other Gras, and trumps
    deal = first_trick_deal(["GA", "GO", "G7", "G8"], holdings={1: ["EO", "EU", "E7"]})
    assert [c for c in deal["hands"][1] if suit(c) == "G"] == ["GO"]
    m = new_match("schafkopf", 4, {"dealer": 3}, deals=[deal])
    play(m, 0, "GA")
    assert m.legal_actions(1) == ["play:GO"]
    with pytest.raises(IllegalAction, match="follow suit"):
        play(m, 1, "EO")
    play(m, 1, "GO")
    play(m, 2, "G7")
    events = play(m, 3, "G8")
    assert events_of(events, "trick")[0]["winner"] == 0


def test_side_ober_is_not_a_trump() -> None:
    # a trump is led: a seat holding a trump must play it, not the side Ober
    deal = first_trick_deal(["E7", "E8", "GO", "HA"], holdings={1: ["SO"]})
    m = new_match("schafkopf", 4, {"dealer": 3}, deals=[deal])
    play(m, 0, "E7")
    assert m.legal_actions(1) == ["play:E8"]
    with pytest.raises(IllegalAction):
        play(m, 1, "SO")
    play(m, 1, "E8")
    # seat 2 has no trump at all: the Gras Ober is one of any cards it may discard
    assert sorted(m.legal_actions(2)) == sorted("play:" + c for c in m.view(2)["hand"])
    play(m, 2, "GO")
    events = play(m, 3, "HA")
    assert events_of(events, "trick")[0]["winner"] == 1


# ----- who leads ------------------------------------------------------------------------
@pytest.mark.parametrize("dealer", [0, 1, 2, 3])
def test_forehand_left_of_the_dealer_leads_the_first_trick(dealer: int) -> None:
    m = new_match("schafkopf", 4, {"dealer": dealer}, seed=dealer)
    forehand = (dealer + 1) % 4
    assert m.to_act() == {forehand}
    assert m.view(None)["forehand"] == forehand
    for seat in range(4):
        assert bool(m.legal_actions(seat)) == (seat == forehand)


@pytest.mark.parametrize("first,taker", [
    (["G7", "G8", "GA", "G9"], 2),
    (["G7", "E7", "G8", "G9"], 1),
    (["HA", "H7", "H8", "E7"], 3),
    (["SA", "S7", "S8", "S9"], 0),
])
def test_the_trick_winner_leads_the_next_trick(first: list[str], taker: int) -> None:
    m, trick = play_first_trick(first)
    assert trick["winner"] == taker
    assert m.to_act() == {taker}
    assert m.view(None)["leader"] == taker
    assert m.view(None)["last_trick"]["winner"] == taker


def test_forehand_of_the_next_deal_leads_after_the_dealer_moves_on() -> None:
    plans = [deal_plan(61, "E"), deal_plan(30, "G")]
    m = new_match("schafkopf", 4, {"dealer": 2}, deals=[plan_hands(p) for p in plans])
    play_plan(m, plans[0])
    assert m.view(None)["dealer"] == 3
    assert m.to_act() == {0}
    play_plan(m, plans[1])
    assert m.view(None)["dealer"] == 0
    assert m.to_act() == {1}


# ----- scoring -------------------------------------------------------------------------
UNITS_TABLE = [
    # card points of team 0 (team 1 has the rest of 120), units won by [team 0, team 1]
    (61, [1, 0]),
    (90, [1, 0]),
    (91, [2, 0]),
    (120, [2, 0]),
    (60, [0, 0]),
    (59, [0, 1]),
    (30, [0, 1]),
    (29, [0, 2]),
    (0, [0, 2]),
]


@pytest.mark.parametrize("team0_points,units", UNITS_TABLE)
def test_units_61_wins_one_91_wins_two_schneider_and_60_60_is_a_draw(
        team0_points: int, units: list[int]) -> None:
    plan = deal_plan(team0_points, "E")
    m = new_match("schafkopf", 4, {"dealer": 3}, deals=[plan_hands(plan)])
    events = play_plan(m, plan)
    (end,) = events_of(events, "deal_end")
    assert end["points"] == [team0_points, 120 - team0_points]
    assert end["units"] == units
    assert end["schneider"] == (max(units) == 2)
    assert end["draw"] == (units == [0, 0])
    assert end["winner_team"] == (None if units == [0, 0] else units.index(max(units)))
    last = m.view(None)["last_deal"]
    assert last["points"] == end["points"] and last["units"] == units
    assert m.scores == [units[0], units[1], units[0], units[1]]
    assert not m.is_over and m.view(None)["deal_no"] == 2


def test_a_drawn_deal_scores_nothing_and_play_goes_on() -> None:
    plan = deal_plan(60, "E")
    m = new_match("schafkopf", 4, {"dealer": 3, "target": 1}, deals=[plan_hands(plan)])
    events = play_plan(m, plan)
    assert events_of(events, "deal_end")[0]["draw"] is True
    assert m.scores == [0, 0, 0, 0] and m.winners == [] and not m.is_over
    assert m.phase == "play" and m.view(None)["trump"] == "G"


def test_target_one_ends_the_match_after_the_first_non_drawn_deal() -> None:
    plans = [deal_plan(60, "E"), deal_plan(60, "G"), deal_plan(59, "H")]
    m = new_match("schafkopf", 4, {"dealer": 3, "target": 1},
                  deals=[plan_hands(p) for p in plans])
    play_plan(m, plans[0])
    play_plan(m, plans[1])
    assert not m.is_over
    events = play_plan(m, plans[2])
    assert m.is_over and m.phase == "over"
    assert m.winners == [1, 3]
    assert m.scores == [0, 1, 0, 1]
    assert events_of(events, "match_end")[0]["winners"] == [1, 3]
    assert m.view(2)["last_deal"]["points"] == [59, 61]


@pytest.mark.parametrize("sequence", [
    [120, 0, 91, 61, 60, 120, 90, 0, 120, 61, 30, 120],  # team 0 gets there first
    [0, 59, 29, 60, 61, 0, 30, 0, 120, 0],               # team 1 gets there first
])
def test_match_ends_at_eleven_units_with_both_partners_as_winners(sequence: list[int]) -> None:
    plans = [deal_plan(p, SUITS[i % 4]) for i, p in enumerate(sequence)]
    m = new_match("schafkopf", 4, {"dealer": 0}, deals=[plan_hands(p) for p in plans])
    assert m.options["target"] == 11
    totals = [0, 0]
    for plan, team0_points in zip(plans, sequence, strict=True):
        assert not m.is_over
        play_plan(m, plan)
        totals[0] += units_for(team0_points)
        totals[1] += units_for(120 - team0_points)
        assert m.scores == [totals[0], totals[1], totals[0], totals[1]]
        if max(totals) >= 11:
            break
    assert max(totals) >= 11, "the scenario reaches the target"
    assert m.is_over and m.to_act() == set()
    assert m.winners == TEAM_SEATS[totals.index(max(totals))]
    assert m.view(None)["winners"] == m.winners
    assert "last_deal" in m.view(0)
    with pytest.raises(IllegalAction, match="over"):
        m.apply(0, "play:EA")


# ----- random legal games (Hypothesis) ----------------------------------------------
def walk_strings(obj: Any) -> list[str]:
    if isinstance(obj, str):
        return [obj]
    if isinstance(obj, dict):
        return [s for k, v in obj.items() for s in (*walk_strings(k), *walk_strings(v))]
    if isinstance(obj, list):
        return [s for item in obj for s in walk_strings(item)]
    return []


def random_match(seed: int, pick: int, target: int, observe: Any) -> Match:
    """Play a random legal match; ``observe(m, seat, action, events)`` after each step."""
    m = new_match("schafkopf", 4, {"target": target}, seed=seed)
    rng = random.Random(pick)
    while not m.is_over:
        seat, action = contract.random_step(m, rng)
        observe(m, seat, action, m.apply(seat, action))
    return m


@PROPERTY
@given(seed=seeds, pick=seeds, target=st.integers(1, 3))
def test_every_deal_holds_120_points_and_plays_every_card_exactly_once(
        seed: int, pick: int, target: int) -> None:
    played: list[str] = []
    deals = []

    def observe(m: Match, seat: int, action: str, events: list[dict[str, Any]]) -> None:
        played.extend(e["card"] for e in events_of(events, "play"))
        for end in events_of(events, "deal_end"):
            assert sum(end["points"]) == 120
            assert sorted(played) == sorted(DECK)
            last = m.view(seat)["last_deal"]
            assert sum(last["points"]) == 120
            cards = [c for t in last["tricks"] for _, c in t["plays"]]
            assert sorted(cards) == sorted(DECK)
            deals.append(end)
            played.clear()

    m = random_match(seed, pick, target, observe)
    assert deals and deals[-1]["total_units"] == [m.scores[0], m.scores[1]]


@PROPERTY
@given(seed=seeds, pick=seeds)
def test_every_trick_and_deal_is_scored_as_the_rules_say(seed: int, pick: int) -> None:
    trick: list[tuple[int, str]] = []
    taken = [0, 0]
    units = [0, 0]
    trump = ["E"]  # deal 1

    def observe(m: Match, seat: int, action: str, events: list[dict[str, Any]]) -> None:
        for event in events:
            if event["type"] == "play":
                trick.append((event["seat"], event["card"]))
            elif event["type"] == "trick":
                cards = [c for _, c in trick]
                assert event["cards"] == cards
                assert event["winner"] == trick[trick_winner_index(cards, trump[0])][0]
                assert event["points"] == points_of(cards)
                taken[team(event["winner"])] += event["points"]
                trick.clear()
            elif event["type"] == "deal_end":
                assert event["points"] == taken
                won = [units_for(taken[0]), units_for(taken[1])]
                assert event["units"] == won
                units[0] += won[0]
                units[1] += won[1]
                assert event["total_units"] == units
                taken[:] = [0, 0]
            elif event["type"] == "deal":
                trump[0] = SUITS[(event["deal_no"] - 1) % 4]
                assert m.view(None)["trump"] == trump[0]

    m = random_match(seed, pick, 2, observe)
    assert m.winners == TEAM_SEATS[units.index(max(units))]
    assert m.scores == [units[0], units[1], units[0], units[1]]


@PROPERTY
@given(seed=seeds, pick=seeds)
def test_views_and_events_never_hold_a_card_another_seat_still_holds(
        seed: int, pick: int) -> None:
    face_up: set[str] = set()

    def observe(m: Match, seat: int, action: str, events: list[dict[str, Any]]) -> None:
        face_up.add(action[len("play:"):])
        shown = {s for s in walk_strings(events) if s in DECK}
        assert shown <= face_up, "events show only cards played face up"
        if events_of(events, "deal_end"):
            face_up.clear()
        hands = [m.view(s)["hand"] for s in range(4)]
        assert "hand" not in m.view(None)
        for viewer in [None, 0, 1, 2, 3]:
            view = m.view(viewer)
            json.dumps(view)
            view.pop("last_deal", None)  # the finished deal: every card face up
            strings = walk_strings(view)
            for other in range(4):
                if other == viewer:
                    continue
                for card in hands[other]:
                    assert not any(card in s for s in strings), (viewer, other, card)
            assert view["hand_counts"] == [len(h) for h in hands]

    random_match(seed, pick, 1, observe)


@PROPERTY
@given(seed=seeds, pick=seeds)
def test_only_the_seat_to_act_has_legal_actions_and_they_follow_suit(
        seed: int, pick: int) -> None:
    def observe(m: Match, seat: int, action: str, events: list[dict[str, Any]]) -> None:
        if m.is_over:
            assert m.to_act() == set()
            assert all(m.legal_actions(s) == [] for s in range(4))
            return
        (turn,) = m.to_act()
        for s in range(4):
            assert bool(m.legal_actions(s)) == (s == turn)
        hand = m.view(turn)["hand"]
        trick = m.view(turn)["trick"]
        led = [c for c in hand if trick and suit(c) == suit(trick[0]["card"])]
        allowed = led or hand
        assert sorted(m.legal_actions(turn)) == sorted("play:" + c for c in allowed)

    random_match(seed, pick, 1, observe)


@PROPERTY
@given(seed=seeds, pick=seeds, stop=st.integers(0, 120))
def test_illegal_and_malformed_actions_raise_and_change_nothing(
        seed: int, pick: int, stop: int) -> None:
    m = new_match("schafkopf", 4, {"target": 2}, seed=seed)
    rng = random.Random(pick)
    contract.advance(m, rng, stop)
    contract.check_illegal_and_malformed(m, rng)


def test_a_finished_match_refuses_everything() -> None:
    m = new_match("schafkopf", 4, {"target": 1}, seed=3)
    rng = random.Random(3)
    contract.play_random(m, rng)
    assert m.is_over
    contract.check_illegal_and_malformed(m, rng)
    for seat in range(4):
        for card in DECK:
            contract.assert_refused_unchanged(m, seat, "play:" + card)


def test_playing_a_card_you_do_not_hold_is_refused_with_a_reason() -> None:
    m = new_match("schafkopf", 4, {"dealer": 3}, seed=11)
    foreign = m.view(2)["hand"][0]
    with pytest.raises(IllegalAction, match=f"do not hold '{foreign}'"):
        play(m, 0, foreign)
    contract.assert_refused_unchanged(m, 0, "play:" + foreign)
    contract.assert_refused_unchanged(m, 0, "play:EX")


def test_not_following_suit_is_refused_with_a_reason() -> None:
    m = new_match("schafkopf", 4, {"dealer": 3},
                  deals=[first_trick_deal(["G7", "G8", "G9", "GA"], holdings={1: ["HA"]})])
    play(m, 0, "G7")
    with pytest.raises(IllegalAction, match="follow suit.*Gras"):
        play(m, 1, "HA")
    contract.assert_refused_unchanged(m, 1, "play:HA")
    play(m, 1, "G8")


def test_acting_out_of_turn_is_refused_with_a_reason() -> None:
    m = new_match("schafkopf", 4, {"dealer": 3}, seed=4)
    own = m.view(2)["hand"][0]
    with pytest.raises(IllegalAction, match="not your turn"):
        play(m, 2, own)
    contract.assert_refused_unchanged(m, 2, "play:" + own)


@pytest.mark.parametrize("spelling", ["play:{c} ", " play:{c}", "PLAY:{c}", "play: {c}",
                                      "play:{c},{c}", "play:{lower}", "play{c}", "{c}"])
def test_other_spellings_of_a_legal_play_are_refused(spelling: str) -> None:
    m = new_match("schafkopf", 4, {"dealer": 3}, seed=8)
    card = m.view(0)["hand"][0]
    contract.assert_refused_unchanged(m, 0, spelling.format(c=card, lower=card.lower()))
    assert "play:" + card in m.legal_actions(0)


# ----- snapshots and determinism --------------------------------------------------
@PROPERTY
@given(seed=seeds, pick=seeds, stop=st.integers(0, 200))
def test_snapshot_json_restore_continues_identically(seed: int, pick: int, stop: int) -> None:
    m = new_match("schafkopf", 4, {"target": 3}, seed=seed)
    rng = random.Random(pick)
    contract.advance(m, rng, stop)
    contract.check_snapshot_roundtrip(m, pick, steps=80)  # crosses into later deals


@PROPERTY
@given(pick=seeds, stop=st.integers(0, 31))
def test_unseeded_match_restored_mid_deal_continues_identically(pick: int, stop: int) -> None:
    m = new_match("schafkopf", 4)
    rng = random.Random(pick)
    for _ in range(stop):
        m.apply(*contract.random_step(m, rng))
    left = sum(m.view(None)["hand_counts"])
    contract.check_snapshot_roundtrip(m, pick, steps=left - 1)
    # the deal's last card ends it the same way in both; the next shuffle is fresh
    copy = restore(json.loads(json.dumps(m.snapshot())))
    seat, action = contract.random_step(m, random.Random(pick))
    events = m.apply(seat, action)
    assert copy.apply(seat, action) == events
    assert copy.view(None)["last_deal"] == m.view(None)["last_deal"]
    (end,) = events_of(events, "deal_end")
    assert sum(end["points"]) == 120


@PROPERTY
@given(seed=seeds, pick=seeds)
def test_same_seed_and_same_actions_give_the_same_match(seed: int, pick: int) -> None:
    a = new_match("schafkopf", 4, {"target": 2}, seed=seed)
    b = new_match("schafkopf", 4, {"target": 2}, seed=seed)
    assert contract.state_of(a) == contract.state_of(b)
    rng = random.Random(pick)
    while not a.is_over:
        seat, action = contract.random_step(a, rng)
        assert a.apply(seat, action) == b.apply(seat, action)
        assert a.view(seat) == b.view(seat)
    assert b.is_over and a.winners == b.winners and a.scores == b.scores
    assert contract.state_of(a) == contract.state_of(b)


def test_views_and_events_are_copies_of_the_match_state() -> None:
    plans = [deal_plan(91, "E")]
    m = new_match("schafkopf", 4, {"dealer": 3, "target": 1}, deals=[plan_hands(plans[0])])
    events = play_plan(m, plans[0])
    before = contract.state_of(m)
    for viewer in [None, 0, 1, 2, 3]:
        view = m.view(viewer)
        view["teams"][0].append(9)
        view["last_deal"]["points"].append(1)
        view["winners"].clear()
    for event in events:
        for value in event.values():
            if isinstance(value, list):
                value.append(99)
    assert contract.state_of(m) == before
    assert m.view(None)["teams"] == TEAM_SEATS
    fresh = new_match("schafkopf", 4, {"dealer": 3, "target": 1}, deals=[plan_hands(plans[0])])
    play_plan(fresh, plans[0])
    assert fresh.winners == [0, 2]


# ----- stacked deals ------------------------------------------------------------------
def _good() -> dict[str, Any]:
    return shuffled_deal(random.Random(1))


def _with(change: Any) -> list[Any]:
    deal = _good()
    change(deal)
    return [deal]


BAD_DEALS = {
    "duplicate card": lambda: _with(lambda d: d["hands"][0].__setitem__(0, d["hands"][1][0])),
    "unknown card": lambda: _with(lambda d: d["hands"][3].__setitem__(7, "EX")),
    "nine and seven cards": lambda: _with(lambda d: d["hands"][0].append(d["hands"][1].pop())),
    "missing seat": lambda: _with(lambda d: d["hands"].pop()),
    "five seats": lambda: _with(lambda d: d["hands"].append([])),
    "no hands": lambda: [{"cards": DECK}],
    "not a dict": lambda: [DECK],
    "a hand as one string": lambda: _with(lambda d: d["hands"].__setitem__(
        0, "".join(d["hands"][0]))),
    "card not a string": lambda: _with(lambda d: d["hands"][1].__setitem__(0, ["EA"])),
    "bad second deal": lambda: [_good(), _with(lambda d: d["hands"].pop())[0]],
}


@pytest.mark.parametrize("name", list(BAD_DEALS))
def test_a_stacked_deal_that_is_not_the_deck_raises_value_error(name: str) -> None:
    with pytest.raises(ValueError):
        new_match("schafkopf", 4, deals=BAD_DEALS[name]())


def test_a_stacked_deal_is_dealt_as_given_and_later_deals_use_the_whole_deck() -> None:
    deal = _good()
    m = new_match("schafkopf", 4, {"dealer": 0}, seed=1, deals=[deal])
    for seat in range(4):
        assert sorted(m.view(seat)["hand"]) == sorted(deal["hands"][seat])
    contract.play_random(m, random.Random(1), until=lambda m: m.view(None)["deal_no"] == 2)
    dealt = sorted(c for s in range(4) for c in m.view(s)["hand"])
    assert dealt == sorted(DECK)


# ----- golden playthrough ----------------------------------------------------------
def test_golden_playthrough_schafkopf_deal_replays() -> None:
    assert golden.CASES["schafkopf_deal"]["game"] == "schafkopf"
    assert golden.path_of("schafkopf_deal").exists()
    golden.replay("schafkopf_deal")

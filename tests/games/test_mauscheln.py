"""Mauscheln (seed 002 and the Mauscheln section of docs/rules/mauscheln.md), as tests.

The trick duties and the settling are restated here as a small oracle instead of
imported from the engine, so the engine is checked against the rules. Scenarios
stack whole deals (``deals=``) and then drive the match only through the docs/engine.md
surface: ``apply``, ``legal_actions``, ``view``, ``to_act``, ``scores`` and ``pot``.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tests.games.goldens  # noqa: F401  (registers the golden cases)
from app.games import GAMES, IllegalAction, Match, new_match
from app.games.mauscheln import MauschelnMatch, deal_from_deck
from tests.games import contract, golden

SUITS = ["S", "H", "D", "C"]
RANKS = ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2"]  # strongest first
PACK_32 = [s + r for s in SUITS for r in RANKS[:8]]
PACK_52 = [s + r for s in SUITS for r in RANKS]
ALL_CODES = set(PACK_52)

PROPERTY = settings(max_examples=25, deadline=None, database=None,
                    suppress_health_check=[HealthCheck.too_slow])
seeds = st.integers(min_value=0, max_value=2**32 - 1)


# ----- the rules, restated as a small oracle ---------------------------------------
def suit(card: str) -> str:
    return card[0]


def power(card: str, led: str, trump: str) -> int:
    """Strength in a trick led with ``led``: trumps, then the led suit, else nothing."""
    rank = len(RANKS) - RANKS.index(card[1:])
    if suit(card) == trump:
        return 200 + rank
    if suit(card) == suit(led):
        return 100 + rank
    return 0


def allowed_by_rules(hand: list[str], trick: list[str], trump: str) -> set[str]:
    """Follow suit if able; else trump if able; and beat the best card if able."""
    if not trick:
        return set(hand)
    led = trick[0]
    same = [c for c in hand if suit(c) == suit(led)]
    trumps = [c for c in hand if suit(c) == trump]
    first_two = same or trumps or hand
    best = max(power(c, led, trump) for c in trick)
    beaters = [c for c in first_two if power(c, led, trump) > best]
    return set(beaters or first_two)


def trick_taker(trick: list[str], trump: str) -> int:
    """Index of the card taking the trick: highest trump, else highest of the led suit."""
    return max(range(len(trick)), key=lambda i: power(trick[i], trick[0], trump))


# ----- helpers driving the engine through its public surface ------------------
def stack(players: int, hands: dict[int, str], trump: str, stock: str = "") -> dict[str, Any]:
    """A stacked deal: hands given as space-separated codes per seat (missing: out),
    the turned-up trump card, the top of the stock; the rest of the pack follows."""
    pack = PACK_52 if players >= 6 else PACK_32
    given = {s: h.split() for s, h in hands.items()}
    top = stock.split()
    used = {c for h in given.values() for c in h} | {trump} | set(top)
    return {
        "hands": [given.get(s, []) for s in range(players)],
        "trump": trump,
        "stock": top + [c for c in pack if c not in used],
    }


def filler(players: int, seats: list[int], rng_seed: int = 0) -> dict[str, Any]:
    """Some valid deal for the seats ``seats`` (used for deals that are thrown in)."""
    pack = list(PACK_52 if players >= 6 else PACK_32)
    random.Random(rng_seed).shuffle(pack)
    hands: list[list[str]] = [[] for _ in range(players)]
    for seat in seats:
        hands[seat], pack = pack[:4], pack[4:]
    return {"hands": hands, "trump": pack[0], "stock": pack[1:]}


act = contract.act


def pass_until(m: Match, deal_no: int) -> None:
    """Everybody passes until deal number ``deal_no`` has started."""
    while m.view(None)["deal_no"] < deal_no:
        (seat,) = m.to_act()
        m.apply(seat, "pass")


def events_of(events: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [e for e in events if e["type"] == kind]


def cards(text: str) -> list[str]:
    return ["play:" + c for c in text.split()]


def mauscheln(players: int, options: dict[str, Any] | None = None, seed: int | None = 1,
              deals: list[Any] | None = None) -> MauschelnMatch:
    m = new_match("mauscheln", players, options, seed=seed, deals=deals)
    assert isinstance(m, MauschelnMatch)
    return m


def three_in_play(hands: dict[int, str], trump: str) -> MauschelnMatch:
    """Three seats, dealer 0: seat 1 mauschels, seats 2 and 0 join, nobody exchanges.
    Play order is 1, 2, 0 and seat 1 leads."""
    m = mauscheln(3, {"dealer": 0}, deals=[stack(3, hands, trump)])
    act(m, "1:mauschel 2:join 0:join 1:exchange: 2:exchange: 0:exchange:")
    assert m.phase == "play" and m.to_act() == {1}
    return m


def ledger(events: list[dict[str, Any]], players: int) -> list[int]:
    """Net chips per seat by the transfers of all ``deal_end`` events."""
    net = [0] * players
    for end in events_of(events, "deal_end"):
        for t in end["transfers"]:
            assert t["reason"] in {"stake", "trick", "bete", "pot"}
            assert isinstance(t["amount"], int) and t["amount"] != 0
            net[t["seat"]] += t["amount"]
    return net


# ----- the seed's examples --------------------------------------------------------------
# Seats: Ann 0, Ben 1, Carla 2. Deal 1 leaves a bête of 4 in the pot: Ann (sneaker)
# takes all four tricks, Ben joined and took none. Deal 2 is dealt by Ann: pot 8.
ANN, BEN, CARLA = 0, 1, 2
BETE_DEAL = stack(3, {ANN: "SA SK SQ SJ", BEN: "H7 H8 D7 D8", CARLA: "C7 C8 C9 C10"}, "S10")
BETE_MOVES = ("0:mauschel 1:join 2:fold 0:exchange: 1:exchange: "
              "0:play:SA 1:play:H7 0:play:SK 1:play:H8 0:play:SQ 1:play:D7 0:play:SJ 1:play:D8")


def pot_of_eight(second: dict[str, Any]) -> MauschelnMatch:
    m = mauscheln(3, {"dealer": CARLA}, deals=[BETE_DEAL, second])
    events = act(m, BETE_MOVES)
    first = events_of(events, "deal_end")[0]
    assert first["transfers"] == [
        {"seat": CARLA, "amount": -4, "reason": "stake"},
        {"seat": ANN, "amount": 4, "reason": "trick"},
        {"seat": BEN, "amount": -4, "reason": "bete"},
    ]
    assert m.view(None)["dealer"] == ANN
    assert m.pot == 8 and m.scores == [40, 36, 36]
    assert m.view(BEN)["trick_value"] == 2
    return m


def test_seed_example_sneaker_three_tricks_joiner_one_empties_a_pot_of_eight() -> None:
    second = stack(3, {BEN: "HA HK HQ C7", CARLA: "CA D7 D8 D9", ANN: "S7 S8 S9 SA"}, "H7")
    m = pot_of_eight(second)
    events = act(m, "1:mauschel 2:join 0:fold 1:exchange: 2:exchange: "
                    "1:play:HA 2:play:D7 1:play:HK 2:play:D8 1:play:HQ 2:play:D9 "
                    "1:play:C7 2:play:CA")
    (end,) = events_of(events, "deal_end")
    assert end["tricks_won"] == [0, 3, 1]
    assert end["pot_before"] == 8 and end["trick_value"] == 2
    assert end["transfers"] == [
        {"seat": ANN, "amount": -4, "reason": "stake"},
        {"seat": BEN, "amount": 6, "reason": "trick"},
        {"seat": CARLA, "amount": 2, "reason": "trick"},
    ]
    assert end["pot"] == 0
    # the next dealer (Ben) starts the new pot with a fresh stake of 4
    assert m.view(None)["dealer"] == BEN
    assert m.pot == 4
    assert m.scores == [40, 42 - 4, 38]


def test_seed_example_sneaker_with_one_trick_takes_two_then_pays_a_bete_of_eight() -> None:
    second = stack(3, {BEN: "HA C7 C8 C9", CARLA: "CA CK CQ D7", ANN: "S7 S8 S9 SA"}, "H7")
    m = pot_of_eight(second)
    events = act(m, "1:mauschel 2:join 0:fold 1:exchange: 2:exchange: "
                    "1:play:HA 2:play:D7 1:play:C7 2:play:CA "
                    "2:play:CK 1:play:C8 2:play:CQ 1:play:C9")
    (end,) = events_of(events, "deal_end")
    assert end["tricks_won"] == [0, 1, 3]
    assert end["transfers"] == [
        {"seat": ANN, "amount": -4, "reason": "stake"},
        {"seat": BEN, "amount": 2, "reason": "trick"},
        {"seat": CARLA, "amount": 6, "reason": "trick"},
        {"seat": BEN, "amount": -8, "reason": "bete"},
    ]
    assert end["betes"] == [{"seat": BEN, "due": 8, "paid": 8}]
    assert end["pot"] == 8, "the pot was emptied, but Ben's bête refills it"
    assert end["scores"] == [40, 30, 42]
    assert m.pot == 12, "and the next dealer adds 4"


def test_seed_example_must_beat_the_king_with_the_ace_and_must_trump_when_void() -> None:
    # Ann 0 deals, Ben 1 leads the K of hearts, spades are trumps
    deal = stack(4, {1: "HK D10 DJ DQ", 2: "H7 HA C7 C8", 3: "S9 D7 D8 D9", 0: "C9 C10 CJ CQ"},
                 "S8")
    m = mauscheln(4, {"dealer": 0}, deals=[deal])
    act(m, "1:mauschel 2:join 3:join 0:fold 1:exchange: 2:exchange: 3:exchange: 1:play:HK")
    assert m.legal_actions(2) == ["play:HA"]
    assert m.view(2)["duty"] == {"kind": "beat", "card": "HK", "suit": "H"}
    with pytest.raises(IllegalAction, match="must beat K♥"):
        m.apply(2, "play:H7")
    act(m, "2:play:HA")
    assert m.legal_actions(3) == ["play:S9"]
    assert m.view(3)["duty"] == {"kind": "trump", "card": "HA", "suit": "S"}
    with pytest.raises(IllegalAction, match="trump"):
        m.apply(3, "play:D7")
    (trick,) = events_of(act(m, "3:play:S9"), "trick")
    assert trick["winner"] == 3


# ----- pack and ranking --------------------------------------------------------------
@pytest.mark.parametrize("players", [3, 4, 5])
def test_three_to_five_players_play_with_32_cards_seven_to_ace(players: int) -> None:
    m = mauscheln(players, {"dealer": 0})
    snap = m.snapshot()["state"]
    dealt = [c for h in snap["hands"] for c in h] + [snap["trump_card"]] + snap["stock"]
    assert Counter(dealt) == Counter(PACK_32)
    assert m.view(None)["pack_size"] == 32
    assert m.view(None)["stock_count"] == 32 - 1 - 4 * players


@pytest.mark.parametrize("players", [6, 7])
def test_six_or_seven_players_play_with_all_52_cards(players: int) -> None:
    m = mauscheln(players, {"dealer": 0})
    snap = m.snapshot()["state"]
    dealt = [c for h in snap["hands"] for c in h] + [snap["trump_card"]] + snap["stock"]
    assert Counter(dealt) == Counter(PACK_52)
    assert m.view(None)["stock_count"] == 52 - 1 - 4 * players


def test_ace_ranks_highest_and_two_lowest() -> None:
    m = mauscheln(6, {"dealer": 0})
    hearts = ["H" + r for r in RANKS]
    strengths = [m.strength(c, "H2") for c in hearts]
    assert strengths == sorted(strengths, reverse=True) and len(set(strengths)) == 13


def test_ace_of_the_led_suit_takes_the_trick_over_the_king() -> None:
    m = three_in_play({1: "HK C7 C8 C9", 2: "HA D7 D8 D9", 0: "H7 S7 S8 S9"}, "CA")
    (trick,) = events_of(act(m, "1:play:HK 2:play:HA 0:play:H7"), "trick")
    assert trick["winner"] == 2


def test_own_hand_is_sorted_with_the_trumps_together_in_front() -> None:
    m = three_in_play({1: "HK D7 C8 D9", 2: "HA D8 C7 S9", 0: "H7 SA S8 C9"}, "DA")
    assert m.view(1)["hand"] == ["D9", "D7", "HK", "C8"]
    assert m.view(0)["hand"] == ["SA", "S8", "H7", "C9"]


# ----- chips and stake -----------------------------------------------------------------
def test_start_chips_default_to_40_and_the_stake_to_4() -> None:
    defaults = GAMES["mauscheln"].default_options
    assert defaults["chips"] == 40 and defaults["stake"] == 4
    assert not any(defaults[rule] for rule in ("knock", "quartets", "belli", "weli"))
    m = mauscheln(4, {"dealer": 2})
    assert m.scores == [40, 40, 36, 40] and m.pot == 4
    view = m.view(None)
    assert view["scores"] == m.scores and view["start_chips"] == 40 and view["stake"] == 4
    assert view["trick_value"] == 1


def test_chips_and_stake_options_set_the_start_and_the_dealers_stake() -> None:
    m = mauscheln(3, {"dealer": 1, "chips": 100, "stake": 12})
    assert m.scores == [100, 88, 100] and m.pot == 12


@pytest.mark.parametrize("stake", [0, 2, 6, 10, -4, True, "4"])
def test_the_stake_must_be_a_multiple_of_four(stake: Any) -> None:
    with pytest.raises(ValueError):
        mauscheln(3, {"stake": stake})


@pytest.mark.parametrize("players", [2, 8, 0, -1, "4", 4.0])
def test_three_to_seven_players(players: Any) -> None:
    with pytest.raises(ValueError):
        new_match("mauscheln", players)


def test_a_dealer_with_fewer_chips_than_the_stake_puts_in_what_they_have() -> None:
    m = mauscheln(4, {"dealer": 1, "chips": 3, "stake": 8})
    assert m.scores == [3, 0, 3, 3] and m.pot == 3
    assert m.view(None)["stake_paid"] == 3


def test_a_dealer_whose_stake_takes_the_last_chip_still_plays_the_deal() -> None:
    m = mauscheln(3, {"dealer": 2, "chips": 4})
    assert m.scores[2] == 0
    assert m.view(None)["in_deal"] == [0, 1, 2]
    assert len(m.view(2)["hand"]) == 4
    act(m, "0:pass 1:pass")
    assert m.legal_actions(2) == ["mauschel", "pass"]
    act(m, "2:mauschel 0:join 1:fold")
    assert m.phase == "exchange" and m.to_act() == {2}


def test_a_player_with_no_chips_is_dealt_nothing_never_deals_and_is_never_asked() -> None:
    # deal 1: dealer 0 stakes their last chip, joins and takes every trick (+1 each);
    # Ben (1) mauschels and takes none: he owes 8 and pays the 4 he has: he is out
    first = stack(5, {1: "H7 H8 D7 D8", 0: "SA SK SQ SJ", 2: "C7 C8 C9 C10",
                      3: "HA HK HQ HJ", 4: "DA DK DQ DJ"}, "S10")
    m = mauscheln(5, {"dealer": 0, "chips": 4}, deals=[first, filler(5, [0, 2, 3, 4])])
    events = act(m, "1:mauschel 2:fold 3:fold 4:fold 0:join 1:exchange: 0:exchange: "
                    "1:play:H7 0:play:SA 0:play:SK 1:play:H8 0:play:SQ 1:play:D7 "
                    "0:play:SJ 1:play:D8")
    end = events_of(events, "deal_end")[0]
    assert end["betes"] == [{"seat": 1, "due": 8, "paid": 4}]
    assert m.scores[1] == 0
    view = m.view(None)
    assert view["dealer"] == 2, "the deal passes over the seat without chips"
    assert view["in_deal"] == [0, 2, 3, 4] and view["out"] == [1]
    assert view["hand_counts"][1] == 0 and m.view(1)["hand"] == []
    asked = []
    while m.view(None)["deal_no"] == 2:
        (seat,) = m.to_act()
        asked.append(seat)
        assert m.legal_actions(1) == []
        m.apply(seat, "pass")
    assert asked == [3, 4, 0, 2]
    assert m.view(None)["dealer"] == 3


def test_a_player_out_of_chips_is_never_asked_to_join() -> None:
    first = stack(4, {1: "H7 H8 D7 D8", 0: "SA SK SQ SJ", 2: "C7 C8 C9 C10", 3: "HA HK HQ HJ"},
                  "S10")
    m = mauscheln(4, {"dealer": 0, "chips": 4}, deals=[first, filler(4, [0, 2, 3])])
    act(m, "1:mauschel 2:fold 3:fold 0:join 1:exchange: 0:exchange: "
           "1:play:H7 0:play:SA 0:play:SK 1:play:H8 0:play:SQ 1:play:D7 0:play:SJ 1:play:D8")
    assert m.scores[1] == 0 and m.view(None)["dealer"] == 2
    act(m, "3:mauschel")
    asked = []
    while m.phase == "joining":
        (seat,) = m.to_act()
        asked.append(seat)
        m.apply(seat, "fold")
    assert asked == [0, 2]


def test_the_pack_stays_52_cards_when_six_seats_shrink_below_six_players() -> None:
    # chips 4: every dealer stakes their last chip; thrown-in deals knock them out
    m = mauscheln(6, {"dealer": 0, "chips": 4}, seed=3)
    pass_until(m, 3)
    view = m.view(None)
    assert view["in_deal"] == [2, 3, 4, 5] and view["pack_size"] == 52
    assert view["stock_count"] == 52 - 1 - 4 * 4
    snap = m.snapshot()["state"]
    assert Counter(c for h in snap["hands"] for c in h) + Counter(snap["stock"]) \
        + Counter([snap["trump_card"]]) == Counter(PACK_52)


# ----- the deal ----------------------------------------------------------------------------
def test_deal_gives_two_cards_each_one_at_a_time_from_forehand_then_trump_then_two_more() -> None:
    deck = [f"c{i}" for i in range(32)]
    hands, trump, stock = deal_from_deck(deck, [2, 3, 0], 4)
    assert hands[2] == ["c0", "c3", "c7", "c10"]
    assert hands[3] == ["c1", "c4", "c8", "c11"]
    assert hands[0] == ["c2", "c5", "c9", "c12"]
    assert hands[1] == []
    assert trump == "c6"
    assert stock == deck[13:]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_seeded_shuffle_is_dealt_two_three_trump_two_from_forehand(seed: int) -> None:
    m = mauscheln(4, {"dealer": 1}, seed=seed)
    deck = list(PACK_32)
    random.Random(seed).shuffle(deck)
    order = [2, 3, 0, 1]  # forehand left of the dealer first, the dealer last
    for i, seat in enumerate(order):
        expected = [deck[i], deck[4 + i], deck[9 + i], deck[13 + i]]
        assert sorted(m.view(seat)["hand"]) == sorted(expected)
    assert m.view(None)["trump_card"] == deck[8]
    assert m.snapshot()["state"]["stock"] == deck[17:]


def test_the_rest_is_the_stock_and_the_trump_card_beside_it_is_never_drawn() -> None:
    # five players: 11 cards in the stock; sneaker and joiners exchange all they may
    m = mauscheln(5, {"dealer": 4}, seed=8)
    trump = m.view(None)["trump_card"]
    act(m, "0:mauschel 1:join 2:join 3:join 4:join")
    allowed_counts = []
    for seat in [0, 1, 2, 3, 4]:
        options = m.legal_actions(seat)
        most = max(options, key=lambda a: len(a.split(",")) if a != "exchange:" else 0)
        allowed_counts.append(0 if most == "exchange:" else len(most[9:].split(",")))
        m.apply(seat, most)
    assert allowed_counts == [4, 4, 3, 0, 0]
    assert m.view(None)["stock_count"] == 0
    assert all(trump not in m.view(s)["hand"] for s in range(5))
    assert all(len(m.view(s)["hand"]) == 4 for s in range(5))
    assert m.view(None)["trump_card"] == trump


# ----- bidding and joining -------------------------------------------------------------------
@pytest.mark.parametrize("dealer", [0, 1, 2, 3])
def test_bidding_starts_with_forehand_left_of_the_dealer(dealer: int) -> None:
    m = mauscheln(4, {"dealer": dealer})
    assert m.phase == "bidding"
    assert m.to_act() == {(dealer + 1) % 4}
    assert m.view(None)["forehand"] == (dealer + 1) % 4
    assert m.legal_actions((dealer + 1) % 4) == ["mauschel", "pass"]


def test_the_first_mauschel_makes_the_sneaker_and_ends_the_asking() -> None:
    m = mauscheln(5, {"dealer": 0})
    events = act(m, "1:pass 2:mauschel")
    assert events == [{"type": "bid", "seat": 1, "bid": "pass"},
                      {"type": "bid", "seat": 2, "bid": "mauschel"}]
    view = m.view(None)
    assert view["sneaker"] == 2 and view["phase"] == "joining"
    assert view["bids"] == [None, "pass", "mauschel", None, None]
    assert view["passed"] == [1]
    assert m.legal_actions(3) == ["join", "fold"]
    with pytest.raises(IllegalAction):
        m.apply(3, "mauschel")


def test_joining_goes_from_the_sneakers_left_and_those_who_passed_may_join() -> None:
    m = mauscheln(5, {"dealer": 0})
    act(m, "1:pass 2:pass 3:mauschel")
    asked = []
    while m.phase == "joining":
        (seat,) = m.to_act()
        asked.append(seat)
        assert m.legal_actions(seat) == ["join", "fold"]
        m.apply(seat, "join" if seat in (1, 0) else "fold")
    assert asked == [4, 0, 1, 2]
    view = m.view(None)
    assert view["joined"] == [0, 1] and view["folded"] == [2, 4]
    assert view["playing"] == [0, 1, 3]


def test_nobody_mauschels_the_deal_is_thrown_in_and_the_pot_stays() -> None:
    m = mauscheln(3, {"dealer": 0})
    events = act(m, "1:pass 2:pass 0:pass")
    (end,) = events_of(events, "deal_end")
    assert end["kind"] == "thrown_in" and end["pot"] == 4
    assert end["transfers"] == [{"seat": 0, "amount": -4, "reason": "stake"}]
    (deal,) = events_of(events, "deal")
    assert deal["dealer"] == 1 and deal["stake"] == 4 and deal["pot"] == 8
    assert m.pot == 8, "the next dealer adds a stake to the kept pot"
    assert m.scores == [36, 36, 40]
    assert m.phase == "bidding" and m.to_act() == {2}


def test_everybody_folds_the_sneaker_takes_the_whole_pot_without_play() -> None:
    m = mauscheln(4, {"dealer": 0})
    act(m, "1:pass 2:pass 3:pass 0:pass")  # thrown in: pot 8 after the next stake
    events = act(m, "2:mauschel 3:fold 0:fold 1:fold")
    (end,) = events_of(events, "deal_end")
    assert end["kind"] == "all_folded" and end["tricks"] == []
    assert end["transfers"] == [{"seat": 1, "amount": -4, "reason": "stake"},
                                {"seat": 2, "amount": 8, "reason": "pot"}]
    assert not events_of(events, "play")
    assert m.scores == [36, 36, 48 - 4, 40] and m.pot == 4  # seat 2 deals next


# ----- exchange -------------------------------------------------------------------------------
def test_exchange_goes_from_the_sneaker_clockwise_over_the_joiners_once_each() -> None:
    m = mauscheln(5, {"dealer": 0})
    act(m, "1:pass 2:pass 3:mauschel 4:join 0:fold 1:join 2:fold")
    order = []
    while m.phase == "exchange":
        (seat,) = m.to_act()
        order.append(seat)
        m.apply(seat, "exchange:")
        assert m.legal_actions(seat) == [] or m.phase == "play"
    assert order == [3, 4, 1]
    assert m.phase == "play" and m.to_act() == {3}


def test_exchange_draws_as_many_cards_as_discarded_from_the_top_of_the_stock() -> None:
    deal = stack(3, {1: "SA SK H7 H8", 2: "D7 D8 D9 D10", 0: "C7 C8 C9 C10"}, "S7",
                 stock="HA HK HQ")
    m = mauscheln(3, {"dealer": 0}, deals=[deal])
    act(m, "1:mauschel 2:join 0:fold")
    events = act(m, "1:exchange:H8,H7")
    assert events == [{"type": "exchange", "seat": 1, "discarded": 2, "drawn": 2, "stock": 17}]
    assert m.view(1)["hand"] == ["SA", "SK", "HA", "HK"]
    assert sorted(m.view(1)["discarded"]) == ["H7", "H8"]
    act(m, "2:exchange:D7")
    assert m.view(2)["hand"] == ["HQ", "D10", "D9", "D8"]
    assert m.view(None)["exchanged"] == [None, 2, 1]


def test_nobody_may_discard_more_cards_than_the_stock_holds() -> None:
    # seven players, 52 cards: 23 in the stock; the sixth and seventh exchanger
    # find 3 and then none
    m = mauscheln(7, {"dealer": 6}, seed=4)
    act(m, "0:mauschel 1:join 2:join 3:join 4:join 5:join 6:join")
    for seat in range(5):
        m.apply(seat, m.legal_actions(seat)[-1])  # discard all four
    assert m.view(None)["stock_count"] == 3
    assert max(len(a[9:].split(",")) for a in m.legal_actions(5) if a != "exchange:") == 3
    four = "exchange:" + ",".join(m.view(5)["hand"])
    with pytest.raises(IllegalAction, match="stock holds only 3"):
        m.apply(5, four)
    m.apply(5, m.legal_actions(5)[-1])
    assert m.legal_actions(6) == ["exchange:"]


def test_exchange_lists_the_discards_in_the_order_of_the_hand() -> None:
    deal = stack(3, {1: "SA SK H7 H8", 2: "D7 D8 D9 D10", 0: "C7 C8 C9 C10"}, "S7")
    m = mauscheln(3, {"dealer": 0}, deals=[deal])
    act(m, "1:mauschel 2:join 0:fold")
    assert "exchange:H8,H7" in m.legal_actions(1)
    with pytest.raises(IllegalAction, match="order of your hand"):
        m.apply(1, "exchange:H7,H8")
    with pytest.raises(IllegalAction, match="do not hold"):
        m.apply(1, "exchange:DA")
    assert len(m.legal_actions(1)) == 16
    for spelling in ["exchange: ", "exchange:H8, H7", "exchange:h8,h7", "exchange:H8,H7,"]:
        contract.assert_refused_unchanged(m, 1, spelling)


# ----- play ------------------------------------------------------------------------------------
def test_the_sneaker_leads_the_first_trick_and_each_trick_winner_the_next() -> None:
    m = three_in_play({1: "C7 D7 D8 D9", 2: "CA C8 C9 C10", 0: "H7 H8 H9 H10"}, "SA")
    assert m.view(None)["leader"] == 1
    act(m, "1:play:C7 2:play:CA 0:play:H7")
    assert m.to_act() == {2} and m.view(None)["leader"] == 2


def test_a_deal_has_four_tricks() -> None:
    m = three_in_play({1: "C7 D7 D8 D9", 2: "CA C8 C9 C10", 0: "H7 H8 H9 H10"}, "SA")
    rng = random.Random(0)
    events: list[dict[str, Any]] = []
    while not events_of(events, "deal_end"):
        seat, action = contract.random_step(m, rng)
        events += m.apply(seat, action)
    assert len(events_of(events, "trick")) == 4
    assert sum(events_of(events, "deal_end")[0]["tricks_won"]) == 4


def test_must_follow_suit_if_able_even_without_a_card_to_beat() -> None:
    m = three_in_play({1: "HA D7 D8 D9", 2: "H7 H8 S9 SK", 0: "C7 C8 C9 C10"}, "S7")
    act(m, "1:play:HA")
    assert m.legal_actions(2) == cards("H8 H7")
    assert m.view(2)["duty"] == {"kind": "follow", "card": "HA", "suit": "H"}
    with pytest.raises(IllegalAction, match="follow suit"):
        m.apply(2, "play:SK")


def test_without_the_led_suit_must_play_a_trump_if_able() -> None:
    m = three_in_play({1: "HA D7 D8 D9", 2: "S7 SK C7 C8", 0: "H7 H8 H9 H10"}, "S8")
    act(m, "1:play:HA")
    assert m.legal_actions(2) == cards("SK S7")
    assert m.view(2)["duty"]["kind"] == "trump"


def test_must_beat_with_a_higher_card_of_the_led_suit_while_no_trump_lies_in_the_trick() -> None:
    m = three_in_play({1: "H10 D7 D8 D9", 2: "H7 HJ HA C7", 0: "H8 C8 C9 C10"}, "S8")
    act(m, "1:play:H10")
    assert m.legal_actions(2) == cards("HA HJ")
    act(m, "2:play:HJ")
    assert m.legal_actions(0) == cards("H8"), "cannot beat: any card of the led suit"
    assert m.view(0)["duty"] == {"kind": "follow", "card": "HJ", "suit": "H"}


def test_a_higher_card_of_the_led_suit_does_not_beat_a_trump_in_the_trick() -> None:
    m = three_in_play({1: "H10 D7 D8 D9", 2: "S7 C7 C8 C9", 0: "HA H7 C10 CJ"}, "S8")
    act(m, "1:play:H10 2:play:S7")
    assert m.legal_actions(0) == cards("HA H7")
    assert m.view(0)["duty"] == {"kind": "follow", "card": "S7", "suit": "H"}


def test_must_overtrump_when_able() -> None:
    m = three_in_play({1: "H10 D7 D8 D9", 2: "S9 C7 C8 C9", 0: "S7 SK C10 CJ"}, "S8")
    act(m, "1:play:H10 2:play:S9")
    assert m.legal_actions(0) == cards("SK")
    assert m.view(0)["duty"] == {"kind": "beat", "card": "S9", "suit": "S"}
    (trick,) = events_of(act(m, "0:play:SK"), "trick")
    assert trick["winner"] == 0


def test_must_still_trump_when_unable_to_overtrump() -> None:
    m = three_in_play({1: "H10 D7 D8 D9", 2: "SK C7 C8 C9", 0: "S7 DA C10 CJ"}, "S8")
    act(m, "1:play:H10 2:play:SK")
    assert m.legal_actions(0) == cards("S7")
    assert m.view(0)["duty"] == {"kind": "trump", "card": "SK", "suit": "S"}


def test_a_trump_lead_must_be_beaten_with_a_higher_trump_if_able() -> None:
    m = three_in_play({1: "S9 D7 D8 D9", 2: "SA S7 C7 C8", 0: "H7 H8 H9 H10"}, "S8")
    act(m, "1:play:S9")
    assert m.legal_actions(2) == cards("SA")
    assert m.view(2)["duty"] == {"kind": "beat", "card": "S9", "suit": "S"}


def test_without_the_led_suit_or_a_trump_any_card_may_be_played() -> None:
    m = three_in_play({1: "HA D7 D8 D9", 2: "DA C7 C8 C9", 0: "H7 H8 H9 H10"}, "S8")
    act(m, "1:play:HA")
    assert m.legal_actions(2) == cards("DA C9 C8 C7")
    assert m.view(2)["duty"] == {"kind": "free", "card": "HA", "suit": "H"}


def test_the_leader_may_lead_any_card() -> None:
    m = three_in_play({1: "HA D7 S9 C9", 2: "DA C7 C8 H9", 0: "H7 H8 C10 H10"}, "S8")
    assert sorted(m.legal_actions(1)) == sorted(cards("HA D7 S9 C9"))
    assert m.view(1)["duty"] == {"kind": "free", "card": None, "suit": None}
    assert m.view(2)["duty"] is None and m.view(None)["duty"] is None


@pytest.mark.parametrize("plays,winner", [
    (["H9", "HK", "DA"], 2),   # highest of the led suit; an off-suit Ace takes nothing
    (["H9", "S7", "HA"], 2),   # the lowest trump takes the Ace of the led suit
    (["H9", "S7", "S8"], 0),   # a higher trump over-trumps
    (["S9", "HA", "DA"], 1),   # a trump lead with only discards after it
])
def test_the_trick_goes_to_the_highest_trump_else_the_highest_card_of_the_led_suit(
        plays: list[str], winner: int) -> None:
    # seats play in the order 1, 2, 0; ``winner`` is the seat that takes the trick
    hands = {1: plays[0] + " C7 C8 C9", 2: plays[1] + " D7 D8 D9", 0: plays[2] + " C10 CJ CQ"}
    m = three_in_play(hands, "SA")
    (trick,) = events_of(act(m, f"1:play:{plays[0]} 2:play:{plays[1]} 0:play:{plays[2]}"),
                         "trick")
    assert trick["winner"] == winner == [1, 2, 0][trick_taker(plays, "S")]


# ----- settling -------------------------------------------------------------------------------
def play_out(m: Match, plan: str) -> dict[str, Any]:
    events = act(m, plan)
    (end,) = events_of(events, "deal_end")
    return end


def test_each_trick_pays_a_quarter_of_the_pot_and_a_remainder_stays() -> None:
    # chips 6: three thrown-in deals leave everybody on 2 and 12 in the pot; the
    # dealer of deal 4 stakes the 2 they have: P = 14, a trick pays 3, 2 stay
    deals = [filler(3, [0, 1, 2], i) for i in range(3)]
    deals.append(stack(3, {1: "SA SK H7 H8", 2: "HA HK C7 C8", 0: "D9 D10 C9 C10"}, "S7"))
    m = mauscheln(3, {"dealer": 0, "chips": 6}, deals=deals)
    pass_until(m, 4)
    assert m.scores == [0, 2, 2] and m.pot == 14
    end = play_out(m, "1:mauschel 2:join 0:fold 1:exchange: 2:exchange: "
                      "1:play:SA 2:play:C7 1:play:SK 2:play:C8 "
                      "1:play:H7 2:play:HA 2:play:HK 1:play:H8")
    assert end["pot_before"] == 14 and end["trick_value"] == 3
    assert end["tricks_won"] == [0, 2, 2] and end["betes"] == []
    assert end["pot"] == 2
    assert end["scores"] == [0, 8, 8]


def test_a_joiner_without_a_trick_pays_a_bete_as_large_as_the_pot() -> None:
    m = three_in_play({1: "SA SK SQ SJ", 2: "H7 H8 H9 H10", 0: "C7 C8 C9 C10"}, "S7")
    end = play_out(m, "1:play:SA 2:play:H7 0:play:C7 1:play:SK 2:play:H8 0:play:C8 "
                      "1:play:SQ 2:play:H9 0:play:C9 1:play:SJ 2:play:H10 0:play:C10")
    assert end["betes"] == [{"seat": 0, "due": 4, "paid": 4}, {"seat": 2, "due": 4, "paid": 4}]
    assert end["scores"] == [36 - 4, 44, 36] and end["pot"] == 8


def test_a_sneaker_with_two_tricks_pays_no_bete() -> None:
    m = three_in_play({1: "SA SK H7 H8", 2: "HA HK C7 C8", 0: "C9 C10 D7 D8"}, "S7")
    end = play_out(m, "1:play:SA 2:play:C7 0:play:C9 1:play:SK 2:play:C8 0:play:C10 "
                      "1:play:H7 2:play:HA 0:play:D7 2:play:HK 0:play:D8 1:play:H8")
    assert end["tricks_won"] == [0, 2, 2]
    assert [b["seat"] for b in end["betes"]] == [0]


def test_a_sneaker_with_one_trick_pays_a_bete_of_the_pot() -> None:
    m = three_in_play({1: "SA H7 H8 H9", 2: "HA HK HQ C7", 0: "C9 C10 D7 D8"}, "S7")
    end = play_out(m, "1:play:SA 2:play:C7 0:play:C9 1:play:H7 2:play:HA 0:play:D7 "
                      "2:play:HK 0:play:D8 1:play:H8 2:play:HQ 0:play:C10 1:play:H9")
    assert end["tricks_won"] == [0, 1, 3]
    assert {"seat": 1, "due": 4, "paid": 4} in end["betes"]


def test_a_sneaker_without_a_trick_pays_a_double_bete() -> None:
    m = three_in_play({1: "H7 H8 H9 H10", 2: "HA HK HQ HJ", 0: "C9 C10 D7 D8"}, "S7")
    end = play_out(m, "1:play:H7 2:play:HA 0:play:C9 2:play:HK 0:play:C10 1:play:H8 "
                      "2:play:HQ 0:play:D7 1:play:H9 2:play:HJ 0:play:D8 1:play:H10")
    assert end["tricks_won"] == [0, 0, 4]
    assert end["betes"] == [{"seat": 0, "due": 4, "paid": 4}, {"seat": 1, "due": 8, "paid": 8}]
    assert end["scores"] == [36 - 4, 40 - 8, 44]
    assert end["pot"] == 12


def test_whoever_cannot_pay_a_bete_in_full_pays_all_they_have() -> None:
    deals = [filler(3, [0, 1, 2], 0),
             stack(3, {1: "H7 H8 H9 H10", 2: "HA HK HQ HJ", 0: "C9 C10 D7 D8"}, "S7")]
    m = mauscheln(3, {"dealer": 2, "chips": 7}, deals=deals)
    act(m, "0:pass 1:pass 2:pass")  # pot 4; dealer 0 adds 4: pot 8, sneaker owes 16
    end = play_out(m, "1:mauschel 2:join 0:fold 1:exchange: 2:exchange: "
                      "1:play:H7 2:play:HA 2:play:HK 1:play:H8 2:play:HQ 1:play:H9 "
                      "2:play:HJ 1:play:H10")
    assert end["betes"] == [{"seat": 1, "due": 16, "paid": 7}]
    assert end["scores"] == [3, 0, 3 + 8] and end["pot"] == 7
    assert all(c >= 0 for c in m.scores)


# ----- end of the game ------------------------------------------------------------------------
def test_the_game_ends_when_fewer_than_two_players_have_chips_and_most_chips_win() -> None:
    # chips 4, three seats: each thrown-in deal costs its dealer their last chip
    m = mauscheln(3, {"dealer": 0, "chips": 4})
    events = act(m, "1:pass 2:pass 0:pass")
    assert not m.is_over and m.scores == [0, 0, 4]
    events += act(m, "2:pass 1:pass")
    assert m.is_over and m.phase == "over"
    assert m.scores == [0, 0, 4] and m.pot == 8
    assert m.winners == [2]
    (end,) = events_of(events, "match_end")
    assert end["winners"] == [2]
    assert m.to_act() == set() and all(m.legal_actions(s) == [] for s in range(3))
    assert m.view(0)["last_deal"]["kind"] == "thrown_in"
    with pytest.raises(IllegalAction):
        m.apply(2, "pass")


def test_the_host_can_end_the_game_the_deal_in_progress_is_cancelled_and_most_chips_win() -> None:
    second = stack(3, {BEN: "HA HK HQ C7", CARLA: "CA D7 D8 D9", ANN: "S7 S8 S9 SA"}, "H7")
    m = pot_of_eight(second)
    act(m, "1:mauschel 2:join 0:fold 1:exchange:C7")
    chips_before_stake = [40 + 4, 36, 36]
    events = m.end_by_host()
    assert [e["type"] for e in events] == ["deal_end", "match_end"]
    assert events[0]["kind"] == "cancelled" and events[0]["transfers"] == []
    assert m.scores == chips_before_stake and m.pot == 4
    assert m.is_over and m.phase == "over" and m.winners == [ANN]
    assert m.view(None)["last_deal"]["kind"] == "cancelled"
    assert all("C7" not in json.dumps(m.view(s)) for s in (None, ANN, CARLA))
    events[0]["transfers"].append({"seat": 0, "amount": 99, "reason": "pot"})
    assert m.view(None)["last_deal"]["transfers"] == [], "the events are copies"
    assert m.end_by_host() == []


def test_chip_balances_and_transfers_are_exposed_after_every_deal() -> None:
    m = mauscheln(4, {"dealer": 0}, seed=9)
    rng = random.Random(9)
    all_events: list[dict[str, Any]] = []
    assert "last_deal" not in m.view(None)
    while len(events_of(all_events, "deal_end")) < 6:
        seat, action = contract.random_step(m, rng)
        events = m.apply(seat, action)
        all_events += events
        if events_of(events, "deal_end"):
            end = {k: v for k, v in events_of(events, "deal_end")[-1].items() if k != "type"}
            assert end["scores"] == [c + (m.view(None)["stake_paid"]
                                         if s == m.view(None)["dealer"] else 0)
                                    for s, c in enumerate(m.scores)]
            net = ledger(all_events, 4)
            assert net == [c - 40 for c in end["scores"]]
        if events_of(all_events, "deal_end"):
            for s in [None, 0, 1, 2, 3]:
                end = events_of(all_events, "deal_end")[-1]
                # last_deal is the deal_end record, and keeps ``chips`` (= scores)
                assert m.view(s)["last_deal"] == {
                    **{k: v for k, v in end.items() if k != "type"}, "chips": end["scores"]}


# ----- general rulings -------------------------------------------------------------------------
def test_the_first_dealer_is_the_dealer_option_or_drawn_at_random() -> None:
    assert mauscheln(4, {"dealer": 2}).view(None)["dealer"] == 2
    assert {mauscheln(4, seed=s).view(None)["dealer"] for s in range(40)} == {0, 1, 2, 3}


def test_the_deal_passes_clockwise_after_every_deal_also_after_a_thrown_in_deal() -> None:
    m = mauscheln(3, {"dealer": 1})
    dealers = [m.view(None)["dealer"]]
    act(m, "2:pass 0:pass 1:pass")          # thrown in
    dealers.append(m.view(None)["dealer"])
    act(m, "0:mauschel 1:fold 2:fold")      # all fold
    dealers.append(m.view(None)["dealer"])
    assert dealers == [1, 2, 0]


def test_without_a_seed_the_shuffle_comes_from_a_secure_source() -> None:
    m = new_match("mauscheln", 4)
    assert m.snapshot()["rng"] is None, "SystemRandom: no state that could be replayed"
    hands = {json.dumps(new_match("mauscheln", 4, {"dealer": 0}).view(1)["hand"])
             for _ in range(5)}
    assert len(hands) > 1


def test_the_same_seed_and_actions_give_the_same_match() -> None:
    a, b = mauscheln(5, seed=42), mauscheln(5, seed=42)
    contract.play_random(a, random.Random(1), until=lambda m: m.view(None)["deal_no"] > 5)
    contract.play_random(b, random.Random(1), until=lambda m: m.view(None)["deal_no"] > 5)
    assert contract.state_of(a) == contract.state_of(b)


# ----- stacked deals ----------------------------------------------------------------------------
GOOD = stack(3, {0: "SA SK SQ SJ", 1: "H7 H8 D7 D8", 2: "C7 C8 C9 C10"}, "S10")


def changed(**parts: Any) -> dict[str, Any]:
    deal = json.loads(json.dumps(GOOD))
    deal.update(parts)
    return deal


@pytest.mark.parametrize("deal", [
    pytest.param(changed(trump="SA"), id="trump-card-twice"),
    pytest.param(changed(trump="XX"), id="unknown-card"),
    pytest.param(changed(hands=GOOD["hands"][:2]), id="missing-seat"),
    pytest.param(changed(hands=[*GOOD["hands"], []]), id="extra-seat"),
    pytest.param(changed(hands=[["SA", "SK", "SQ"], *GOOD["hands"][1:]]), id="three-cards"),
    pytest.param(changed(hands=[[], *GOOD["hands"][1:]]), id="seat-in-play-gets-nothing"),
    pytest.param(changed(stock=GOOD["stock"][1:]), id="card-missing"),
    pytest.param(changed(stock=[*GOOD["stock"], "S2"]), id="card-of-the-52-pack"),
    pytest.param(changed(stock=[*GOOD["stock"][:-1], GOOD["stock"][0]]), id="duplicate"),
    pytest.param(changed(stock=None), id="no-stock"),
    pytest.param(changed(trump=["S10"]), id="trump-not-a-code"),
    pytest.param(changed(hands=[[1, 2, 3, 4], *GOOD["hands"][1:]]), id="cards-not-codes"),
    pytest.param({"hands": GOOD["hands"]}, id="no-trump"),
    pytest.param([GOOD["hands"]], id="not-a-dict"),
])
def test_a_stacked_deal_that_is_not_the_pack_raises_value_error(deal: Any) -> None:
    with pytest.raises(ValueError):
        mauscheln(3, {"dealer": 2}, deals=[deal])


def test_a_later_stacked_deal_that_is_not_the_pack_raises_value_error_at_the_start() -> None:
    with pytest.raises(ValueError):
        mauscheln(3, {"dealer": 2}, deals=[GOOD, changed(trump="SA")])


def test_a_stacked_deal_giving_cards_to_a_seat_that_is_out_raises_value_error() -> None:
    m = mauscheln(3, {"dealer": 0, "chips": 4}, deals=[filler(3, [0, 1, 2]),
                                                        filler(3, [0, 1, 2], 1)])
    with pytest.raises(ValueError, match="seat 0"):
        act(m, "1:pass 2:pass 0:pass")


def test_a_stacked_deal_for_52_cards_is_checked_against_the_52_card_pack() -> None:
    deal = filler(6, list(range(6)))
    assert mauscheln(6, {"dealer": 0}, deals=[deal]).view(None)["pack_size"] == 52
    with pytest.raises(ValueError):
        mauscheln(6, {"dealer": 0}, deals=[filler(5, list(range(5)))])


# ----- properties over random games --------------------------------------------------------
def card_codes(obj: Any) -> set[str]:
    """Every card code anywhere in a JSON-like value."""
    return contract.card_codes(obj, ALL_CODES)


class Watcher:
    """Follows a match by its public events and checks what views and events show."""

    def __init__(self, m: MauschelnMatch) -> None:
        self.m = m
        self.start = m.view(None)["start_chips"]
        self.total = sum(m.scores) + m.pot
        self.played: set[str] = set()  # face-up cards of the current deal
        self.last_public: set[str] | None = None  # of the last finished deal
        self.events: list[dict[str, Any]] = []
        self.deal_trump = m.view(None)["trump_card"]

    def apply(self, seat: int, action: str) -> list[dict[str, Any]]:
        events = self.m.apply(seat, action)
        self.see(events)
        return events

    def see(self, events: list[dict[str, Any]]) -> None:
        for e in events:
            public = self.played | {self.deal_trump}
            if e["type"] == "play":
                self.played.add(e["card"])
            elif e["type"] == "deal_end":
                self.last_public = self.played | {self.deal_trump}
                assert card_codes(e) <= self.last_public
            elif e["type"] == "deal":
                self.played = set()
                self.deal_trump = e["trump_card"]
                assert card_codes(e) == {e["trump_card"]}
            if e["type"] in ("exchange", "bid", "answer", "match_end"):
                assert card_codes(e) == set()
            if e["type"] in ("play", "trick"):
                assert card_codes(e) <= public | {e.get("card")}
        self.events += events
        self.check()

    def check(self) -> None:
        m = self.m
        assert sum(m.scores) + m.pot == self.total, "chips are conserved"
        assert all(isinstance(c, int) and c >= 0 for c in [*m.scores, m.pot])
        assert m.view(None)["scores"] == m.scores
        state = m.snapshot()["state"]
        public = self.played | {self.deal_trump}
        for seat in [None, *range(m.players)]:
            view = m.view(seat)
            current = {k: v for k, v in view.items() if k != "last_deal"}
            own = set(state["hands"][seat]) | set(state["discards"][seat]) \
                if seat is not None else set()
            assert card_codes(current) <= public | own, f"seat {seat} sees hidden cards"
            if "last_deal" in view:
                assert self.last_public is not None
                assert card_codes(view["last_deal"]) <= self.last_public
            if seat is None:
                assert "hand" not in view and "discarded" not in view
            else:
                assert view["hand"] == m.sort_hand(state["hands"][seat])
            assert view["hand_counts"] == [len(h) for h in state["hands"]]
        if m.phase == "play":
            (seat,) = m.to_act()
            trick = [p["card"] for p in m.view(None)["trick"]]
            expected = allowed_by_rules(state["hands"][seat], trick, m.view(None)["trump"])
            assert set(m.legal_actions(seat)) == {"play:" + c for c in expected}

    def check_ledger(self) -> None:
        assert ledger(self.events, self.m.players) == [c - self.start for c in self.m.scores]


@PROPERTY
@given(players=st.integers(min_value=3, max_value=7), seed=seeds, pick=seeds,
       chips=st.sampled_from([1, 4, 8, 20, 40]), stake=st.sampled_from([4, 8]),
       host_ends=st.booleans())
def test_random_games_conserve_chips_never_go_negative_and_transfers_add_up(
        players: int, seed: int, pick: int, chips: int, stake: int, host_ends: bool) -> None:
    m = mauscheln(players, {"chips": chips, "stake": stake}, seed=seed)
    watcher = Watcher(m)
    rng = random.Random(pick)
    for _ in range(400):
        if m.is_over:
            break
        watcher.apply(*contract.random_step(m, rng))
    if not m.is_over and host_ends:
        watcher.see(m.end_by_host())
    if m.is_over:
        watcher.check_ledger()
        best = max(m.scores)
        assert m.winners == [s for s in range(players) if m.scores[s] == best]
        assert sum(1 for c in m.scores if c > 0) < 2 or host_ends
    else:
        # the current deal's stake is already in the pot; the ledger has it at deal end
        dealer = m.view(None)["dealer"]
        net = ledger(watcher.events, players)
        net[dealer] -= m.view(None)["stake_paid"]
        assert net == [c - watcher.start for c in m.scores]


@PROPERTY
@given(players=st.integers(min_value=3, max_value=7), seed=seeds, pick=seeds,
       steps=st.integers(min_value=0, max_value=60))
def test_illegal_and_malformed_actions_raise_and_change_nothing(
        players: int, seed: int, pick: int, steps: int) -> None:
    m = mauscheln(players, {"chips": 12}, seed=seed)
    rng = random.Random(pick)
    for i in range(steps + 1):
        if m.is_over:
            break
        if i % 7 == 0 or i == steps:
            contract.check_illegal_and_malformed(m, rng)
        m.apply(*contract.random_step(m, rng))
    contract.check_illegal_and_malformed(m, rng)


def test_a_finished_match_refuses_every_action() -> None:
    m = mauscheln(3, {"dealer": 0, "chips": 4})
    act(m, "1:pass 2:pass 0:pass 2:pass 1:pass")
    assert m.is_over
    contract.check_illegal_and_malformed(m, random.Random(0))
    for action in ["pass", "mauschel", "join", "fold", "exchange:"]:
        contract.assert_refused_unchanged(m, 2, action)


@PROPERTY
@given(players=st.integers(min_value=3, max_value=7), seed=seeds, pick=seeds,
       steps=st.integers(min_value=0, max_value=120))
def test_snapshot_to_json_and_restore_continues_identically(
        players: int, seed: int, pick: int, steps: int) -> None:
    m = mauscheln(players, {"chips": 10}, seed=seed)
    rng = random.Random(pick)
    contract.advance(m, rng, steps)
    contract.check_snapshot_roundtrip(m, pick, 40)


def test_a_restored_seeded_match_shuffles_later_deals_like_the_original() -> None:
    m = mauscheln(4, {"dealer": 0}, seed=77)
    act(m, "1:pass 2:pass 3:pass 0:pass")
    contract.check_snapshot_roundtrip(m, 5, 60)


def test_views_never_show_other_seats_cards_or_anyones_discards() -> None:
    for players in range(3, 8):
        m = mauscheln(players, {"chips": 8}, seed=players)
        watcher = Watcher(m)
        rng = random.Random(players)
        for _ in range(150):
            if m.is_over:
                break
            watcher.apply(*contract.random_step(m, rng))


def test_own_discards_show_in_own_view_only() -> None:
    deal = stack(3, {1: "SA SK H7 H8", 2: "D7 D8 D9 D10", 0: "C7 C8 C9 C10"}, "S7")
    m = mauscheln(3, {"dealer": 0}, deals=[deal])
    act(m, "1:mauschel 2:join 0:fold 1:exchange:H8,H7")
    assert sorted(m.view(1)["discarded"]) == ["H7", "H8"]
    for seat in (None, 0, 2):
        text = json.dumps(m.view(seat))
        assert '"H7"' not in text and '"H8"' not in text


# ----- golden playthrough -------------------------------------------------------------------
def test_golden_playthrough_of_one_seeded_deal_for_four_players() -> None:
    golden.replay("mauscheln_deal")

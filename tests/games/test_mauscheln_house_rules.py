"""Mauscheln house rules (docs/rules/mauscheln.md, Mauscheln, "House rules"), as tests.

One named scenario per sentence of the rulings for ``knock``, ``quartets``, ``belli``
and ``weli``, then properties over random games with any mix of the options the
rules allow. Scenarios stack whole deals (``deals=``) and drive the match only through
the docs/engine.md surface. The trick duties are restated as a small oracle (with the
permanent trump of Belli/Weli) instead of imported from the engine.

Decisions these tests pin down where the ruling leaves room (see the engine docstring):
- knock: knock -> the Ace into the dealer's hand -> the dealer's exchange -> joining
  -> the joiners' exchange -> play, in the order the ruling's text gives;
- quartets: a payment is a transfer with reason ``quartet``; shown quartets stay in
  ``last_deal``; a host who ends the game mid-deal gives quartet payments back too.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from itertools import combinations
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.games import GAMES, IllegalAction, new_match, restore
from app.games.mauscheln import MauschelnMatch
from tests.games import contract

SUITS = ["S", "H", "D", "C"]
RANKS = ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2"]  # strongest first
PACK_32 = [s + r for s in SUITS for r in RANKS[:8]]
PACK_52 = [s + r for s in SUITS for r in RANKS]
PACK_33 = [*PACK_32, "D6"]  # Weli
ALL_CODES = set(PACK_52)
HOUSE_KEYS = {"options", "quartets", "knock", "permanent_trumps", "trumps", "hand_hidden"}
REASONS = {"stake", "trick", "bete", "pot", "quartet"}

PROPERTY = settings(max_examples=30, deadline=None, database=None,
                    suppress_health_check=[HealthCheck.too_slow])
seeds = st.integers(min_value=0, max_value=2**32 - 1)


# ----- the trick rules with a permanent trump, restated as a small oracle ----------
def trump_order(trump: str, permanent: str | None) -> list[str]:
    """The trumps strongest first: the trump Ace, the permanent trump, then the rest."""
    natural = [trump + r for r in RANKS if trump + r != permanent]
    return natural[:1] + ([permanent] if permanent else []) + natural[1:]


def suit_as(card: str, trump: str, permanent: str | None) -> str:
    return trump if card == permanent else card[0]


def power(card: str, led: str, trump: str, permanent: str | None) -> int:
    order = trump_order(trump, permanent)
    if card in order:
        return 200 - order.index(card)
    if suit_as(card, trump, permanent) == suit_as(led, trump, permanent):
        return 100 - RANKS.index(card[1:])
    return 0


def allowed_by_rules(hand: list[str], trick: list[str], trump: str,
                     permanent: str | None) -> set[str]:
    """Follow suit if able; else trump if able; and beat the best card if able."""
    if not trick:
        return set(hand)
    led_suit = suit_as(trick[0], trump, permanent)
    same = [c for c in hand if suit_as(c, trump, permanent) == led_suit]
    trumps = [c for c in hand if suit_as(c, trump, permanent) == trump]
    first_two = same or trumps or hand
    best = max(power(c, trick[0], trump, permanent) for c in trick)
    beaters = [c for c in first_two if power(c, trick[0], trump, permanent) > best]
    return set(beaters or first_two)


# ----- helpers driving the engine through its public surface ------------------
def pack_of(players: int, weli: bool = False) -> list[str]:
    if weli:
        return list(PACK_33)
    return list(PACK_52 if players >= 6 else PACK_32)


def stack(players: int, hands: dict[int, str], trump: str, stock: str = "",
          weli: bool = False) -> dict[str, Any]:
    """A stacked deal: hands as space-separated codes per seat (missing: out), the
    turned-up card, the top of the stock; the rest of the pack follows in pack order."""
    given_hands = {s: h.split() for s, h in hands.items()}
    top = stock.split()
    used = {c for h in given_hands.values() for c in h} | {trump} | set(top)
    return {
        "hands": [given_hands.get(s, []) for s in range(players)],
        "trump": trump,
        "stock": top + [c for c in pack_of(players, weli) if c not in used],
    }


def mauscheln(players: int, options: dict[str, Any] | None = None, seed: int | None = 1,
              deals: list[Any] | None = None) -> MauschelnMatch:
    m = new_match("mauscheln", players, options, seed=seed, deals=deals)
    assert isinstance(m, MauschelnMatch)
    return m


act = contract.act


def events_of(events: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [e for e in events if e["type"] == kind]


def card_codes(obj: Any) -> set[str]:
    """Every card code anywhere in a JSON-like value."""
    return contract.card_codes(obj, ALL_CODES)


def in_play(hands: dict[int, str], trump: str, options: dict[str, Any]) -> MauschelnMatch:
    """Three seats, dealer 0: seat 1 mauschels, seats 2 and 0 join, nobody exchanges.
    Play order is 1, 2, 0 and seat 1 leads."""
    deal = stack(3, hands, trump, weli=bool(options.get("weli")))
    m = mauscheln(3, {"dealer": 0, **options}, deals=[deal])
    act(m, "1:mauschel 2:join 0:join 1:exchange: 2:exchange: 0:exchange:")
    assert m.phase == "play" and m.to_act() == {1}
    return m


# A plain first deal (no quartet, no Ace turned up), thrown in so that the second
# deal starts inside ``apply`` and its events can be seen. Dealer 0, then dealer 1.
PLAIN_FIRST = stack(3, {1: "SA SK HQ DJ", 2: "HA HK SQ CJ", 0: "DA DK CQ SJ"}, "S10")


def second_deal(options: dict[str, Any], deal: dict[str, Any]
                ) -> tuple[MauschelnMatch, list[dict[str, Any]]]:
    """``deal`` as deal 2 (dealer 1, forehand 2, order 2 0 1); pot 4 from deal 1."""
    m = mauscheln(3, {"dealer": 0, **options}, deals=[PLAIN_FIRST, deal])
    events = act(m, "1:pass 2:pass 0:pass")
    assert m.view(None)["deal_no"] == 2
    return m, events


# ===== options =======================================================================
def test_the_four_house_rules_are_bool_room_options_all_off_by_default() -> None:
    info = GAMES["mauscheln"]
    spec = {o.name: o for o in info.options}
    for name in ("knock", "quartets", "belli", "weli"):
        assert spec[name].kind == "bool" and spec[name].default is False
        assert spec[name].help
    m = mauscheln(4, {"dealer": 0})
    assert all(m.options[name] is False for name in ("knock", "quartets", "belli", "weli"))


def test_with_every_house_rule_off_the_house_rule_keys_are_there_and_empty() -> None:
    deal = stack(3, {1: "S9 H9 D9 C9", 2: "C7 C8 C10 CJ", 0: "D7 D8 D10 DJ"}, "HA")
    m = mauscheln(3, {"dealer": 0}, deals=[deal])
    assert m.phase == "bidding", "an Ace turned up asks nothing without the knock rule"
    for seat in (None, 0, 1, 2):
        view = m.view(seat)
        assert set(view) >= HOUSE_KEYS, "a house rule never removes a view key"
        assert view["options"] == {"knock": False, "quartets": False, "belli": False,
                                   "weli": False}
        assert view["quartets"] == [] and view["knock"] is None
        assert view["permanent_trumps"] == [] and view["hand_hidden"] is False
    assert m.view(None)["trumps"] == [] and m.view(2)["trumps"] == []
    assert m.view(1)["trumps"] == ["H9"], "the viewer's own trumps, as with a rule on"
    assert m.view(1)["hand"] == ["H9", "S9", "D9", "C9"], "a quartet is just a hand"


@pytest.mark.parametrize("players", [6, 7])
def test_weli_is_refused_with_six_or_seven_players_who_play_52_cards(players: int) -> None:
    with pytest.raises(ValueError, match="Weli is played with the 32-card pack only"):
        mauscheln(players, {"weli": True})


@pytest.mark.parametrize("players", [3, 4, 5])
def test_weli_together_with_belli_is_refused(players: int) -> None:
    with pytest.raises(ValueError, match="Belli and Weli cannot be played together"):
        mauscheln(players, {"weli": True, "belli": True})


@pytest.mark.parametrize("value", [1, 0, "true", None])
def test_a_house_rule_option_must_be_true_or_false(value: Any) -> None:
    for name in ("knock", "quartets", "belli", "weli"):
        with pytest.raises(ValueError, match="true or false"):
            mauscheln(3, {name: value})


def test_every_combination_the_rulings_allow_starts_a_game() -> None:
    for players in range(3, 8):
        for mask in range(16):
            knock, quartets, belli, weli = (bool(mask & bit) for bit in (1, 2, 4, 8))
            options = {"knock": knock, "quartets": quartets, "belli": belli, "weli": weli}
            if weli and (belli or players >= 6):
                continue
            view = mauscheln(players, options, seed=mask).view(None)
            assert view["options"] == options


# ===== knock ==========================================================================
# dealer 0, forehand 1; an Ace of hearts is turned up; stock 19 cards
KNOCK_DEAL = stack(3, {1: "S7 S8 S9 S10", 2: "C7 C8 C9 C10", 0: "D7 D8 DK HK"}, "HA",
                   "SA SK SQ SJ CA")
KNOCK = {"dealer": 0, "knock": True}


def test_knock_when_an_ace_is_turned_up_the_dealer_first_says_knock_or_no_knock() -> None:
    m = mauscheln(3, KNOCK, deals=[KNOCK_DEAL])
    assert m.phase == "knock" and m.to_act() == {0}
    assert m.legal_actions(0) == ["knock", "no_knock"]
    assert m.legal_actions(1) == [] and m.legal_actions(2) == []
    for seat in (None, 0, 1, 2):
        assert m.view(seat)["knock"] == {"dealer": 0, "pending": True, "decision": None}
    with pytest.raises(IllegalAction, match="knock"):
        m.apply(0, "pass")
    with pytest.raises(IllegalAction, match="not your turn"):
        m.apply(1, "knock")


def test_knock_the_dealer_decides_before_their_own_hand_is_shown_to_them() -> None:
    m = mauscheln(3, KNOCK, deals=[KNOCK_DEAL])
    view = m.view(0)
    assert view["hand"] == [] and view["hand_hidden"] is True
    assert view["hand_counts"] == [4, 4, 4], "the hand shows face down, as a count"
    assert view["trumps"] == []
    assert card_codes(view) == {"HA"}, "nothing of the dealer's four cards"
    assert card_codes(m.legal_actions(0)) == set()
    assert m.view(1)["hand"] == ["S10", "S9", "S8", "S7"] and m.view(1)["hand_hidden"] is False
    act(m, "0:no_knock")
    assert m.view(0)["hand"] == ["HK", "DK", "D8", "D7"] and m.view(0)["hand_hidden"] is False


def test_knock_is_asked_only_when_the_turned_up_card_is_an_ace() -> None:
    deal = stack(3, {1: "S7 S8 S9 S10", 2: "C7 C8 C9 C10", 0: "D7 D8 DK HA"}, "HK")
    m = mauscheln(3, KNOCK, deals=[deal])
    assert m.phase == "bidding" and m.to_act() == {1}
    assert m.view(None)["knock"] is None
    assert m.view(0)["hand"] == ["HA", "DK", "D8", "D7"]


def test_no_knock_the_bidding_goes_on_as_usual_from_forehand() -> None:
    m = mauscheln(3, KNOCK, deals=[KNOCK_DEAL])
    events = act(m, "0:no_knock")
    assert events == [{"type": "knock", "seat": 0, "decision": "no_knock"}]
    assert m.phase == "bidding" and m.to_act() == {1}
    assert m.view(None)["knock"] == {"dealer": 0, "pending": False, "decision": "no_knock"}
    act(m, "1:pass 2:pass 0:mauschel")
    assert m.view(None)["sneaker"] == 0 and m.phase == "joining" and m.to_act() == {1}
    assert m.view(0)["hand_counts"][0] == 4, "without knocking the Ace stays beside the stock"


def test_knocking_makes_the_dealer_the_sneaker_without_bidding() -> None:
    m = mauscheln(3, KNOCK, deals=[KNOCK_DEAL])
    events = act(m, "0:knock")
    assert events == [{"type": "knock", "seat": 0, "decision": "knock"}]
    view = m.view(None)
    assert view["sneaker"] == 0 and view["bids"] == [None, None, None]
    assert view["knock"] == {"dealer": 0, "pending": False, "decision": "knock"}
    assert m.phase == "exchange" and m.to_act() == {0}


def test_the_knocking_dealer_takes_the_ace_into_their_hand() -> None:
    m = mauscheln(3, KNOCK, deals=[KNOCK_DEAL])
    act(m, "0:knock")
    view = m.view(0)
    assert view["hand"] == ["HA", "HK", "DK", "D8", "D7"]
    assert view["hand_counts"] == [5, 4, 4]
    assert view["trumps"] == ["HA", "HK"]
    assert view["trump_card"] == "HA" and view["trump"] == "H", "the trump stays hearts"


@pytest.mark.parametrize("discards", [1, 2, 3, 4, 5])
def test_the_knocking_dealer_exchanges_one_to_five_cards_and_draws_one_fewer(
        discards: int) -> None:
    m = mauscheln(3, KNOCK, deals=[KNOCK_DEAL])
    act(m, "0:knock")
    legal = m.legal_actions(0)
    assert "exchange:" not in legal, "at least one card goes"
    assert len(legal) == 31, "every choice of one to five of the five cards"
    assert {len(a[9:].split(",")) for a in legal} == {1, 2, 3, 4, 5}
    hand = m.view(0)["hand"]
    events = m.apply(0, "exchange:" + ",".join(hand[:discards]))
    assert events == [{"type": "exchange", "seat": 0, "discarded": discards,
                       "drawn": discards - 1, "stock": 19 - (discards - 1)}]
    kept = hand[discards:]
    drawn = ["SA", "SK", "SQ", "SJ"][:discards - 1]
    assert sorted(m.view(0)["hand"]) == sorted(kept + drawn)
    assert len(m.view(0)["hand"]) == 4, "so they hold four"
    assert m.view(None)["exchanged"] == [discards, None, None]


def test_the_knocking_dealer_must_discard_at_least_one_card() -> None:
    m = mauscheln(3, KNOCK, deals=[KNOCK_DEAL])
    act(m, "0:knock")
    contract.assert_refused_unchanged(m, 0, "exchange:")
    with pytest.raises(IllegalAction, match="discard at least 1"):
        m.apply(0, "exchange:")


def test_the_knocking_dealer_may_discard_the_ace_itself() -> None:
    m = mauscheln(3, KNOCK, deals=[KNOCK_DEAL])
    act(m, "0:knock")
    assert "exchange:HA" in m.legal_actions(0)
    act(m, "0:exchange:HA")
    assert m.view(0)["hand"] == ["HK", "DK", "D8", "D7"]
    assert m.view(0)["discarded"] == ["HA"]
    for seat in (None, 1, 2):
        assert "HA" not in json.dumps({k: v for k, v in m.view(seat).items()
                                       if k != "trump_card"})


# five seats, dealer 0, order 1 2 3 4 0, an Ace turned up; quartets take four cards
# each from the stock before the dealer decides: with Weli three quartets empty the
# stock of 12, without Weli two quartets leave 3 of 11
@pytest.mark.parametrize("weli,seat_3,shown,left", [
    pytest.param(True, "SJ HJ DJ CJ", [1, 2, 3], 0, id="weli-stock-0"),
    pytest.param(False, "SJ HJ DJ C10", [1, 2], 3, id="stock-3"),
])
def test_the_knocking_dealer_never_discards_more_than_the_stock_plus_one(
        weli: bool, seat_3: str, shown: list[int], left: int) -> None:
    hands = {1: "SK HK DK CK", 2: "SQ HQ DQ CQ", 3: seat_3, 4: "S10 H10 D9 C9",
             0: "S7 S8 H7 H8"}
    options = {"dealer": 0, "knock": True, "quartets": True, "weli": weli}
    m = mauscheln(5, options, deals=[stack(5, hands, "HA", weli=weli)])
    assert [q["seat"] for q in m.view(None)["quartets"]] == shown
    assert m.view(None)["stock_count"] == left
    act(m, "0:knock")
    legal = m.legal_actions(0)
    assert max(len(a[9:].split(",")) for a in legal) == left + 1
    assert len(legal) == sum(len(list(combinations(range(5), k))) for k in range(1, left + 2))
    too_many = "exchange:" + ",".join(m.view(0)["hand"][:left + 2])
    contract.assert_refused_unchanged(m, 0, too_many)
    with pytest.raises(IllegalAction, match=f"discard at most {left + 1}"):
        m.apply(0, too_many)
    act(m, "0:" + max(legal, key=lambda a: len(a.split(","))))
    assert len(m.view(0)["hand"]) == 4 and m.view(None)["stock_count"] == 0


def test_after_the_knock_exchange_the_others_join_or_fold_as_usual() -> None:
    m = mauscheln(3, KNOCK, deals=[KNOCK_DEAL])
    act(m, "0:knock 0:exchange:D8,D7")
    assert m.phase == "joining" and m.to_act() == {1}, "from the dealer's left"
    assert m.legal_actions(1) == ["join", "fold"]
    act(m, "1:join 2:fold")
    assert m.phase == "exchange" and m.to_act() == {1}, "the sneaker exchanged already"
    assert m.legal_actions(1)[0] == "exchange:"
    act(m, "1:exchange:S8,S7")
    view = m.view(None)
    assert m.phase == "play" and m.to_act() == {0}, "the sneaker leads"
    assert view["playing"] == [0, 1] and view["exchanged"] == [2, 2, None]
    assert view["hand_counts"][0] == 4 and view["hand_counts"][1] == 4


def test_everybody_folds_after_a_knock_the_dealer_takes_the_pot() -> None:
    m = mauscheln(3, KNOCK, deals=[KNOCK_DEAL])
    events = act(m, "0:knock 0:exchange:D7 1:fold 2:fold")
    (end,) = events_of(events, "deal_end")
    assert end["kind"] == "all_folded" and end["sneaker"] == 0 and end["knock"] == "knock"
    assert end["transfers"] == [{"seat": 0, "amount": -4, "reason": "stake"},
                                {"seat": 0, "amount": 4, "reason": "pot"}]


def test_a_knocking_dealer_settles_as_the_sneaker_a_single_trick_pays_a_bete() -> None:
    deal = stack(3, {1: "HQ HJ H10 H9", 2: "C9 C10 CJ CQ", 0: "S7 S8 S9 D7"}, "HA",
                 "S10 SJ SQ")
    m = mauscheln(3, KNOCK, deals=[deal])
    events = act(m, "0:knock 0:exchange:S9,S8,S7,D7 1:join 2:fold 1:exchange: "
                    "0:play:HA 1:play:H9 0:play:S10 1:play:H10 "
                    "1:play:HQ 0:play:SJ 1:play:HJ 0:play:SQ")
    (end,) = events_of(events, "deal_end")
    assert end["tricks_won"] == [1, 3, 0]
    assert end["transfers"] == [{"seat": 0, "amount": -4, "reason": "stake"},
                                {"seat": 0, "amount": 1, "reason": "trick"},
                                {"seat": 1, "amount": 3, "reason": "trick"},
                                {"seat": 0, "amount": -4, "reason": "bete"}]


def test_illegal_and_malformed_actions_during_a_knock_change_nothing() -> None:
    m = mauscheln(3, KNOCK, deals=[KNOCK_DEAL])
    contract.check_illegal_and_malformed(m, random.Random(0))
    for action in ["mauschel", "pass", "join", "exchange:", "exchange:HA", "Knock", " knock"]:
        contract.assert_refused_unchanged(m, 0, action)
    act(m, "0:knock")
    contract.check_illegal_and_malformed(m, random.Random(1))
    for action in ["knock", "no_knock", "exchange:HA,HA", "exchange:SA", "exchange:HK,HA"]:
        contract.assert_refused_unchanged(m, 0, action)


# ===== quartets =======================================================================
QUARTETS = {"dealer": 0, "quartets": True}
# dealer 0, order 1 2 0: seat 1 holds the four nines
NINES = stack(3, {1: "S9 H9 D9 C9", 2: "C7 C8 C10 CJ", 0: "D7 D8 D10 DJ"}, "H7",
              "SA SK SQ SJ")


def test_a_quartet_is_shown_discarded_paid_for_and_replaced_right_after_the_deal() -> None:
    m = mauscheln(3, QUARTETS, deals=[NINES])
    view = m.view(1)
    assert view["quartets"] == [{"seat": 1, "cards": ["S9", "H9", "D9", "C9"]}]
    assert view["hand"] == ["SA", "SK", "SQ", "SJ"], "four new cards from the stock top"
    assert m.scores == [36, 36, 40] and m.pot == 8
    assert view["stock_count"] == 19 - 4
    assert m.phase == "bidding" and m.to_act() == {1}


def test_a_quartet_payment_is_a_ledger_transfer_with_reason_quartet() -> None:
    m = mauscheln(3, QUARTETS, deals=[NINES])
    events = act(m, "1:pass 2:pass 0:pass")
    (end,) = events_of(events, "deal_end")
    assert end["transfers"] == [{"seat": 0, "amount": -4, "reason": "stake"},
                                {"seat": 1, "amount": -4, "reason": "quartet"}]
    assert end["pot"] == 8


def test_a_quartet_is_announced_in_a_public_event_after_the_deal_event() -> None:
    deal = stack(3, {2: "S8 H8 D8 C8", 0: "SA HK DQ CJ", 1: "S7 H7 D7 HA"}, "H9",
                 "SK SQ S10 S9")
    m, events = second_deal(QUARTETS, deal)
    events = events[[e["type"] for e in events].index("deal_end"):]
    assert [e["type"] for e in events] == ["deal_end", "deal", "quartet"]
    assert events[2] == {"type": "quartet", "seat": 2, "cards": ["S8", "H8", "D8", "C8"],
                         "paid": 4, "drawn": 4, "pot": 12, "stock": 15}
    assert events[1]["pot"] == 8, "the deal event shows the pot after the stake"
    assert m.view(2)["hand"] == ["SK", "SQ", "S10", "S9"]


def test_quartets_are_shown_in_seat_order_from_forehand() -> None:
    # deal 2: dealer 1, order 2 0 1; seats 0 and 2 hold quartets, seat 2 comes first
    deal = stack(3, {2: "S8 H8 D8 C8", 0: "SJ HJ DJ CJ", 1: "S7 H7 D7 SA"}, "H9",
                 "SK SQ S10 S9 CA CK CQ C10")
    m, events = second_deal(QUARTETS, deal)
    assert [(e["seat"], e["cards"][0][1:]) for e in events_of(events, "quartet")] == \
        [(2, "8"), (0, "J")]
    assert m.view(2)["hand"] == ["SK", "SQ", "S10", "S9"]
    assert m.view(0)["hand"] == ["CA", "CK", "CQ", "C10"]
    assert [q["seat"] for q in m.view(None)["quartets"]] == [2, 0]


def test_a_quartet_drawn_again_is_shown_and_paid_for_again() -> None:
    deal = stack(3, {1: "S9 H9 D9 C9", 2: "C7 C8 C10 CJ", 0: "D7 D8 D10 DJ"}, "H7",
                 "SK HK DK CK SA SQ SJ S10")
    m = mauscheln(3, QUARTETS, deals=[deal])
    assert m.view(None)["quartets"] == [{"seat": 1, "cards": ["S9", "H9", "D9", "C9"]},
                                        {"seat": 1, "cards": ["SK", "HK", "DK", "CK"]}]
    assert m.view(1)["hand"] == ["SA", "SQ", "SJ", "S10"]
    assert m.scores == [36, 32, 40] and m.pot == 12


def test_shown_quartets_are_public_for_the_rest_of_the_deal() -> None:
    m = mauscheln(3, QUARTETS, deals=[NINES])
    nines = [{"seat": 1, "cards": ["S9", "H9", "D9", "C9"]}]
    moves = ("1:mauschel 2:join 0:fold 1:exchange: 2:exchange: 1:play:SA 2:play:C7 "
             "1:play:SK 2:play:C8 1:play:SQ 2:play:C10 1:play:SJ")
    for move in moves.split():
        for seat in (None, 0, 1, 2):
            assert m.view(seat)["quartets"] == nines
        act(m, move)
    events = act(m, "2:play:CJ")
    (end,) = events_of(events, "deal_end")
    assert end["quartets"] == nines, "the deal's record keeps what was shown"
    assert end["tricks_won"] == [0, 4, 0] and end["trick_value"] == 2
    assert m.view(None)["quartets"] == [], "the next deal starts with none shown"
    assert m.view(2)["last_deal"]["quartets"] == nines


def test_a_stock_of_fewer_than_four_cards_keeps_the_quartet_nothing_shown_or_paid() -> None:
    # five seats, dealer 0, order 1 2 3 4 0; 11 in the stock: two quartets leave 3
    deal = stack(5, {1: "SK HK DK CK", 2: "SQ HQ DQ CQ", 3: "SJ HJ DJ CJ",
                     4: "S10 H10 D10 C9", 0: "S7 S8 H7 H8"}, "C10")
    m = mauscheln(5, {"dealer": 0, "quartets": True}, deals=[deal])
    view = m.view(3)
    assert [q["seat"] for q in view["quartets"]] == [1, 2]
    assert view["stock_count"] == 3
    assert view["hand"] == ["CJ", "SJ", "HJ", "DJ"], "seat 3 keeps the quartet (clubs trumps)"
    assert m.scores == [36, 36, 36, 40, 40] and m.pot == 12


def test_a_quartet_costs_what_the_player_has_when_that_is_less_than_a_stake() -> None:
    m = mauscheln(3, {**QUARTETS, "chips": 3}, deals=[NINES])
    assert m.scores == [0, 0, 3] and m.pot == 6
    events = act(m, "1:pass 2:pass 0:pass")
    assert events_of(events, "deal_end")[0]["transfers"][1] == \
        {"seat": 1, "amount": -3, "reason": "quartet"}


def test_paying_ones_last_chip_for_a_quartet_still_plays_the_deal() -> None:
    m = mauscheln(3, {**QUARTETS, "chips": 4}, deals=[NINES])
    assert m.scores == [0, 0, 4] and m.view(None)["in_deal"] == [0, 1, 2]
    assert m.legal_actions(1) == ["mauschel", "pass"]
    events = act(m, "1:mauschel 2:join 0:fold 1:exchange: 2:exchange: "
                    "1:play:SA 2:play:C7 1:play:SK 2:play:C8 1:play:SQ 2:play:C10 "
                    "1:play:SJ 2:play:CJ")
    (end,) = events_of(events, "deal_end")
    assert end["tricks_won"] == [0, 4, 0]
    assert end["scores"] == [0, 8, 0], "seat 1 plays and takes the pot of 8"


def test_with_belli_the_seven_of_diamonds_still_counts_as_a_seven_for_a_quartet() -> None:
    deal = stack(3, {1: "S7 H7 D7 C7", 2: "C8 C9 C10 CJ", 0: "D8 D9 D10 DJ"}, "H8",
                 "SA SK SQ SJ")
    m = mauscheln(3, {**QUARTETS, "belli": True}, deals=[deal])
    assert m.view(None)["quartets"] == [{"seat": 1, "cards": ["S7", "H7", "D7", "C7"]}]
    assert m.view(1)["hand"] == ["SA", "SK", "SQ", "SJ"]


def test_without_the_quartets_rule_a_quartet_is_kept_and_played() -> None:
    m = mauscheln(3, {"dealer": 0, "belli": True}, deals=[NINES])
    assert m.view(None)["quartets"] == []
    assert m.view(1)["hand"] == ["H9", "S9", "D9", "C9"], "hearts are trumps"
    assert m.scores == [36, 40, 40]


def test_quartets_come_before_the_knock_decision() -> None:
    deal = stack(3, {1: "S8 H8 D8 C8", 2: "C7 C9 C10 CJ", 0: "SQ HQ DQ CQ"}, "HA",
                 "SK SJ S10 S9 DA DK DJ D10")
    m = mauscheln(3, {"dealer": 0, "quartets": True, "knock": True}, deals=[deal])
    assert [q["seat"] for q in m.view(None)["quartets"]] == [1, 0]
    assert m.scores == [32, 36, 40]
    assert m.phase == "knock" and m.to_act() == {0}
    view = m.view(0)
    assert view["hand"] == [] and view["hand_hidden"] is True
    assert not card_codes(view) & {"DA", "DK", "DJ", "D10"}, "the new hand stays unseen"
    assert {"SQ", "HQ", "DQ", "CQ"} <= card_codes(view), "the shown quartet is public"


def test_a_host_ending_the_game_mid_deal_gives_quartet_payments_back_too() -> None:
    m = mauscheln(3, QUARTETS, deals=[NINES])
    events = m.end_by_host()
    assert events[0]["kind"] == "cancelled" and events[0]["transfers"] == []
    assert m.scores == [40, 40, 40] and m.pot == 0


# ===== Belli ==========================================================================
BELLI = {"belli": True}


def test_belli_the_seven_of_diamonds_is_always_a_trump() -> None:
    deal = stack(3, {1: "HK HA D7 S7", 2: "C7 C8 C9 C10", 0: "D8 D9 D10 DJ"}, "H8")
    m = mauscheln(3, {"dealer": 0, **BELLI}, deals=[deal])
    view = m.view(1)
    assert view["hand"] == ["HA", "D7", "HK", "S7"], "among the trumps, below the Ace"
    assert view["trumps"] == ["HA", "D7", "HK"]
    assert view["permanent_trumps"] == ["D7"]
    assert m.view(0)["trumps"] == [], "the other diamonds are plain diamonds"


def test_belli_ranks_directly_below_the_trump_ace_above_the_trump_king() -> None:
    m = in_play({1: "HK S7 S8 S9", 2: "D7 C7 C8 C9", 0: "HA D8 D9 D10"}, "H8", BELLI)
    act(m, "1:play:HK")
    assert m.legal_actions(2) == ["play:D7"], "D7 follows trumps and beats the King"
    assert m.view(2)["duty"] == {"kind": "beat", "card": "HK", "suit": "H"}
    act(m, "2:play:D7")
    assert m.legal_actions(0) == ["play:HA"]
    assert m.view(0)["duty"] == {"kind": "beat", "card": "D7", "suit": "H"}
    with pytest.raises(IllegalAction, match="must beat 7♦"):
        m.apply(0, "play:D8")
    (trick,) = events_of(act(m, "0:play:HA"), "trick")
    assert trick["winner"] == 0, "the trump Ace beats the Belli"


def test_belli_led_calls_for_trumps_and_must_be_beaten_by_a_higher_trump() -> None:
    m = in_play({1: "D7 S7 S8 S9", 2: "HK HQ D8 C7", 0: "HA H9 D9 C8"}, "H8", BELLI)
    act(m, "1:play:D7")
    assert set(m.legal_actions(2)) == {"play:HK", "play:HQ"}, \
        "follow with trumps (not diamonds); the King cannot beat the Belli"
    assert m.view(2)["duty"] == {"kind": "follow", "card": "D7", "suit": "H"}
    contract.assert_refused_unchanged(m, 2, "play:D8")
    act(m, "2:play:HQ")
    assert m.legal_actions(0) == ["play:HA"], "only the Ace beats the Belli"
    (trick,) = events_of(act(m, "0:play:HA"), "trick")
    assert trick["winner"] == 0


def test_belli_is_no_diamond_a_player_whose_only_diamond_it_is_must_trump_with_it() -> None:
    m = in_play({1: "DK S7 S8 S9", 2: "D7 S10 SJ SQ", 0: "DA C7 C8 C9"}, "H8", BELLI)
    act(m, "1:play:DK")
    assert m.legal_actions(2) == ["play:D7"]
    assert m.view(2)["duty"]["kind"] == "trump"
    act(m, "2:play:D7")
    assert m.legal_actions(0) == ["play:DA"], "follow diamonds; the Ace cannot beat a trump"
    (trick,) = events_of(act(m, "0:play:DA"), "trick")
    assert trick["winner"] == 2


def test_belli_with_diamonds_trumps_is_their_second_highest_card() -> None:
    m = in_play({1: "DK S7 S8 S9", 2: "D7 D9 C7 C8", 0: "DA D10 C9 C10"}, "D8", BELLI)
    assert m.view(2)["trumps"] == ["D7", "D9"]
    act(m, "1:play:DK")
    assert m.legal_actions(2) == ["play:D7"], "the Belli beats the King of trumps"
    act(m, "2:play:D7")
    assert m.legal_actions(0) == ["play:DA"]
    (trick,) = events_of(act(m, "0:play:DA"), "trick")
    assert trick["winner"] == 0


def test_belli_costs_no_extra_penalty_when_lost_to_the_ace() -> None:
    m = in_play({1: "D7 S7 S8 S9", 2: "HK HQ D8 C7", 0: "HA H9 D9 C8"}, "H8", BELLI)
    events = act(m, "1:play:D7 2:play:HQ 0:play:HA 0:play:H9 1:play:S7 2:play:HK "
                    "2:play:D8 0:play:D9 1:play:S8 0:play:C8 1:play:S9 2:play:C7")
    (end,) = events_of(events, "deal_end")
    assert end["tricks_won"] == [3, 0, 1]
    assert end["transfers"] == [{"seat": 0, "amount": -4, "reason": "stake"},
                                {"seat": 0, "amount": 3, "reason": "trick"},
                                {"seat": 2, "amount": 1, "reason": "trick"},
                                {"seat": 1, "amount": -8, "reason": "bete"}]
    assert end["betes"] == [{"seat": 1, "due": 8, "paid": 8}]


# ===== Weli ===========================================================================
WELI = {"weli": True}


@pytest.mark.parametrize("players", [3, 4, 5])
def test_weli_adds_the_six_of_diamonds_as_a_33rd_card(players: int) -> None:
    m = mauscheln(players, {"dealer": 0, **WELI}, seed=players)
    snap = m.snapshot()["state"]
    dealt = [c for h in snap["hands"] for c in h] + [snap["trump_card"]] + snap["stock"]
    assert Counter(dealt) == Counter(PACK_33)
    view = m.view(None)
    assert view["pack_size"] == 33 and view["stock_count"] == 33 - 1 - 4 * players
    assert view["permanent_trumps"] == ["D6"]


def test_a_stacked_deal_with_weli_must_hold_the_six_of_diamonds() -> None:
    plain = stack(3, {1: "S7 S8 S9 S10", 2: "C7 C8 C9 C10", 0: "D7 D8 DK HK"}, "HA")
    with pytest.raises(ValueError, match="D6"):
        mauscheln(3, {"dealer": 0, **WELI}, deals=[plain])
    weli = stack(3, {1: "S7 S8 S9 S10", 2: "C7 C8 C9 C10", 0: "D7 D8 DK HK"}, "HA", weli=True)
    assert mauscheln(3, {"dealer": 0, **WELI}, deals=[weli]).view(None)["stock_count"] == 20
    with pytest.raises(ValueError):
        mauscheln(3, {"dealer": 0}, deals=[weli])


def test_weli_is_a_trump_directly_below_the_trump_ace() -> None:
    m = in_play({1: "HK S7 S8 S9", 2: "D6 C7 C8 C9", 0: "HA D8 D9 D10"}, "H8", WELI)
    assert m.view(2)["trumps"] == ["D6"]
    act(m, "1:play:HK")
    assert m.legal_actions(2) == ["play:D6"], "the Weli follows trumps and beats the King"
    act(m, "2:play:D6")
    assert m.legal_actions(0) == ["play:HA"]
    (trick,) = events_of(act(m, "0:play:HA"), "trick")
    assert trick["winner"] == 0


def test_weli_led_must_be_beaten_by_the_trump_ace_only() -> None:
    m = in_play({1: "D6 S7 S8 S9", 2: "HK HQ D8 C7", 0: "HA H9 D9 C8"}, "H8", WELI)
    act(m, "1:play:D6")
    assert set(m.legal_actions(2)) == {"play:HK", "play:HQ"}
    act(m, "2:play:HK")
    assert m.legal_actions(0) == ["play:HA"]


def test_weli_with_diamonds_trumps_is_their_second_highest_card() -> None:
    m = in_play({1: "DK S7 S8 S9", 2: "D6 D9 C7 C8", 0: "DA D10 C9 C10"}, "D8", WELI)
    act(m, "1:play:DK")
    assert m.legal_actions(2) == ["play:D6"]
    act(m, "2:play:D6")
    assert m.legal_actions(0) == ["play:DA"]


def test_weli_turned_up_makes_diamonds_trumps() -> None:
    m = in_play({1: "S7 S8 S9 S10", 2: "DQ C7 C8 C9", 0: "D7 HA HK HQ"}, "D6", WELI)
    view = m.view(2)
    assert view["trump_card"] == "D6" and view["trump"] == "D"
    assert view["trumps"] == ["DQ"] and m.view(0)["trumps"] == ["D7"]
    act(m, "1:play:S7")
    assert m.legal_actions(2) == ["play:DQ"], "void in spades: a diamond is a trump"
    act(m, "2:play:DQ")
    assert m.legal_actions(0) == ["play:D7"]


def test_weli_turned_up_is_no_ace_and_asks_no_knock() -> None:
    deal = stack(3, {1: "S7 S8 S9 S10", 2: "C7 C8 C9 C10", 0: "D7 D8 DK HK"}, "D6",
                 weli=True)
    m = mauscheln(3, {"dealer": 0, "knock": True, **WELI}, deals=[deal])
    assert m.phase == "bidding" and m.view(None)["knock"] is None


# ===== properties over random games ====================================================
@st.composite
def tables(draw: st.DrawFn) -> tuple[int, dict[str, Any]]:
    """Seats and a mix of house rules the rulings allow."""
    players = draw(st.integers(min_value=3, max_value=7))
    belli = draw(st.booleans())
    weli = not belli and players <= 5 and draw(st.booleans())
    options = {"knock": draw(st.booleans()), "quartets": draw(st.booleans()),
               "belli": belli, "weli": weli, "dealer": draw(st.integers(0, players - 1)),
               "chips": draw(st.sampled_from([4, 8, 40]))}
    return players, options


def planted_deal(players: int, options: dict[str, Any], rng: random.Random
                 ) -> dict[str, Any]:
    """A first deal with up to three quartets (one maybe drawn again) and often an
    Ace turned up, so the house rules come up; the rest shuffled."""
    pack = pack_of(players, bool(options["weli"]))
    dealer = options["dealer"]
    order = [(dealer + 1 + i) % players for i in range(players)]
    ranks = ["K", "Q", "J", "10", "9", "8"]
    rng.shuffle(ranks)
    count = rng.randint(0, 3)
    hands: dict[int, list[str]] = {}
    for seat, rank in zip(rng.sample(order, count), ranks, strict=False):
        hands[seat] = [s + rank for s in SUITS]
    top = [s + ranks[count] for s in SUITS] if rng.random() < 0.5 else []
    used = {c for h in hands.values() for c in h} | set(top)
    rest = [c for c in pack if c not in used]
    rng.shuffle(rest)
    aces = [c for c in rest if c.endswith("A")]
    trump = rng.choice(aces) if rng.random() < 0.6 else rest[0]
    rest.remove(trump)
    for seat in order:
        if seat not in hands:
            hands[seat], rest = rest[:4], rest[4:]
    return {"hands": [hands[s] for s in range(players)], "trump": trump, "stock": top + rest}


class Watcher:
    """Follows a match, checks every view, event and the chips after each step."""

    def __init__(self, m: MauschelnMatch) -> None:
        self.m = m
        self.players = m.players
        self.start = m.view(None)["start_chips"]
        self.total = sum(m.scores) + m.pot
        spectator = m.view(None)
        self.house_rules = any(m.options[k] for k in ("knock", "quartets", "belli", "weli"))
        self.public = {spectator["trump_card"]} | card_codes(spectator.get("quartets", []))
        self.last_public: set[str] | None = None
        self.events: list[dict[str, Any]] = []
        self.permanent = "D7" if m.options["belli"] else "D6" if m.options["weli"] else None
        self.pack = pack_of(m.players, bool(m.options["weli"]))
        self.plays_started = 0
        self.check()

    def apply(self, seat: int, action: str) -> None:
        self.see(self.m.apply(seat, action))

    def see(self, events: list[dict[str, Any]]) -> None:
        for e in events:
            if e["type"] == "deal_end":
                self.last_public = set(self.public)
                assert card_codes(e) <= self.last_public
                for t in e["transfers"]:
                    assert t["reason"] in REASONS and isinstance(t["amount"], int)
            elif e["type"] == "deal":
                assert card_codes(e) == {e["trump_card"]}
                self.public = {e["trump_card"]}
            elif e["type"] == "quartet":
                assert len(e["cards"]) == 4 and len({c[1:] for c in e["cards"]}) == 1
                self.public |= set(e["cards"])
            elif e["type"] == "play":
                self.public.add(e["card"])
            elif e["type"] in ("bid", "answer", "exchange", "knock", "match_end"):
                assert card_codes(e) == set()
            if e["type"] in ("play", "trick"):
                assert card_codes(e) <= self.public
        self.events += events
        self.check()

    def check(self) -> None:
        m = self.m
        assert sum(m.scores) + m.pot == self.total, "chips are conserved"
        assert all(isinstance(c, int) and c >= 0 for c in [*m.scores, m.pot])
        if m.is_over:
            return
        state = m.snapshot()["state"]
        spectator = m.view(None)
        assert set(spectator) >= HOUSE_KEYS, "the house-rule keys are in every view"
        knock = spectator.get("knock")
        quartets = spectator.get("quartets", [])
        # every card is somewhere exactly once
        played = [c for t in state["tricks"] for _, c in t["plays"]] + \
            [c for _, c in state["trick"]]
        places = [c for h in state["hands"] for c in h] + state["stock"] + played + \
            [c for d in state["discards"] for c in d] + \
            [c for q in quartets for c in q["cards"]]
        if not (knock and knock["decision"] == "knock"):
            places.append(spectator["trump_card"])
        assert Counter(places) == Counter(self.pack)
        assert self.public == {spectator["trump_card"]} | set(played) | \
            card_codes(quartets), "events announce every face-up card"
        # four cards each whenever a phase asks and at the start of play
        counts = spectator["hand_counts"]
        if m.phase in ("knock", "bidding", "joining"):
            assert all(counts[s] == 4 for s in spectator["in_deal"])
        if m.phase == "exchange" and knock and knock["decision"] == "knock" \
                and spectator["exchanged"][m.dealer] is None:
            assert counts[m.dealer] == 5, "the knocking dealer holds the Ace as a fifth card"
        if m.phase == "play" and not state["tricks"] and not state["trick"]:
            self.plays_started += 1
            assert all(counts[s] == 4 for s in spectator["playing"])
        # views: own cards, public cards, nothing else; the knocking dealer sees nothing
        for seat in [None, *range(self.players)]:
            view = m.view(seat)
            assert view.get("quartets", []) == quartets
            if self.house_rules:
                assert view["permanent_trumps"] == ([self.permanent] if self.permanent else [])
            hidden = knock is not None and knock["pending"] and seat == m.dealer
            own: set[str] = set()
            if seat is not None:
                own = set(state["discards"][seat])
                if not hidden:
                    own |= set(state["hands"][seat])
                assert view.get("hand_hidden", False) is hidden
                assert sorted(view["hand"]) == ([] if hidden else sorted(state["hands"][seat]))
                assert set(view.get("trumps", [])) <= set(view["hand"])
            current = {k: v for k, v in view.items() if k not in ("last_deal", "permanent_trumps")}
            assert card_codes(current) <= self.public | own, f"seat {seat} sees hidden cards"
            if hidden:  # (last_deal may show the same codes, played in the last deal)
                assert not card_codes(current) & set(state["hands"][seat])
                assert card_codes(m.legal_actions(seat)) == set()
            if "last_deal" in view:
                assert self.last_public is not None
                assert card_codes(view["last_deal"]) <= self.last_public
        if m.phase == "play":
            (seat,) = m.to_act()
            trick = [p["card"] for p in spectator["trick"]]
            expected = allowed_by_rules(state["hands"][seat], trick, spectator["trump"],
                                        self.permanent)
            assert set(m.legal_actions(seat)) == {"play:" + c for c in expected}

    def check_ledger(self) -> None:
        net = [0] * self.players
        for end in events_of(self.events, "deal_end"):
            for t in end["transfers"]:
                net[t["seat"]] += t["amount"]
        assert net == [c - self.start for c in self.m.scores]


@PROPERTY
@given(table=tables(), seed=seeds, pick=seeds)
def test_any_mix_of_house_rules_conserves_chips_deals_four_cards_each_and_hides_hands(
        table: tuple[int, dict[str, Any]], seed: int, pick: int) -> None:
    players, options = table
    rng = random.Random(pick)
    m = mauscheln(players, options, seed=seed, deals=[planted_deal(players, options, rng)])
    watcher = Watcher(m)
    for _ in range(160):
        if m.is_over:
            break
        watcher.apply(*contract.random_step(m, rng))
    if not m.is_over:
        watcher.see(m.end_by_host())
    watcher.check_ledger()
    assert watcher.plays_started or not events_of(watcher.events, "trick")


@PROPERTY
@given(table=tables(), seed=seeds, pick=seeds, steps=st.integers(min_value=0, max_value=40))
def test_illegal_and_malformed_actions_change_nothing_with_house_rules(
        table: tuple[int, dict[str, Any]], seed: int, pick: int, steps: int) -> None:
    players, options = table
    rng = random.Random(pick)
    m = mauscheln(players, options, seed=seed, deals=[planted_deal(players, options, rng)])
    for i in range(steps + 1):
        if m.is_over:
            break
        if i % 8 == 0 or i == steps:
            contract.check_illegal_and_malformed(m, rng)
        m.apply(*contract.random_step(m, rng))
    contract.check_illegal_and_malformed(m, rng)


@PROPERTY
@given(table=tables(), seed=seeds, pick=seeds, steps=st.integers(min_value=0, max_value=80))
def test_snapshot_and_restore_continue_identically_with_house_rules(
        table: tuple[int, dict[str, Any]], seed: int, pick: int, steps: int) -> None:
    players, options = table
    rng = random.Random(pick)
    m = mauscheln(players, options, seed=seed, deals=[planted_deal(players, options, rng)])
    contract.advance(m, rng, steps)
    contract.check_snapshot_roundtrip(m, pick, 30)


def test_a_snapshot_taken_during_the_knock_decision_keeps_the_hand_hidden() -> None:
    m = mauscheln(3, KNOCK, deals=[KNOCK_DEAL])
    contract.check_snapshot_roundtrip(m, 3, 12)
    m2 = mauscheln(3, KNOCK, deals=[KNOCK_DEAL])
    copy = restore(json.loads(json.dumps(m2.snapshot())))
    assert copy.view(0)["hand"] == [] and copy.view(0)["hand_hidden"] is True

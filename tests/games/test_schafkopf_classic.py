"""Classic Schafkopf (docs/rules/schafkopf_classic.md), as tests.

The engine is tested through its class (the game is not in ``app.games.GAMES`` until
the web presents it), driven only through the engine contract's surface. The rules
are restated here where a test needs them (trump orders, card points), so the
expectations come from the rules, not from the code under test. Deals are stacked;
where a test needs a deal to end with a given number of card points, it plays the
stacked deal out at random from the same position until one does (a bounded search
over seeds), and checks the money of that deal against the rules.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import pytest

from app.games import IllegalAction, Match, OptionError
from app.games.actions import CallSau, ChooseTrump, Kontra, NameGame, Play, Retour, Speak
from app.games.schafkopf_classic import INFO, SchafkopfClassicMatch, callable_suits, laufende
from tests.games import contract

SUITS = ["E", "G", "H", "S"]
RANKS = ["A", "10", "K", "O", "U", "9", "8", "7"]
DECK = [s + r for s in SUITS for r in RANKS]
POINTS = {"A": 11, "10": 10, "K": 4, "O": 3, "U": 2, "9": 0, "8": 0, "7": 0}
OBERS = ["EO", "GO", "HO", "SO"]
UNTERS = ["EU", "GU", "HU", "SU"]
Events = list[dict[str, Any]]
KINDS = (Play, Speak, NameGame, CallSau, ChooseTrump, Kontra, Retour)


# ----- building deals and driving the engine -----------------------------------------
def hands(*rows: str) -> dict[str, Any]:
    """A stacked deal from four rows of card codes, seat 1 first."""
    return {"hands": [row.split() for row in rows]}


def filled(seed: int, **given: str) -> dict[str, Any]:
    """A deal where the seats named ``s0`` .. ``s3`` hold the given cards and the
    rest of the deck is shuffled (``seed``) into the remaining places."""
    fixed = {int(k[1:]): v.split() for k, v in given.items()}
    rest = [c for c in DECK if not any(c in h for h in fixed.values())]
    random.Random(seed).shuffle(rest)
    out = []
    for seat in range(4):
        hand = fixed.get(seat, [])
        out.append(hand + rest[:8 - len(hand)])
        rest = rest[8 - len(hand):]
    return {"hands": out}


def match(*deals: dict[str, Any], dealer: int = 3, seed: int = 1, **options: Any
          ) -> SchafkopfClassicMatch:
    return SchafkopfClassicMatch(4, {"dealer": dealer, **options}, seed=seed,
                                 deals=list(deals))


def act(m: Match, moves: str) -> Events:
    """``seat:action`` moves separated by spaces (``0:class:rufspiel``)."""
    return contract.act(m, moves)


def of(events: Events, kind: str) -> list[dict[str, Any]]:
    return [e for e in events if e["type"] == kind]


def plays(m: Match, seat: int) -> list[str]:
    return [a[5:] for a in m.legal_actions(seat) if a.startswith("play:")]


def play_out(m: Match, rng: random.Random) -> Events:
    """Random legal actions until the deal in progress ends; its events."""
    deal, events = m.view(None)["deal_no"], []
    while not m.is_over and m.view(None)["deal_no"] == deal:
        events += m.apply(*contract.random_step(m, rng))
    return events


def deal_end(events: Events) -> dict[str, Any]:
    (end,) = of(events, "deal_end")
    return end


def search(m: Match, want: Callable[[dict[str, Any]], bool], tries: int = 6000,
           doubles: bool = False) -> tuple[Match, Events]:
    """A random play-out of the deal in progress (on a copy) whose ``deal_end`` meets
    ``want``; only cards are played unless ``doubles``."""
    for seed in range(tries):
        twin, rng, events = m.copy(), random.Random(seed), []
        deal = twin.view(None)["deal_no"]
        while twin.view(None)["deal_no"] == deal and not twin.is_over:
            seat = twin.view(None)["turn"]
            choices = twin.legal_actions(seat)
            if not doubles:
                choices = [a for a in choices if a.startswith("play:")]
            events += twin.apply(seat, rng.choice(choices))
        if want(deal_end(events)):
            return twin, events
    raise AssertionError("no play-out of this deal ends so")


def party_of(end: dict[str, Any]) -> list[int]:
    return [end["declarer"]] + ([end["partner"]] if end["partner"] is not None else [])


def state(m: Match) -> str:
    return json.dumps(m.snapshot(), sort_keys=True)


# ----- the actions ------------------------------------------------------------------------
def test_every_action_is_read_once_into_its_typed_kind() -> None:
    read = SchafkopfClassicMatch.parse
    assert read("bid") == Speak(True) and read("pass") == Speak(False)
    assert read("class:wenz_tout") == NameGame("wenz_tout") and read("call:G") == CallSau("G")
    assert read("trump:H") == ChooseTrump("H") and read("play:EO") == Play("EO")
    assert read("kontra") == Kontra() and read("retour") == Retour()
    assert [str(a) for a in (Speak(True), NameGame("solo"), CallSau("S"), ChooseTrump("E"),
                             Kontra(), Retour())] == ["bid", "class:solo", "call:S",
                                                      "trump:E", "kontra", "retour"]
    for bad in ("Bid", "bid ", "KONTRA", "weiter", "class", "call", "mauschel", ""):
        with pytest.raises(IllegalAction):
            read(bad)
    m = match(filled(1), dealer=3)
    for bad in ("class:wenz", "call:G", "trump:H", "kontra", "retour", "play:EO", "class:"):
        before = state(m)
        with pytest.raises(IllegalAction):
            m.apply(0, bad)
        assert state(m) == before


# ----- the registry entry and the options ---------------------------------------------
def test_the_game_is_described_by_its_entry_and_options() -> None:
    assert INFO.name == "schafkopf_classic" and INFO.title == "Schafkopf"
    assert (INFO.min_players, INFO.max_players) == (4, 4)
    assert INFO.host_can_end and INFO.match_class is SchafkopfClassicMatch
    assert INFO.default_options == {
        "rufspiel_cents": 10, "solo_cents": 50, "extra_cents": 10, "geier": False,
        "tout": True, "kontra": True, "all_pass": "redeal", "deals": 16}
    m = SchafkopfClassicMatch(4, {"all_pass": "ramsch", "deals": 0}, seed=1)
    assert m.options["all_pass"] == "ramsch" and m.options["deals"] == 0


@pytest.mark.parametrize("options", [
    {"all_pass": "Ramsch"}, {"all_pass": 1}, {"all_pass": None}, {"all_pass": True},
    {"rufspiel_cents": 0}, {"solo_cents": "50"}, {"extra_cents": -1}, {"deals": -1},
    {"deals": 1000}, {"geier": 1}, {"tout": "on"}, {"kontra": None}, {"hochzeit": True},
])
def test_options_out_of_their_range_are_refused(options: dict[str, Any]) -> None:
    with pytest.raises(OptionError):
        SchafkopfClassicMatch(4, options, seed=1)


@pytest.mark.parametrize("players", [3, 5, 0, "4", None])
def test_exactly_four_play(players: Any) -> None:
    with pytest.raises(ValueError):
        SchafkopfClassicMatch(players, seed=1)


@pytest.mark.parametrize("deal", [
    {"hands": [DECK[:8], DECK[8:16], DECK[16:24]]},
    {"hands": [DECK[:8], DECK[8:16], DECK[16:24], DECK[24:31] + ["EO"]]},
    {"hands": [DECK[:7], DECK[7:16], DECK[16:24], DECK[24:]]},
    {"hand": [DECK[:8], DECK[8:16], DECK[16:24], DECK[24:]]},
    [DECK[:8], DECK[8:16], DECK[16:24], DECK[24:]],
])
def test_a_stacked_deal_that_is_not_the_deck_is_refused(deal: Any) -> None:
    with pytest.raises(ValueError):
        SchafkopfClassicMatch(4, {"dealer": 0}, seed=1, deals=[deal])


# ----- the auction ------------------------------------------------------------------------
def test_forehand_speaks_first_and_each_seat_says_bid_or_pass_in_turn() -> None:
    m = match(filled(1), dealer=1)
    view = m.view(None)
    assert view["phase"] == "auction" and view["forehand"] == 2 and view["turn"] == 2
    for seat in (2, 3, 0, 1):
        assert m.to_act() == {seat}
        assert m.legal_actions(seat) == ["bid", "pass"]
        assert all(m.legal_actions(s) == [] for s in range(4) if s != seat)
        events = m.apply(seat, "pass" if seat != 0 else "bid")
        assert events[0] == {"type": "pass" if seat != 0 else "bid", "seat": seat}
    assert m.view(None)["said"] == ["bid", "pass", "pass", "pass"]
    assert m.to_act() == {0} and m.view(None)["step"] == "name"


def test_nobody_plays_the_cards_are_thrown_in_and_the_deal_passes_left() -> None:
    second = filled(2)
    m = match(filled(1), second, dealer=3, deals=1)
    events = act(m, "0:pass 1:pass 2:pass 3:pass")
    end = deal_end(events)
    assert end["kind"] == "thrown_in" and end["cents"] == [0, 0, 0, 0]
    assert end["deal_no"] == 1 and not of(events, "play")
    assert of(events, "deal") == [{"type": "deal", "deal_no": 2, "dealer": 0, "forehand": 1}]
    view = m.view(1)
    assert view["deal_no"] == 2 and view["dealer"] == 0 and view["turn"] == 1
    assert view["hand"] == m.sort_hand(second["hands"][1])  # the next stacked deal
    assert view["played"] == 0 and not m.is_over, "a thrown-in deal does not count"
    assert all(m.view(s)["last_deal"]["kind"] == "thrown_in" for s in (None, 0, 1, 2, 3))
    act(m, "1:bid 2:pass 3:pass 0:pass 1:class:solo 1:trump:G")
    play_out(m, random.Random(1))
    assert m.is_over and m.view(None)["played"] == 1, "the one deal played ends it"


def test_when_all_pass_with_ramsch_the_cards_are_played_as_a_ramsch() -> None:
    m = match(filled(1), dealer=3, all_pass="ramsch")
    events = act(m, "0:pass 1:pass 2:pass 3:pass")
    assert of(events, "game") == [{"type": "game", "game": "ramsch", "seat": None,
                                   "called": None, "trump": "H"}]
    view = m.view(None)
    assert view["phase"] == "play" and view["declared"] == "ramsch" and view["turn"] == 0
    assert not of(events, "deal_end")


def test_the_bidders_name_their_game_once_each_in_seat_order_from_forehand() -> None:
    m = match(filled(3, s0="E7 G7 S7"), filled(4), dealer=1, geier=True)
    act(m, "2:bid 3:pass 0:bid 1:bid")
    # forehand (seat 3) first, then 0 and 1; seat 3 said weiter and is not asked
    assert m.to_act() == {2}
    assert m.legal_actions(2)[-1] == "pass"
    act(m, "2:class:wenz")
    assert m.to_act() == {0}
    # Wenz and Geier are one class: the first to name it keeps it; only higher
    assert m.legal_actions(0) == ["class:solo", "class:wenz_tout", "class:geier_tout",
                                  "class:solo_tout", "pass"]
    with pytest.raises(IllegalAction, match="only a game above the one named before"):
        m.apply(0, "class:geier")
    act(m, "0:class:solo")
    assert m.legal_actions(1) == ["class:wenz_tout", "class:geier_tout", "class:solo_tout",
                                  "pass"]
    events = act(m, "1:pass")
    assert of(events, "pass") == [{"type": "pass", "seat": 1}]
    # seat 2 was overtaken and is not asked again: seat 0 chooses its trump
    view = m.view(None)
    assert view["named"] == ["solo", "pass", "wenz", None]
    assert view["step"] == "call" and view["declarer"] == 0 and m.to_act() == {0}
    assert m.legal_actions(0) == ["trump:E", "trump:G", "trump:H", "trump:S"]
    events = act(m, "0:trump:S")
    assert of(events, "game") == [{"type": "game", "game": "solo", "seat": 0,
                                   "called": None, "trump": "S"}]
    assert m.view(None)["phase"] == "play" and m.view(None)["turn"] == 2


def test_a_class_already_named_cannot_be_named_again_by_a_later_bidder() -> None:
    m = match(filled(5, s0="E7 G7 S7", s2="E8 G8 S8"), dealer=3)
    act(m, "0:bid 1:pass 2:bid 3:pass 0:class:rufspiel")
    assert "class:rufspiel" not in m.legal_actions(2)
    with pytest.raises(IllegalAction, match="only a game above the one named before"):
        m.apply(2, "class:rufspiel")
    act(m, "2:pass")
    assert m.view(None)["declarer"] == 0 and m.legal_actions(0)[0].startswith("call:")


def test_the_options_decide_which_classes_are_offered() -> None:
    deal = filled(6, s0="E7 G7 S7")
    offered = {}
    for geier in (False, True):
        for tout in (False, True):
            m = match(deal, dealer=3, geier=geier, tout=tout)
            act(m, "0:bid 1:pass 2:pass 3:pass")
            offered[geier, tout] = m.legal_actions(0)
    assert offered[False, False] == ["class:rufspiel", "class:wenz", "class:solo", "pass"]
    assert offered[True, False] == ["class:rufspiel", "class:wenz", "class:geier",
                                    "class:solo", "pass"]
    assert offered[False, True] == ["class:rufspiel", "class:wenz", "class:solo",
                                    "class:wenz_tout", "class:solo_tout", "pass"]
    assert offered[True, True] == ["class:rufspiel", "class:wenz", "class:geier",
                                   "class:solo", "class:wenz_tout", "class:geier_tout",
                                   "class:solo_tout", "pass"]
    m = match(deal, dealer=3)
    act(m, "0:bid 1:pass 2:pass 3:pass")
    with pytest.raises(IllegalAction, match="does not play that game"):
        m.apply(0, "class:geier")


def test_when_every_bidder_withdraws_nobody_plays() -> None:
    m = match(filled(7), filled(8), dealer=3)
    events = act(m, "0:bid 1:bid 2:pass 3:pass 0:pass 1:pass")
    assert deal_end(events)["kind"] == "thrown_in" and m.view(None)["deal_no"] == 2
    m = match(filled(7), dealer=3, all_pass="ramsch")
    act(m, "0:bid 1:bid 2:pass 3:pass 0:pass 1:pass")
    assert m.view(None)["declared"] == "ramsch" and m.phase == "play"


def test_every_word_of_the_auction_is_a_public_event_as_it_is_said() -> None:
    m = match(filled(9, s1="E7 G7"), dealer=3)
    said = act(m, "0:pass 1:bid 2:pass 3:pass 1:class:rufspiel")
    assert said == [{"type": "pass", "seat": 0}, {"type": "bid", "seat": 1},
                    {"type": "pass", "seat": 2}, {"type": "pass", "seat": 3},
                    {"type": "class", "seat": 1, "class": "rufspiel"}]
    suit = m.legal_actions(1)[0][5:]
    assert act(m, f"1:call:{suit}") == [{"type": "game", "game": "rufspiel", "seat": 1,
                                        "called": suit, "trump": "H"}]


# ----- which Sau may be called ------------------------------------------------------------
def test_callable_suits_follow_the_rules() -> None:
    def suits(hand: str) -> list[str]:
        return callable_suits(hand.split())

    assert suits("E7 G7 S7 H7 EO GO HO SO") == ["E", "G", "S"]
    assert suits("GA G7 S7 H7 EO GO HO SO") == ["S"], "not the own Sau"
    assert suits("GO GU EU SU HA H10 HK H9") == [], "Obers and Unters are trumps"
    assert suits("H7 H8 H9 HK HA H10 EO E9") == ["E"], "never Herz"
    assert suits("EA E7 GA G7 SA S7 H7 EO") == []


def test_the_declarer_calls_only_a_callable_sau() -> None:
    m = match(hands("EA E7 GO GU G7 SK S7 HO", "E10 EK E9 E8 GA G10 GK G9",
                    "EO EU SA S10 S9 S8 HA H10", "SO SU HU HK H9 H8 H7 G8"), dealer=3)
    act(m, "0:bid 1:pass 2:pass 3:pass 0:class:rufspiel")
    assert m.legal_actions(0) == ["call:G", "call:S"]
    with pytest.raises(IllegalAction, match="Eichel, Gras or Schellen"):
        m.apply(0, "call:E")
    with pytest.raises(IllegalAction):
        m.apply(0, "call:H")


def test_a_player_without_a_callable_suit_may_not_name_a_rufspiel() -> None:
    m = match(hands("EA E7 GA G7 SA S7 HO HU", "E10 EK E9 E8 G10 GK G9 G8",
                    "EO EU SK S10 S9 S8 HA H10", "SO SU GO GU HK H9 H8 H7"), dealer=3)
    act(m, "0:bid 1:pass 2:pass 3:pass")
    assert "class:rufspiel" not in m.legal_actions(0)
    assert m.legal_actions(0)[0] == "class:wenz"
    with pytest.raises(IllegalAction, match="no Sau to call"):
        m.apply(0, "class:rufspiel")


# ----- the called Sau ----------------------------------------------------------------------
# Seat 1 plays a Rufspiel on the Gras Sau, which seat 3 holds; seat 1 is forehand.
GRAS_CALL = hands("E10 EK E9 E8 S9 S8 S7 H7",
                  "EO GO HO G7 HA H10 HK E7",
                  "EA SA S10 SK G10 G9 G8 H9",
                  "GA GK SO EU GU HU SU H8")


def gras_rufspiel(**options: Any) -> SchafkopfClassicMatch:
    m = match(GRAS_CALL, dealer=0, **options)
    act(m, "1:bid 2:pass 3:pass 0:pass 1:class:rufspiel 1:call:G")
    return m


def test_the_holder_must_play_the_called_sau_when_its_suit_is_led() -> None:
    m = gras_rufspiel()
    act(m, "1:play:G7 2:play:G8")
    assert plays(m, 3) == ["GA"], "GK follows Gras too, but the Sau must come"
    with pytest.raises(IllegalAction, match="^Gras was led: you must play the called Sau$"):
        m.apply(3, "play:GK")
    events = act(m, "3:play:GA")
    assert events[:2] == [{"type": "play", "seat": 3, "card": "GA"},
                          {"type": "partner", "seat": 3}]


def test_the_holder_may_not_throw_the_called_sau_on_another_trick_before() -> None:
    m = gras_rufspiel()
    act(m, "1:play:E7 2:play:EA")  # Eichel led: seat 3 holds no Eichel card
    assert "GA" not in plays(m, 3) and "GK" in plays(m, 3)
    with pytest.raises(IllegalAction, match="^the called Sau may not be discarded before Gras "):
        m.apply(3, "play:GA")
    act(m, "3:play:GK 0:play:E8")  # seat 2 takes it with the Sau
    assert m.view(None)["turn"] == 2
    act(m, "2:play:S10")  # Schellen led: seat 3 is void there too
    act(m, "3:play:H8 0:play:S9 1:play:HK")
    assert m.view(None)["turn"] == 1
    act(m, "1:play:HO 2:play:H9")  # trumps led: seat 3 must follow with a trump
    assert set(plays(m, 3)) == {"SO", "EU", "GU", "HU", "SU"}


def test_the_called_sau_may_be_thrown_in_the_eighth_trick() -> None:
    # seat 3 holds the Gras Sau beside seven trumps; nobody ever leads Gras
    m = match(hands("E10 EK E9 E8 E7 EA S9 S8", "EO GO HO SO EU GU HU G7",
                    "SA S10 SK S7 G10 G9 G8 GK", "GA SU HA H10 HK H9 H8 H7"), dealer=3)
    act(m, "0:pass 1:bid 2:pass 3:pass 1:class:rufspiel 1:call:G")
    act(m, "0:play:S8 1:play:G7 2:play:S7")
    assert plays(m, 3) == ["SU", "HA", "H10", "HK", "H9", "H8", "H7"], "not the Sau"
    act(m, "3:play:H7")
    act(m, "3:play:H8 0:play:E7 1:play:EO 2:play:S10")
    act(m, "1:play:GO 2:play:SK 3:play:H9 0:play:E8")
    act(m, "1:play:HO 2:play:SA 3:play:HK 0:play:E9")
    act(m, "1:play:SO 2:play:G8 3:play:H10 0:play:EK")
    act(m, "1:play:EU 2:play:G9 3:play:HA 0:play:E10")
    act(m, "1:play:GU 2:play:G10 3:play:SU 0:play:EA")
    act(m, "1:play:HU 2:play:GK")  # the eighth trick, trumps led
    assert m.view(3)["hand"] == ["GA"] and m.view(None)["partner"] is None
    assert plays(m, 3) == ["GA"], "in the eighth trick it goes on any trick"
    events = act(m, "3:play:GA")
    assert of(events, "partner") == [{"type": "partner", "seat": 3}]


def test_the_holder_leads_the_called_sau_unless_he_runs_away_with_four() -> None:
    # Example 4: a Rufspiel on the Schellen Sau
    # with four Schellen, the holder may lead any of them (davonlaufen)
    lead = match(hands("EO E7 E8 E9 G7 G8 G9 S7", "SA S10 S9 S8 HA EA GA H7",
                       "GO HO SO EU GU HU SU H10", "E10 EK SK G10 GK HK H9 H8"), dealer=0)
    act(lead, "1:pass 2:pass 3:pass 0:bid 0:class:rufspiel 0:call:S")
    assert set(plays(lead, 1)) == {"SA", "S10", "S9", "S8", "HA", "EA", "GA", "H7"}
    events = act(lead, "1:play:S10")
    assert not of(events, "partner"), "running away shows nobody the Sau"
    # with three, his lead of Schellen must be the Sau
    three = match(hands("EO E7 E8 E9 G7 G8 S8 S7", "SA S10 S9 G9 HA EA GA H7",
                        "GO HO SO EU GU HU SU H10", "E10 EK SK G10 GK HK H9 H8"), dealer=0)
    act(three, "1:pass 2:pass 3:pass 0:bid 0:class:rufspiel 0:call:S")
    assert set(plays(three, 1)) == {"SA", "G9", "HA", "EA", "GA", "H7"}
    with pytest.raises(IllegalAction, match="^lead Schellen with the called Sau, unless you "):
        three.apply(1, "play:S10")


def test_once_the_called_suit_is_led_the_sau_is_free() -> None:
    m = match(hands("EO E7 E8 E9 G7 G8 G9 S7", "SA S10 S9 S8 HA EA H7 EK",
                    "GO HO SO EU GU HU H10 GA", "E10 SK G10 GK HK H9 H8 SU"), dealer=0)
    act(m, "1:pass 2:pass 3:pass 0:bid 0:class:rufspiel 0:call:S")
    act(m, "1:play:S10 2:play:H10 3:play:SK 0:play:S7")  # seat 2 trumps it
    assert m.view(None)["turn"] == 2
    act(m, "2:play:GA 3:play:G10 0:play:G7")
    assert "SA" in plays(m, 1), "Schellen has been led: thrown away like any card"
    events = act(m, "1:play:SA")
    assert of(events, "partner") == [{"type": "partner", "seat": 1}]
    assert m.view(None)["partner"] == 1


# ----- play ------------------------------------------------------------------------------------
def test_obers_and_unters_are_trumps_and_never_follow_their_printed_suit() -> None:
    m = gras_rufspiel()
    act(m, "1:play:G7")
    assert set(plays(m, 2)) == {"G10", "G9", "G8"}, "GO and the Gras Unter are trumps"
    act(m, "2:play:G10 3:play:GA 0:play:H7")  # seat 0 has no Gras: trumps it
    assert m.view(None)["last_trick"]["winner"] == 0


WENZ_ORDER = ["A", "10", "K", "O", "9", "8", "7"]
GEIER_ORDER = ["A", "10", "K", "U", "9", "8", "7"]


@pytest.mark.parametrize(("game", "trumps", "side"), [
    ("wenz", UNTERS, WENZ_ORDER), ("geier", OBERS, GEIER_ORDER)])
def test_in_a_wenz_or_geier_only_unters_or_obers_are_trumps(
        game: str, trumps: list[str], side: list[str]) -> None:
    deal = filled(11, s1="EO E7 EK", s2="EU E9 E8", s0="E10 GO")
    m = match(deal, dealer=0, geier=True)
    act(m, f"1:bid 2:pass 3:pass 0:pass 1:class:{game}")
    hand1 = m.view(1)["hand"]
    assert [c for c in hand1 if c in trumps] == hand1[:len([c for c in hand1 if c in trumps])]
    act(m, "1:play:E7")
    assert all(c[0] == "E" and c not in trumps for c in plays(m, 2)) or not any(
        c[0] == "E" and c not in trumps for c in m.view(2)["hand"])
    rng = random.Random(2)
    for _ in range(3):
        seat = m.view(None)["turn"]
        m.apply(seat, "play:" + rng.choice(plays(m, seat)))
    trick = [p["card"] for p in m.view(None)["last_trick"]["plays"]]
    winner = m.view(None)["last_trick"]["winner"]

    def strength(card: str) -> tuple[int, int]:
        if card in trumps:
            return (2, -trumps.index(card))
        if card[0] == trick[0][0]:
            return (1, -side.index(card[1:]))
        return (0, 0)

    best = max(range(4), key=lambda i: strength(trick[i]))
    assert m.view(None)["last_trick"]["plays"][best]["seat"] == winner


def test_a_trump_led_must_be_followed_with_a_trump() -> None:
    m = gras_rufspiel()
    act(m, "1:play:HA")
    assert plays(m, 2) == ["H9"]
    with pytest.raises(IllegalAction, match="trump"):
        m.apply(2, "play:SA")


# ----- Laufende --------------------------------------------------------------------------------
def test_laufende_count_the_run_from_the_top_in_one_party() -> None:
    yes, no = True, False
    assert laufende("H", [yes, yes, yes, no]) == 3
    assert laufende("H", [yes, yes, no]) == 0, "from three in a Rufspiel"
    assert laufende("H", [no, no, no, no, yes]) == 4, "the opponents' run counts too"
    assert laufende("H", [yes] * 9 + [no] * 5) == 9, "on into the trump suit"
    assert laufende("G", [no, yes]) == 0, "a run of one"
    assert laufende("U", [yes, yes, no, no]) == 2, "from two in a Wenz"
    assert laufende("U", [yes, no, yes, yes]) == 0
    assert laufende("O", [no, no, yes, no]) == 2, "from two in a Geier"
    assert laufende("U", [yes] * 4) == 4


def test_laufende_of_a_rufspiel_run_on_into_the_trump_suit() -> None:
    deal = hands("EO GO HO SO EU GU HU E7", "EA SU HA H7 G7 G8 S7 S8",
                 "H10 HK H9 E10 EK G10 GK S10", "H8 E9 E8 GA G9 SA SK S9")
    m = match(deal, dealer=3, kontra=False)
    act(m, "0:bid 1:pass 2:pass 3:pass 0:class:rufspiel 0:call:E")
    end = deal_end(play_out(m, random.Random(1)))
    assert end["partner"] == 1 and end["laufende"] == 9
    assert end["laufende_party"] == "declaring"


def test_laufende_of_the_opponents_count_for_the_deal() -> None:
    deal = hands("E7 E8 G7 S7 H7 H8 HK H10", "EO GO HO SO SA S10 SK G9",
                 "EA G8 E9 E10 EK H9 HA GK", "EU GU HU SU GA G10 S9 S8")
    m = match(deal, dealer=3, kontra=False)
    act(m, "0:bid 1:pass 2:pass 3:pass 0:class:rufspiel 0:call:E")
    end = deal_end(play_out(m, random.Random(2)))
    assert end["partner"] == 2 and end["laufende"] == 8
    assert end["laufende_party"] == "opponents"
    value = 10 + 10 * (end["schneider"] + end["schwarz"]) + 80
    assert end["value"] == value
    sign = 1 if end["won"] else -1
    assert end["cents"] == [sign * value, -sign * value, sign * value, -sign * value]


# ----- the four worked examples --------------------------------------------------------------
EXAMPLE_1 = hands("EO GO E7 HK E10 S9 H7 G10", "SO GA GK G8 SU S10 E8 EU",
                  "EA HO SK E9 H8 G7 SA G9", "S7 HU H9 GU EK H10 S8 HA")


def eichel_rufspiel() -> SchafkopfClassicMatch:
    m = match(EXAMPLE_1, dealer=3)
    act(m, "0:bid 1:pass 2:pass 3:pass 0:class:rufspiel 0:call:E")
    return m


def test_example_1_a_rufspiel_with_three_laufende() -> None:
    _, events = search(eichel_rufspiel(), lambda e: e["party_points"] == 75)
    end = deal_end(events)
    assert end["game"] == "rufspiel" and party_of(end) == [0, 2]
    assert end["won"] and not end["schneider"] and not end["schwarz"]
    assert end["laufende"] == 3 and end["value"] == 40
    assert end["cents"] == [40, -40, 40, -40] and end["scores"] == [40, -40, 40, -40]


def test_example_2_a_wenz_with_schneider_and_two_laufende() -> None:
    deal = hands("EO GO HO E9 E8 G9 G8 HK", "EU GU EA E10 GA G10 SA S10",
                 "HU SO H10 HA EK GK SK H9", "SU E7 G7 S9 S8 S7 H8 H7")
    m = match(deal, dealer=0)
    act(m, "1:bid 2:pass 3:pass 0:pass 1:class:wenz")
    _, events = search(m, lambda e: e["party_points"] == 95)
    end = deal_end(events)
    assert end["won"] and end["schneider"] and not end["schwarz"]
    assert end["laufende"] == 2 and end["value"] == 80
    assert end["cents"] == [-80, 240, -80, -80]


def test_example_3_a_farbsolo_lost_with_kontra() -> None:
    deal = hands("EO E9 E8 G9 G8 HK EA GA", "HO SO EU E10 GK SK H7 G7",
                 "GU HU SU E7 S9 S8 S7 EK", "GO H10 HA H9 H8 SA S10 G10")
    m = match(deal, dealer=2)
    act(m, "3:bid 0:pass 1:pass 2:pass 3:class:solo 3:trump:H")
    assert m.legal_actions(0) == ["kontra"] and 0 in m.to_act()
    events = act(m, "0:kontra")
    assert events == [{"type": "kontra", "seat": 0}]
    _, events = search(m, lambda e: e["party_points"] == 58)
    end = deal_end(events)
    assert not end["won"] and not end["schneider"] and end["laufende"] == 0
    assert end["kontra"] == 0 and end["value"] == 100
    assert end["cents"] == [100, 100, 100, -300]


# ----- Schneider, Schwarz, Tout ----------------------------------------------------------------
@pytest.mark.parametrize(("party_points", "won", "schneider"), [
    (90, True, True), (89, True, False), (61, True, False), (60, False, False),
    (31, False, False), (30, False, True)])
def test_schneider_is_thirty_or_fewer_for_the_losing_party(
        party_points: int, won: bool, schneider: bool) -> None:
    _, events = search(eichel_rufspiel(), lambda e: e["party_points"] == party_points,
                       tries=20_000)
    end = deal_end(events)
    assert (end["won"], end["schneider"], end["schwarz"]) == (won, schneider, False)
    value = 10 + 10 * schneider + 3 * 10
    sign = 1 if won else -1
    assert end["value"] == value
    assert end["cents"] == [sign * value, -sign * value, sign * value, -sign * value]


# all eight Obers and Unters: every trick is the declarer's, however the others play
EIGHT_TRUMPS = hands("G9 E7 E8 E9 G7 G8 S7 S8", "EO GO HO SO EU GU HU SU",
                     "EA E10 EK GA G10 GK S9 SK", "SA S10 HA H10 HK H9 H8 H7")


def test_schwarz_when_the_losers_take_no_trick() -> None:
    m = match(EIGHT_TRUMPS, dealer=3, kontra=False)
    act(m, "0:pass 1:bid 2:pass 3:pass 1:class:solo 1:trump:G")
    end = deal_end(play_out(m, random.Random(4)))
    assert end["tricks"] == [0, 8, 0, 0] and end["won"]
    assert end["schneider"] and end["schwarz"]
    # Laufende: the eight Obers and Unters, then the Gras Sau of another party
    assert end["laufende"] == 8
    assert end["value"] == 50 + 10 + 10 + 80
    assert end["cents"] == [-150, 450, -150, -150]


def test_a_tout_taking_every_trick_is_worth_twice_without_schneider_or_schwarz() -> None:
    m = match(EIGHT_TRUMPS, dealer=3, kontra=False)
    act(m, "0:pass 1:bid 2:pass 3:pass 1:class:solo_tout 1:trump:G")
    end = deal_end(play_out(m, random.Random(4)))
    assert end["game"] == "solo_tout" and end["won"]
    assert not end["schneider"] and not end["schwarz"]
    assert end["value"] == 2 * (50 + 10 * 8)
    assert end["cents"] == [-260, 780, -260, -260]


def test_a_tout_is_lost_by_any_trick_the_others_take() -> None:
    deal = hands("EO GO E9 E8 G9 G8 HK H9", "EU GU EA E10 GA G10 SA S10",
                 "HU SO H10 HA EK GK SK HO", "SU E7 G7 S9 S8 S7 H8 H7")
    m = match(deal, dealer=0, kontra=False)
    act(m, "1:bid 2:pass 3:pass 0:pass 1:class:wenz_tout")
    _, events = search(m, lambda e: e["tricks"][1] == 7 and e["party_points"] > 90)
    end = deal_end(events)
    assert not end["won"] and not end["schneider"] and not end["schwarz"]
    assert end["laufende"] == 2 and end["value"] == 2 * (50 + 2 * 10)
    assert end["cents"] == [140, -420, 140, 140]


# ----- Kontra and Retour -----------------------------------------------------------------------
def test_kontra_is_offered_to_the_opponents_until_their_own_first_card() -> None:
    m = eichel_rufspiel()  # seat 0 declares, seat 2 is the partner
    assert m.to_act() == {0, 1, 3}
    assert m.legal_actions(1) == ["kontra"] and m.legal_actions(3) == ["kontra"]
    assert m.legal_actions(2) == [], "the partner may not say Kontra"
    assert "kontra" not in m.legal_actions(0) and m.legal_actions(0)[-1].startswith("play:")
    assert [m.must_act(s) for s in range(4)] == [True, False, False, False]
    with pytest.raises(IllegalAction, match="outside the declaring party"):
        m.apply(2, "kontra")
    with pytest.raises(IllegalAction, match="outside the declaring party"):
        m.apply(0, "kontra")
    act(m, "0:play:EO")
    act(m, "1:play:" + plays(m, 1)[0])
    assert "kontra" not in m.legal_actions(1), "seat 1 has played its first card"
    with pytest.raises(IllegalAction, match="before your own first card"):
        m.apply(1, "kontra")
    assert m.legal_actions(3) == ["kontra"]
    assert act(m, "3:kontra") == [{"type": "kontra", "seat": 3}]
    assert not any("kontra" in m.legal_actions(s) for s in range(4)), "one Kontra"
    # Retour: the declaring party, before its own first card; seat 0 has played
    assert "retour" not in m.legal_actions(0)
    assert m.legal_actions(2)[-1] == "retour"
    assert m.to_act() == {2}
    events = act(m, "2:retour")
    assert events == [{"type": "retour", "seat": 2}, {"type": "partner", "seat": 2}]
    assert all(m.view(s)["partner"] == 2 for s in (None, 0, 1, 2, 3))
    assert not any(a in ("kontra", "retour") for s in range(4) for a in m.legal_actions(s))
    _, events = search(m, lambda e: True)
    end = deal_end(events)
    assert (end["kontra"], end["retour"]) == (3, 2)
    base = 10 + 10 * (end["schneider"] + end["schwarz"]) + 10 * end["laufende"]
    assert end["value"] == 4 * base


def test_retour_by_the_declarer_doubles_again_and_shows_no_partner() -> None:
    m = eichel_rufspiel()
    events = act(m, "1:kontra 0:retour")
    assert events == [{"type": "kontra", "seat": 1}, {"type": "retour", "seat": 0}]
    assert m.view(1)["partner"] is None and m.legal_actions(2) == []


def test_kontra_and_retour_double_the_same_deal() -> None:
    plain, doubled = eichel_rufspiel(), eichel_rufspiel()
    act(doubled, "3:kontra 2:retour")
    rng = random.Random(5)
    while plain.view(None)["deal_no"] == 1:
        seat = plain.view(None)["turn"]
        card = rng.choice(plays(plain, seat))
        a, b = plain.apply(seat, "play:" + card), doubled.apply(seat, "play:" + card)
    one, four = deal_end(a), deal_end(b)
    assert four["value"] == 4 * one["value"]
    assert four["cents"] == [4 * c for c in one["cents"]]


def test_neither_kontra_in_the_auction_nor_in_a_ramsch_nor_without_the_option() -> None:
    m = match(filled(1), dealer=3, all_pass="ramsch")
    for step in ["0:pass", "1:pass", "2:pass", "3:pass"]:
        assert not any("kontra" in m.legal_actions(s) for s in range(4))
        act(m, step)
    assert m.view(None)["declared"] == "ramsch" and m.to_act() == {0}
    assert not any("kontra" in m.legal_actions(s) for s in range(4))
    with pytest.raises(IllegalAction, match="never in a Ramsch"):
        m.apply(1, "kontra")
    off = match(EXAMPLE_1, dealer=3, kontra=False)
    act(off, "0:bid 1:pass 2:pass 3:pass 0:class:rufspiel 0:call:E")
    assert off.to_act() == {0} and off.legal_actions(1) == []
    with pytest.raises(IllegalAction, match="without Kontra"):
        off.apply(1, "kontra")


def test_only_the_seat_on_turn_and_the_own_button_are_shown() -> None:
    m = eichel_rufspiel()
    assert m.view(None)["to_act"] == [0]
    assert m.view(1)["to_act"] == [0, 1] and m.view(3)["to_act"] == [0, 3]
    assert m.view(2)["to_act"] == [0], "the partner has no button"
    assert m.view(0)["to_act"] == [0]


# ----- Ramsch ------------------------------------------------------------------------------------
def ramsch(deal: dict[str, Any], **options: Any) -> SchafkopfClassicMatch:
    m = match(deal, dealer=3, all_pass="ramsch", **options)
    act(m, "0:pass 1:pass 2:pass 3:pass")
    return m


def test_in_a_ramsch_the_most_card_points_pay_each_other_player() -> None:
    _, events = search(ramsch(filled(21)),
                       lambda e: sorted(e["points"])[-1] > sorted(e["points"])[-2])
    end = deal_end(events)
    loser = end["points"].index(max(end["points"]))
    assert end["losers"] == [loser] and end["durchmarsch"] is None
    assert end["cents"] == [-30 if s == loser else 10 for s in range(4)]


@pytest.mark.parametrize("tied", [2, 3])
def test_in_a_ramsch_players_tied_for_the_most_all_lose(tied: int) -> None:
    def most_by(e: dict[str, Any]) -> bool:
        return e["points"].count(max(e["points"])) == tied

    _, events = search(ramsch(filled(22), rufspiel_cents=20), most_by, tries=30_000)
    end = deal_end(events)
    losers = [s for s in range(4) if end["points"][s] == max(end["points"])]
    assert end["losers"] == losers
    # each loser pays each other player 20: between two losers it cancels
    lose, win = -20 * (4 - tied), 20 * tied
    assert end["cents"] == [lose if s in losers else win for s in range(4)]


def test_a_durchmarsch_receives_the_tariff_from_each() -> None:
    m = ramsch(hands("EO GO HO SO EU GU HU SU", "EA E10 EK GA G10 GK S9 SK",
                     "SA S10 HA H10 HK H9 H8 H7", "G9 E7 E8 E9 G7 G8 S7 S8"))
    end = deal_end(play_out(m, random.Random(1)))
    assert end["game"] == "ramsch" and end["tricks"] == [8, 0, 0, 0]
    assert end["durchmarsch"] == 0 and end["losers"] == []
    assert end["cents"] == [30, -10, -10, -10]


def test_a_ramsch_counts_as_a_played_deal() -> None:
    m = ramsch(filled(23), deals=1)
    play_out(m, random.Random(1))
    assert m.is_over and m.view(None)["played"] == 1


# ----- the match: deals, the host, winners --------------------------------------------------------
def test_the_match_ends_after_the_number_of_played_deals() -> None:
    m = SchafkopfClassicMatch(4, {"dealer": 0, "deals": 3}, seed=4)
    rng, ends = random.Random(4), []
    while not m.is_over:
        ends += of(m.apply(*contract.random_step(m, rng)), "deal_end")
    assert len([e for e in ends if e["kind"] == "played"]) == 3
    assert ends[-1]["kind"] == "played" and m.view(None)["played"] == 3
    top = max(m.scores)
    assert m.winners == [s for s in range(4) if m.scores[s] == top]
    assert m.scores == ends[-1]["balances"] == m.view(None)["scores"]


def test_with_no_number_of_deals_the_host_ends_the_match() -> None:
    m = SchafkopfClassicMatch(4, {"dealer": 0, "deals": 0}, seed=5)
    rng = random.Random(5)
    while m.view(None)["played"] < 20:
        assert not m.is_over
        m.apply(*contract.random_step(m, rng))
    while not m.view(None)["trick"]:
        m.apply(*contract.random_step(m, rng))
    before = list(m.scores)
    events = m.end_by_host()
    end = deal_end(events)
    assert end["kind"] == "called_off" and end["called_off"] == "host"
    assert end["cents"] == [0] * 4 and m.scores == before
    assert m.is_over and of(events, "match_end")[0]["winners"] == m.winners
    assert m.winners == [s for s in range(4) if m.scores[s] == max(before)]
    assert m.view(None)["last_trick"] is None, "nothing of a called-off deal counts"
    assert m.end_by_host() == [] and m.to_act() == set()
    with pytest.raises(ValueError):
        SchafkopfClassicMatch(4, {"dealer": 0}, seed=5).end_by_host("tired")


def test_the_last_trick_of_the_match_stays_in_every_view() -> None:
    m = SchafkopfClassicMatch(4, {"dealer": 0, "deals": 1}, seed=6)
    rng = random.Random(6)
    while not m.is_over:
        m.apply(*contract.random_step(m, rng))
    last = m.view(None)["last_deal"]["tricks"][-1]
    for seat in (None, 0, 1, 2, 3):
        shown = m.view(seat)["last_trick"]
        assert shown["winner"] == last["winner"]
        assert [[p["seat"], p["card"]] for p in shown["plays"]] == last["plays"]


# ----- the partner is secret -------------------------------------------------------------------
def secret_pair() -> tuple[SchafkopfClassicMatch, SchafkopfClassicMatch]:
    """Two deals that differ only in which opponent holds the called Gras Sau: seat 1
    in the first, seat 2 in the second (they swap it for the Eichel Seven)."""
    rows = ["EO GO E9 E8 G7 S9 S8 S7", "GA EA E10 EK SO HK H9 H8",
            "E7 S10 SK SA HO H10 HA H7", "GK G10 G9 G8 GU HU SU EU"]
    other = [rows[0], rows[1].replace("GA", "E7"), rows[2].replace("E7", "GA"), rows[3]]
    pair = []
    for deal in (rows, other):
        m = match(hands(*deal), dealer=3)
        act(m, "0:bid 1:pass 2:pass 3:pass 0:class:rufspiel 0:call:G")
        pair.append(m)
    return pair[0], pair[1]


@pytest.mark.parametrize("seed", range(30))
def test_nobody_but_the_holder_can_tell_who_holds_the_called_sau(seed: int) -> None:
    first, second = secret_pair()
    assert first.partner == 1 and second.partner == 2  # the engine's secret
    rng = random.Random(seed)
    shown = False
    while not shown:
        for seat in (None, 0, 3):  # the declarer, the other opponent, a spectator
            assert first.view(seat) == second.view(seat), seat
        for seat in (0, 3):
            assert first.legal_actions(seat) == second.legal_actions(seat)
            assert first.must_act(seat) == second.must_act(seat)
        assert first.view(1)["partner"] == 1 and second.view(1)["partner"] is None
        turn = first.view(None)["turn"]
        same = [a for a in first.legal_actions(turn) if a in second.legal_actions(turn)
                and a.startswith("play:")]
        moves = [(turn, a) for a in same]
        if rng.random() < 0.3 and "kontra" in first.legal_actions(3):
            moves = [(3, "kontra")]
        if not moves:  # only the holder's Sau: it shows now
            break
        seat, action = rng.choice(moves)
        a, b = first.apply(seat, action), second.apply(seat, action)
        shown = any(e["type"] == "partner" for e in a + b)
        if not shown:
            assert a == b
    assert not first.is_over


def test_the_partner_shows_when_the_called_sau_is_played() -> None:
    first, _ = secret_pair()
    act(first, "0:play:G7")  # Gras led: seat 1 must play the Sau
    assert [first.view(s)["partner"] for s in (None, 0, 2, 3)] == [None] * 4
    assert plays(first, 1) == ["GA"]
    events = act(first, "1:play:GA")
    assert events[:2] == [{"type": "play", "seat": 1, "card": "GA"},
                          {"type": "partner", "seat": 1}]
    assert [first.view(s)["partner"] for s in (None, 0, 1, 2, 3)] == [1] * 5


# ----- the contract, by random play ------------------------------------------------------------
OPTION_SETS: list[dict[str, Any]] = [
    {}, {"all_pass": "ramsch"}, {"geier": True, "tout": False},
    {"kontra": False, "all_pass": "ramsch"}, {"rufspiel_cents": 20, "solo_cents": 100,
                                              "extra_cents": 0, "geier": True}]


def hidden_cards(m: SchafkopfClassicMatch, seat: int | None) -> set[str]:
    """The cards face down for ``seat``: the others' hands."""
    return {c for s in range(4) if s != seat for c in m.hands[s]}


def this_deal(view: dict[str, Any]) -> dict[str, Any]:
    """The view without the finished deals (their cards were face up once and are
    dealt again since)."""
    return {k: v for k, v in view.items() if k not in ("last_deal", "results")}


@pytest.mark.parametrize("seed", range(60))
def test_random_play_keeps_every_rule_of_the_contract(seed: int) -> None:
    options = {"dealer": seed % 4, "deals": 3, **OPTION_SETS[seed % len(OPTION_SETS)]}
    m = SchafkopfClassicMatch(4, options, seed=seed)
    rng = random.Random(seed)
    balances = [0] * 4
    for step in range(5000):
        if m.is_over:
            break
        acting = m.to_act()
        assert acting, "a running match always has someone to act"
        for seat in range(4):
            assert bool(m.legal_actions(seat)) == (seat in acting)
            typed = m.legal(seat)
            assert [a.wire for a in typed] == m.legal_actions(seat)
            assert all(isinstance(a, KINDS) for a in typed)
            assert all(m.parse(a.wire) == a for a in typed)
        assert [m.must_act(s) for s in range(4)].count(True) == 1
        for seat in (None, 0, 1, 2, 3):
            view = m.view(seat)
            assert json.loads(json.dumps(view)) == view
            assert not contract.card_codes(this_deal(view), hidden_cards(m, seat)), seat
            assert view["to_act"] == sorted({m.view(None)["turn"]} | (
                {seat} if seat is not None and seat in acting else set()))
        if step % 37 == 0:
            contract.check_illegal_and_malformed(m, rng)
        seat, action = contract.random_step(m, rng)
        hidden = {c for s in range(4) for c in m.hands[s]} - {action[5:]}
        events = m.apply(seat, action)
        assert json.loads(json.dumps(events)) == events
        assert not contract.card_codes(events, hidden), "events are public"
        for end in of(events, "deal_end"):
            assert sum(end["cents"]) == 0, "balances sum to zero after every deal"
            assert sum(t["amount"] for t in end["transfers"]) == 0 and end["pot"] == 0
            balances = [b + c for b, c in zip(balances, end["cents"], strict=True)]
            assert end["scores"] == balances == end["balances"]
    assert m.is_over and sum(m.scores) == 0 and m.scores == balances
    assert m.winners == [s for s in range(4) if m.scores[s] == max(m.scores)]
    assert m.legal_actions(0) == [] and m.to_act() == set()


@pytest.mark.parametrize("seed", range(8))
def test_a_snapshot_restores_a_match_that_plays_on_identically(seed: int) -> None:
    m = SchafkopfClassicMatch(4, {"dealer": seed % 4, "all_pass": "ramsch"}, seed=seed)
    rng = random.Random(seed)
    for stop in (0, 9, 40, 150):
        contract.advance(m, rng, stop)
        twin = SchafkopfClassicMatch.from_snapshot(json.loads(m.snapshot_json()))
        assert state(twin) == state(m)
        a, b = random.Random(stop), random.Random(stop)
        copy = m.copy()
        for _ in range(60):
            if m.is_over:
                break
            move = contract.random_step(m, a)
            assert move == contract.random_step(twin, b)
            events = m.apply(*move)
            assert twin.apply(*move) == events == copy.apply(*move)
            for seat in (None, 0, 1, 2, 3):
                assert twin.view(seat) == m.view(seat) == copy.view(seat)


def test_the_same_seed_and_actions_give_the_same_match() -> None:
    a = SchafkopfClassicMatch(4, {"all_pass": "ramsch"}, seed=9)
    b = SchafkopfClassicMatch(4, {"all_pass": "ramsch"}, seed=9)
    rng = random.Random(9)
    for _ in range(400):
        seat, action = contract.random_step(a, rng)
        assert a.apply(seat, action) == b.apply(seat, action)
    assert state(a) == state(b)
    assert state(SchafkopfClassicMatch(4, seed=10)) != state(a)


def test_a_seeded_copy_shuffles_later_deals_as_the_original() -> None:
    m = SchafkopfClassicMatch(4, {"dealer": 0}, seed=12)
    twin = m.copy()
    for one in (m, twin):
        act(one, "1:pass 2:pass 3:pass 0:pass")  # thrown in: the next deal is shuffled
    assert m.view(1)["hand"] == twin.view(1)["hand"]
    assert state(m) == state(twin)

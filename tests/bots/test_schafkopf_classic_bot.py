"""The classic Schafkopf's house bot (issue 27): it answers only legal actions in
every kind of table, bids by the strength of its hand, calls a sensible Sau, says
Kontra with a strong hand, plays as a club player does, reads nothing but its own
view, and beats random play in duplicate.

The game is driven through its class (it is not in ``app.games.GAMES`` until the
web presents it); the bot through its module, as ``app.bots`` finds it."""

from __future__ import annotations

import ast
import copy
import inspect
import json
import random
from typing import Any

import pytest

from app.bots import schafkopf_classic as bot
from app.games import Match
from app.games.actions import Action, Kontra, Play, Retour
from app.games.schafkopf_classic import SchafkopfClassicMatch
from bench.schafkopf_classic_duplicate import duplicate, interval
from tests.games import contract
from tests.games.test_schafkopf_classic import POINTS, filled

# every option the auction and the doublings know, alone and together
OPTIONS: list[dict[str, Any]] = [
    {},
    {"geier": True},
    {"tout": False},
    {"kontra": False},
    {"all_pass": "ramsch"},
    {"geier": True, "tout": True, "kontra": True, "all_pass": "ramsch"},
    {"geier": True, "tout": False, "kontra": False, "all_pass": "redeal"},
]


def match(deal: dict[str, Any] | None = None, seed: int = 1, **options: Any
          ) -> SchafkopfClassicMatch:
    """Four seats, seat 0 forehand (dealer 3)."""
    return SchafkopfClassicMatch(4, {"dealer": 3, **options}, seed=seed,
                                 deals=[deal] if deal else None)


def asked(m: Match, seat: int, seed: int = 0) -> Action:
    """The bot's action for ``seat`` on turn, checked: legal, the same as its answer
    with strings, and its input left alone."""
    view, typed, legal = m.view(seat), m.legal(seat), m.legal_actions(seat)
    before = copy.deepcopy(view)
    action = bot.decide(view, typed, random.Random(seed))
    assert action in typed, (action, typed)
    assert view == before, "the bot changed the view it was given"
    assert bot.choose(json.loads(json.dumps(view)), legal, random.Random(seed)) == action.wire
    return action


def asked_optional(m: Match, seat: int, seed: int = 0) -> Action | None:
    view, typed, legal = m.view(seat), m.legal(seat), m.legal_actions(seat)
    action = bot.decide_optional(view, typed, random.Random(seed))
    assert action is None or action in typed, (action, typed)
    said = bot.optional(json.loads(json.dumps(view)), legal, random.Random(seed))
    assert said == (None if action is None else action.wire)
    return action


def bot_step(m: SchafkopfClassicMatch, bots: set[int], rng: random.Random
             ) -> list[dict[str, Any]]:
    """One action as the room asks for it: the seats that may double but need not
    first (a bot seat answers or stays silent, a random seat says it now and then),
    then the seat on turn."""
    turn = m.view(None)["turn"]
    for seat in sorted(m.to_act() - {turn}, key=lambda s: (s - turn) % 4):
        if seat in bots:
            said = asked_optional(m, seat)
            if said is not None:
                return m.apply(seat, said.wire)
        elif rng.random() < 0.2:
            return m.apply(seat, rng.choice(m.legal_actions(seat)))
    action = asked(m, turn, rng.randrange(1000)).wire if turn in bots \
        else rng.choice(m.legal_actions(turn))
    return m.apply(turn, action)


# ----- every answer is legal -----------------------------------------------------------
@pytest.mark.parametrize("options", OPTIONS,
                         ids=["-".join(f"{k}={v}" for k, v in o.items()) or "default"
                              for o in OPTIONS])
def test_the_bot_answers_a_legal_action_in_whole_matches(options: dict[str, Any]) -> None:
    games: set[str] = set()
    doubled = 0
    for seed in range(6):
        m = SchafkopfClassicMatch(4, {"dealer": seed % 4, "deals": 4, **options}, seed=seed)
        rng = random.Random(seed)
        # bots everywhere, or beside random players (who bid and double wildly)
        bots = {0, 1, 2, 3} if seed % 2 else {s for s in range(4) if (s + seed) % 2 == 0}
        for _ in range(3000):
            if m.is_over:
                break
            for event in bot_step(m, bots, rng):
                if event["type"] == "game":
                    games.add(event["game"])
                doubled += event["type"] in ("kontra", "retour")
        assert m.is_over, "the match ends: the bot never stalls it"
        assert sum(m.scores) == 0
    assert "rufspiel" in games
    if options.get("all_pass") == "ramsch":
        assert "ramsch" in games
    if options.get("kontra", True):
        assert doubled > 0


def test_every_class_and_doubling_is_answered_legally_when_random_players_name_them(
        ) -> None:
    """Random players name Touts, Geier and every Solo; the bot defends against each."""
    games: set[str] = set()
    for seed in range(40):
        m = SchafkopfClassicMatch(4, {"dealer": seed % 4, "deals": 2, "geier": True,
                                      "all_pass": "ramsch"}, seed=100 + seed)
        rng = random.Random(seed)
        while not m.is_over:
            for event in bot_step(m, {seed % 4}, rng):
                if event["type"] == "game":
                    games.add(event["game"])
    assert {"rufspiel", "wenz", "geier", "solo", "wenz_tout", "geier_tout",
            "solo_tout", "ramsch"} <= games


# ----- the auction -------------------------------------------------------------------------
def test_a_clearly_weak_hand_passes() -> None:
    m = match(filled(1, s0="E7 E8 G7 G9 S7 S8 H7 SK"))
    assert asked(m, 0).wire == "pass"


def test_a_strong_hand_bids_and_names_its_rufspiel_calling_its_shortest_suit() -> None:
    # five trumps with two Obers; callable: Eichel (one card) and Schellen (two)
    m = match(filled(2, s0="EO GO EU HA H8 E7 S9 S8", s1="E9 EK G9 GK S7 SK H7 E10"))
    assert asked(m, 0).wire == "bid"
    contract.act(m, "0:bid 1:pass 2:pass 3:pass")
    assert asked(m, 0).wire == "class:rufspiel"
    m.apply(0, "class:rufspiel")
    assert asked(m, 0).wire == "call:E"


def test_the_sau_called_is_one_the_hand_may_call() -> None:
    """Over many hands: the bot names a Rufspiel only with a callable Sau (the engine
    would refuse it otherwise) and calls the suit it holds fewest cards of."""
    called = 0
    for seed in range(300):
        m = match(seed=seed)
        contract.act(m, "0:bid 1:pass 2:pass 3:pass")
        if asked(m, 0).wire != "class:rufspiel":
            continue
        m.apply(0, "class:rufspiel")
        suit = asked(m, 0).wire.removeprefix("call:")
        hand = m.view(0)["hand"]
        counts = {s: sum(1 for c in hand if c[0] == s and c[1:] not in ("O", "U"))
                  for s in ("E", "G", "S") if s + "A" not in hand}
        assert suit != "H" and suit + "A" not in hand and counts[suit] >= 1
        assert counts[suit] == min(n for n in counts.values() if n), (hand, suit)
        called += 1
    assert called >= 10


def test_a_tout_only_with_an_overwhelming_hand() -> None:
    m = match(filled(3, s0="EO GO HO SO EU GU HU SU"))
    contract.act(m, "0:bid 1:pass 2:pass 3:pass")
    assert asked(m, 0).wire == "class:solo_tout"
    without = match(filled(3, s0="EO GO HO SO EU GU HU SU"), tout=False)
    contract.act(without, "0:bid 1:pass 2:pass 3:pass")
    assert asked(without, 0).wire == "class:solo"
    # a fine Solo hand, but a card that may lose a trick: no Tout
    short = match(filled(3, s0="EO GO HO SO EU GU HA E7"))
    contract.act(short, "0:bid 1:pass 2:pass 3:pass")
    assert asked(short, 0).wire == "class:solo"
    short.apply(0, "class:solo")
    # seven trumps either way: in Eichel the Herz Sau stands as a side winner
    assert asked(short, 0).wire == "trump:E"


def test_it_overtakes_only_with_a_hand_for_the_higher_class() -> None:
    rufspiel_hand = "EO GO EU HA H8 E7 S9 S8"
    wenz_hand = "EU GU EA E10 EK GA G10 S7"
    for hand, expected in ((rufspiel_hand, "pass"), (wenz_hand, "class:wenz")):
        m = match(filled(4, s1=hand, s0="SO HO HU H9 H10 G7 G8 S10"))
        contract.act(m, "0:bid 1:bid 2:pass 3:pass 0:class:rufspiel")
        assert asked(m, 1).wire == expected
    # the Geier is named only where the table offers it
    geier_hand = "EO GO EA E10 EK GA G10 S7"
    for options, expected in (({}, "pass"), ({"geier": True}, "class:geier")):
        m = match(filled(4, s1=geier_hand, s0="SO HO HU H9 H10 G7 G8 S10"), **options)
        contract.act(m, "0:bid 1:bid 2:pass 3:pass 0:class:rufspiel")
        assert asked(m, 1).wire == expected


# ----- Kontra and Retour -----------------------------------------------------------------
def _rufspiel_by_seat_1(deal: dict[str, Any], **options: Any) -> SchafkopfClassicMatch:
    m = match(deal, **options)
    contract.act(m, "0:pass 1:bid 2:pass 3:pass 1:class:rufspiel 1:call:G")
    return m


def test_kontra_with_a_hand_strong_against_the_game_not_with_a_weak_one() -> None:
    deal = filled(5, s0="EO GO HO EU HA H10 E7 S7", s1="SO GU H9 H8 G7 G8 E8 S8",
                  s2="E9 EK G9 GK S9 SK H7 E10")
    m = _rufspiel_by_seat_1(deal)
    assert isinstance(asked(m, 0), Kontra), "on turn: Kontra before its card"
    assert isinstance(asked_optional(m, 0), Kontra), "off turn the same"
    assert asked_optional(m, 2) is None, "a weak hand stays silent"
    assert not isinstance(asked(_rufspiel_by_seat_1(deal, kontra=False), 0), Kontra)


def test_retour_when_the_declaring_party_is_comfortable() -> None:
    strong = "EO GO HO SO EU GU HA G7"  # a Rufspiel far above what it asks
    m = match(filled(6, s1=strong))
    contract.act(m, "0:pass 1:bid 2:pass 3:pass 1:class:rufspiel 1:call:G 0:kontra")
    assert isinstance(asked_optional(m, 1), Retour)
    weak = match(filled(6, s1="SO HU H9 H8 G7 G8 E8 S8"))
    contract.act(weak, "0:pass 1:bid 2:pass 3:pass 1:class:rufspiel 1:call:G 0:kontra")
    assert asked_optional(weak, 1) is None


# ----- card play -----------------------------------------------------------------------------
def test_an_opponent_looks_for_the_partner_with_the_called_suit() -> None:
    m = _rufspiel_by_seat_1(filled(7, s0="E9 EK G9 GK S9 SK H7 E10",
                                   s1="EO GO HO SO GU H9 G7 S8"))
    assert asked(m, 0).wire == "play:G9", "the called suit, its cheapest card"


def test_the_declarer_draws_trumps_with_its_best() -> None:
    m = match(filled(2, s0="EO GO EU HA H8 E7 S9 S8"))
    contract.act(m, "0:bid 1:pass 2:pass 3:pass 0:class:rufspiel 0:call:E")
    assert asked(m, 0).wire == "play:EO"


def test_points_go_to_a_partner_whose_trick_is_safe() -> None:
    # seat 3 plays a Schellen solo; seat 0 leads the Eichel Ober, seat 2 holds no trump
    deal = filled(8, s0="EO E9 E8 G9 G8 H9 H8 H7", s2="EA E10 GA G10 HA H10 EK GK",
                  s3="GO HO SO EU GU SA S10 SK")
    m = match(deal, kontra=False)
    contract.act(m, "0:pass 1:pass 2:pass 3:bid 3:class:solo 3:trump:S 0:play:EO")
    m.apply(1, m.legal_actions(1)[-1])  # seat 1's weakest card (no trump may beat EO)
    card = asked(m, 2)
    assert isinstance(card, Play) and POINTS[card.card[1:]] == 11


def test_in_a_ramsch_it_stays_under_the_trick_with_its_most_points() -> None:
    m = match(filled(9, s0="EA HA H10 G7 G8 G9 S7 S8", s1="E10 EK E9 GA SA HK H9 H8"),
              all_pass="ramsch")
    contract.act(m, "0:pass 1:pass 2:pass 3:pass 0:play:EA")
    assert asked(m, 1).wire == "play:E10"


# ----- only its own view ------------------------------------------------------------------------
def test_the_bot_reads_no_hand_but_its_own() -> None:
    """Two deals that differ only in which of two other seats holds which cards (the
    called Sau among them) look the same to the bot's seat until the difference
    shows; while they do, the bot decides the same in both."""
    compared = 0
    for seed in range(40):
        deal = filled(seed)
        twin = copy.deepcopy(deal)
        a, b = twin["hands"][2], twin["hands"][3]
        rng = random.Random(seed)
        i, j = rng.randrange(8), rng.randrange(8)
        a[i], b[j] = b[j], a[i]
        first, second = match(deal, seed=seed), match(twin, seed=seed)
        while not first.is_over and first.view(None)["deal_no"] == 1:
            turn = first.view(None)["turn"]
            seat = rng.choice(sorted(first.to_act()))
            if seat == 0:
                view = first.view(0)
                if view != second.view(0):
                    break  # the difference has shown (a card of it was played)
                one = bot.decide(view, first.legal(0), random.Random(seed))
                other = bot.decide(second.view(0), second.legal(0), random.Random(seed))
                assert one == other
                compared += 1
                action = one.wire
            else:
                action = rng.choice(first.legal_actions(seat))
            if action not in second.legal_actions(seat) or seat != turn and seat != 0 \
                    and rng.random() < 0.5:
                break
            first.apply(seat, action)
            second.apply(seat, action)
    assert compared >= 40


def test_an_opponent_plays_the_same_whoever_holds_the_called_sau() -> None:
    """Seat 1 calls the Gras Sau; in one deal seat 2 holds it, in the other seat 3
    (the two swap the Sau for a card of another suit). Seat 0, an opponent, decides
    the same in both (Kontra on turn and off, its cards) until the Sau shows; the
    others play as the bot would, the same cards in both deals while they can."""
    compared = optional = 0
    for seed in range(30):
        deal = filled(seed, s1="EO GO HO SU HA H10 G7 S8")
        hands = deal["hands"]
        if "GA" in hands[0]:
            continue  # seat 0 would be the partner
        if "GA" in hands[3]:
            hands[2], hands[3] = hands[3], hands[2]
        twin = copy.deepcopy(deal)
        two, three = twin["hands"][2], twin["hands"][3]
        other = next(c for c in three if c[0] != "G")
        two[two.index("GA")], three[three.index(other)] = other, "GA"
        # seat 0 leads the first trick, or plays to it last (Kontra off turn first)
        dealer = 3 if seed % 2 else 0
        first, second = (SchafkopfClassicMatch(4, {"dealer": dealer}, seed=seed, deals=[d])
                         for d in (deal, twin))
        for m in (first, second):
            contract.act(m, "0:pass 1:bid 2:pass 3:pass" if dealer == 3 else
                         "1:bid 2:pass 3:pass 0:pass")
            contract.act(m, "1:class:rufspiel 1:call:G")
        while first.view(None)["partner"] is None and first.view(None)["deal_no"] == 1:
            turn = first.view(None)["turn"]
            if 0 in first.to_act():
                view = first.view(0)
                assert view == second.view(0), "the engine shows seat 0 the same"
                if turn == 0:
                    one = bot.decide(view, first.legal(0), random.Random(seed))
                    assert one == bot.decide(second.view(0), second.legal(0),
                                             random.Random(seed))
                else:
                    said = asked_optional(first, 0)
                    assert said == asked_optional(second, 0)
                compared += 1
                optional += turn != 0
                action = one if turn == 0 else said
                if action is not None:
                    first.apply(0, action.wire)
                    second.apply(0, action.wire)
                    continue
            action = bot.decide(first.view(turn), first.legal(turn), random.Random(seed))
            if action not in second.legal(turn):
                break  # the hands differ in what they may play: the Sau shows soon
            first.apply(turn, action.wire)
            second.apply(turn, action.wire)
    assert compared >= 30 and optional >= 10


def test_the_bot_reads_no_other_hand_from_anything() -> None:
    """Besides its view (which holds only its own hand), nothing: no key of a hidden
    hand, no match (test_game_bots checks that it imports none)."""
    for node in ast.walk(ast.parse(inspect.getsource(bot))):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            assert node.value not in ("hands", "partner_seat", "snapshot"), node.value
        if isinstance(node, ast.Attribute):
            assert node.attr not in ("hands", "partner", "snapshot"), node.attr


def test_same_view_and_seed_give_the_same_choice() -> None:
    m = match(seed=11)
    rng = random.Random(11)
    while not m.is_over and m.view(None)["deal_no"] < 4:
        seat = m.view(None)["turn"]
        view, legal = m.view(seat), m.legal_actions(seat)
        first = bot.choose(copy.deepcopy(view), list(legal), random.Random(5))
        again = bot.choose(json.loads(json.dumps(view)), list(legal), random.Random(5))
        assert first == again
        m.apply(seat, first if rng.random() < 0.8 else rng.choice(legal))


# ----- strength --------------------------------------------------------------------------------
@pytest.mark.parametrize("options", [{}, {"all_pass": "ramsch", "geier": True}],
                         ids=["default", "ramsch-geier"])
def test_the_bot_beats_random_play_in_duplicate(options: dict[str, Any]) -> None:
    """bench/schafkopf_classic_duplicate.py, small: whole deals with the auction, the
    same cards with the seats swapped; cents per deal, 95 % interval above zero."""
    mean, low, _ = interval(duplicate(boards=16, deals=4, options=options))
    assert low > 0, mean

"""Typed actions: every action string a game lists is read once into a frozen
dataclass that spells it again exactly; the engines work on the typed action; a
string that spells no legal action is refused with the reason a player reads and
changes nothing (docs/engine.md, "Typed actions")."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

from app.games import GAMES, IllegalAction, Match, new_match
from app.games.actions import (
    Accept,
    Action,
    Answer,
    Bid,
    Challenge,
    End,
    Exchange,
    Knock,
    Lay,
    Pass,
    Play,
    Skip,
)
from app.games.base import PARSER_MEMORY
from tests.games.contract import MALFORMED_ACTIONS, assert_refused_unchanged, state_of

TYPED = ["schafkopf", "beutelschneider", "mauscheln", "luegenbeutel"]

# (game, players, options): every game and the variants that add actions
TABLES: list[tuple[str, int, dict[str, Any]]] = [
    ("schafkopf", 4, {}),
    ("beutelschneider", 3, {}),
    ("beutelschneider", 4, {}),
    ("mauscheln", 3, {"chips": 12}),
    ("mauscheln", 4, {"chips": 12, "knock": True, "quartets": True, "belli": True}),
    ("mauscheln", 4, {"chips": 12, "knock": True, "weli": True}),
    ("mauscheln", 6, {"chips": 12, "knock": True}),
    ("luegenbeutel", 3, {"target": 60}),
    ("luegenbeutel", 4, {"target": 60, "reveal_all": True, "lb_card": True}),
]
IDS = [f"{g}-{n}-{'-'.join(o) or 'plain'}" for g, n, o in TABLES]


def _positions(
    game: str, players: int, options: dict[str, Any], seeds: int = 3, steps: int = 400
) -> Any:
    """Every position of a few seeded random matches, as (match, seat on turn)."""
    for seed in range(seeds):
        m = new_match(game, players, dict(options, dealer=seed % players), seed=seed)
        rng = random.Random(seed)
        for _ in range(steps):
            if m.is_over:
                break
            seat = rng.choice(sorted(m.to_act()))
            yield m, seat
            m.apply(seat, rng.choice(m.legal_actions(seat)))


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_registered_game_spells_exactly_its_typed_legal_actions(game: str) -> None:
    """legal_actions (spelled by the game where it can, ``_spelled``) is the spelling
    of legal() at every position, for every seat: a game that lists more than a
    spelled list holds is caught (a trick game with actions beside its plays must
    spell them too, or say ``spells = False``)."""
    info = GAMES[game]
    for players in sorted({info.min_players, info.max_players}):
        for m, _ in _positions(game, players, {}, seeds=2, steps=300):
            for seat in range(m.players):
                assert m.legal_actions(seat) == [a.wire for a in m.legal(seat)]


@pytest.mark.parametrize(("game", "players", "options"), TABLES, ids=IDS)
def test_every_legal_action_reads_as_a_typed_action_that_spells_it(
    game: str, players: int, options: dict[str, Any]
) -> None:
    cls = GAMES[game].match_class
    for m, _ in _positions(game, players, options):
        for seat in range(m.players):
            legal = m.legal_actions(seat)
            typed = m.legal(seat)
            assert [a.wire for a in typed] == legal
            for text, action in zip(legal, typed, strict=True):
                parsed = cls.parse(text)
                assert str(parsed) == text and parsed.wire == text
                assert parsed == action and hash(parsed) == hash(action)
                assert isinstance(parsed, Action) and type(parsed) in cls.parser.kinds


@pytest.mark.parametrize("game", TYPED)
def test_a_typed_action_does_what_its_string_does(game: str) -> None:
    """simulate(seat, typed) on one copy and apply(seat, string) on another: the same
    events and the same state; check() accepts what legal() lists."""
    info = GAMES[game]
    for m, seat in _positions(game, info.max_players, {}, seeds=2, steps=200):
        typed = m.legal(seat)
        for action in typed:
            m.check(seat, action)
        action = typed[len(typed) // 2]
        by_type, by_text = m.copy(), m.copy()
        events = by_type.simulate(seat, action)
        assert events == by_text.apply(seat, action.wire)
        assert state_of(by_type) == state_of(by_text)


def test_the_action_types_spell_todays_strings() -> None:
    assert str(Play("EO")) == "play:EO" and str(Play("rX")) == "play:rX"
    assert [str(Knock(True)), str(Knock(False))] == ["knock", "no_knock"]
    assert [str(Bid(True)), str(Bid(False))] == ["mauschel", "pass"]
    assert [str(Answer(True)), str(Answer(False))] == ["join", "fold"]
    assert str(Exchange(("HA", "S7"))) == "exchange:HA,S7"
    assert str(Exchange(())) == "exchange:"
    assert Exchange.spell(["HA", "S7"]) == Exchange(("HA", "S7")).wire
    assert [str(Lay("7")), str(Skip("A")), str(Pass()), str(End()), str(Accept())] == [
        "lay:7",
        "skip:A",
        "pass",
        "end",
        "accept",
    ]
    assert [str(Challenge(2)), str(Challenge("all"))] == ["challenge:2", "challenge:all"]


def test_typed_actions_are_frozen_values() -> None:
    play = Play("EO")
    with pytest.raises(dataclasses.FrozenInstanceError):
        play.card = "GO"  # type: ignore[misc]
    assert play == Play("EO") and play != Play("GO") and len({play, Play("EO")}) == 1
    assert Bid(False) != Answer(False), "a word of another decision is another action"
    match play:
        case Play(card):
            assert card == "EO"


@pytest.mark.parametrize("game", TYPED)
def test_parse_refuses_what_spells_no_action_with_the_reason(game: str) -> None:
    cls = GAMES[game].match_class
    for bad in (None, 7, b"play:EO", ["play:EO"], {"action": "play:EO"}, True, 1.5):
        with pytest.raises(IllegalAction) as info:
            cls.parse(bad)
        assert str(info.value) == "an action is a text such as 'play:EO'"
    for bad in ("", " ", "PLAY:EO", " play:EO", "Play:EO", "play", "nonsense"):
        with pytest.raises(IllegalAction) as info:
            cls.parse(bad)
        assert str(info.value) == f"{bad!r} is not allowed now"
    with pytest.raises(IllegalAction) as info:
        cls.parse("x" * 100)
    assert str(info.value) == f"{'x' * 40 + '…'!r} is not allowed now"
    # a card is named by any text: whether it is held is the engine's question
    carded = (Play, "play:") if Play in cls.parser.kinds else (Lay, "lay:")
    kind, prefix = carded
    assert cls.parse(prefix + "ZZ") == kind("ZZ") and cls.parse(prefix + " 7") == kind(" 7")


def test_mauscheln_reads_its_words_and_exchanges_only_as_spelled() -> None:
    cls = GAMES["mauscheln"].match_class
    assert cls.parse("mauschel") == Bid(True) and cls.parse("pass") == Bid(False)
    assert cls.parse("join") == Answer(True) and cls.parse("fold") == Answer(False)
    assert cls.parse("knock") == Knock(True) and cls.parse("no_knock") == Knock(False)
    assert cls.parse("exchange:") == Exchange(())
    assert cls.parse("exchange:HA,S7") == Exchange(("HA", "S7"))
    assert cls.parse("exchange:HA, S7") == Exchange(("HA", " S7"))
    for bad in ("Mauschel", "pass ", "knock:", "no-knock", "exchange", "join,fold"):
        with pytest.raises(IllegalAction):
            cls.parse(bad)


def test_any_string_reads_as_nothing_or_as_an_action_that_spells_it_again() -> None:
    rng = random.Random(3)
    words = ["play", "exchange", "pass", "mauschel", "knock", "no_knock", "join", "fold"]
    words += ["lay", "skip", "end", "accept", "challenge"]
    pieces = [*words, ":", ",", " ", "HA", "S7", "EO", "", "0", "1", "01", "all", "Z", "7"]
    for _ in range(3000):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(1, 5)))
        for game in TYPED:
            try:
                action = GAMES[game].match_class.parse(text)
            except IllegalAction:
                continue
            assert action.wire == text


def test_the_parser_remembers_a_bounded_number_of_strings() -> None:
    parser = GAMES["schafkopf"].match_class.parser
    for i in range(PARSER_MEMORY + 50):
        assert parser.parse(f"play:junk{i}") == Play(f"junk{i}")
    assert 0 < len(parser.known) <= PARSER_MEMORY
    assert parser.parse("play:EO") == Play("EO")


# ----- refusals: the same reasons as before, nothing changed ---------------------------
def _refusal(m: Match, seat: Any, action: Any) -> str:
    with pytest.raises(IllegalAction) as info:
        m.verify(seat, action)
    assert_refused_unchanged(m, seat, action)
    return str(info.value)


def test_schafkopf_refuses_other_spellings_spaces_and_unknown_cards() -> None:
    m = new_match("schafkopf", 4, {"dealer": 3}, seed=7)
    seat = next(iter(m.to_act()))
    other = (seat + 1) % 4
    card = m.view(seat)["hand"][0]
    for bad in MALFORMED_ACTIONS:
        assert _refusal(m, seat, bad)
    assert _refusal(m, seat, "play:ZZ") == "you do not hold 'ZZ'"
    assert _refusal(m, seat, "play:" + card.lower()) == f"you do not hold {card.lower()!r}"
    assert _refusal(m, seat, f"play: {card}") == f"you do not hold ' {card}'"
    assert _refusal(m, seat, f"play:{card} ") == f"you do not hold '{card} '"
    assert _refusal(m, seat, "play:" + "y" * 30) == f"you do not hold {'y' * 20 + '…'!r}"
    assert _refusal(m, seat, f"PLAY:{card}") == f"'PLAY:{card}' is not allowed now"
    assert _refusal(m, seat, f" play:{card}") == f"' play:{card}' is not allowed now"
    assert _refusal(m, seat, None) == "an action is a text such as 'play:EO'"
    assert _refusal(m, other, f"play:{card}") == "it is not your turn"
    assert _refusal(m, other, "PLAY") == "it is not your turn"
    # a seat that holds the led suit and plays another
    rng = random.Random(1)
    while True:
        m.apply(seat, rng.choice(m.legal_actions(seat)))
        seat = next(iter(m.to_act()))
        view = m.view(seat)
        legal = m.legal_actions(seat)
        others = [c for c in view["hand"] if "play:" + c not in legal]
        if others:
            break
    assert _refusal(m, seat, "play:" + others[0]).startswith("you must follow suit: ")


def test_check_refuses_a_typed_action_with_the_reason_verify_gives() -> None:
    m = new_match("schafkopf", 4, {"dealer": 3}, seed=7)
    seat = next(iter(m.to_act()))
    for action in (Play("ZZ"), Play("eo"), Bid(True)):
        with pytest.raises(IllegalAction) as by_type:
            m.check(seat, action)
        assert str(by_type.value) == _refusal(m, seat, action.wire)
    with pytest.raises(IllegalAction) as info:
        m.check(seat + 1, m.legal(seat)[0])
    assert str(info.value) == "it is not your turn"


def _mauscheln_at(phase: str, options: dict[str, Any] | None = None) -> tuple[Match, int]:
    for seed in range(200):
        m = new_match("mauscheln", 4, {"dealer": 0, **(options or {})}, seed=seed)
        rng = random.Random(seed)
        for _ in range(60):
            if m.phase == phase:
                return m, next(iter(m.to_act()))
            if m.is_over:
                break
            seat = next(iter(m.to_act()))
            legal = m.legal_actions(seat)
            # say mauschel and join, so that the deal comes to the exchange and play
            wanted = [a for a in legal if a in ("mauschel", "join", "no_knock")]
            m.apply(seat, wanted[0] if wanted else rng.choice(legal))
    raise AssertionError(f"no Mauscheln match reached {phase}")


def test_mauscheln_refuses_words_of_other_phases_and_malformed_exchanges() -> None:
    m, seat = _mauscheln_at("bidding")
    for bad in ("Mauschel", "pass ", "join", "knock", None):
        reason = _refusal(m, seat, bad)
        expected = (
            "an action is a text such as 'play:EO'"
            if bad is None
            else "say 'mauschel' to play or 'pass'"
        )
        assert reason == expected
    # a card: not before every player has decided (what a tap on a card is told)
    assert _refusal(m, seat, "play:HA") == (
        "no card is played before every player has decided and exchanged")
    assert _refusal(m, (seat + 1) % 4, "pass") == "it is not your turn"

    m, seat = _mauscheln_at("joining")
    assert _refusal(m, seat, "mauschel") == "say 'join' to play along or 'fold'"

    m, seat = _mauscheln_at("exchange")
    hand = m.view(seat)["hand"]
    assert _refusal(m, seat, "exchange:ZZ") == "you do not hold 'ZZ'"
    assert _refusal(m, seat, f"exchange:{hand[0]}, {hand[1]}") == f"you do not hold ' {hand[1]}'"
    assert _refusal(m, seat, f"exchange:{hand[0]},{hand[0]}") == "name each card only once"
    assert _refusal(m, seat, f"exchange:{hand[1]},{hand[0]}").startswith(
        "list the discards in the order of your hand: "
    )
    assert _refusal(m, seat, "mauschel").startswith("exchange now: ")

    m, seat = _mauscheln_at("play")
    assert _refusal(m, seat, "play:ZZ") == "you do not hold 'ZZ'"
    assert _refusal(m, seat, "exchange:").startswith("play a card, e.g. play:")


def test_luegenbeutel_reads_its_actions_only_as_spelled() -> None:
    cls = GAMES["luegenbeutel"].match_class
    assert cls.parse("lay:7") == Lay("7") and cls.parse("skip:A") == Skip("A")
    assert cls.parse("pass") == Pass() and cls.parse("end") == End()
    assert cls.parse("accept") == Accept()
    assert cls.parse("challenge:3") == Challenge(3) and cls.parse("challenge:12") == Challenge(12)
    assert cls.parse("challenge:all") == Challenge("all")
    assert cls.parse("challenge:0") == Challenge(0), "read; no such card is legality"
    for bad in (
        "challenge:03",
        "challenge: 3",
        "challenge:+3",
        "challenge:x",
        "challenge:",
        "challenge",
        "challenge:ALL",
        "challenge:\u0663",
        "lay",
        "Pass",
        "end ",
        "accept:1",
    ):
        with pytest.raises(IllegalAction):
            cls.parse(bad)


def _luegenbeutel_window(reveal_all: bool = False) -> tuple[Match, int, int]:
    """A match with a turn open to challenge: (match, the seat up next, a challenger
    that is neither)."""
    m = new_match("luegenbeutel", 3, {"dealer": 0, "reveal_all": reveal_all}, seed=4)
    seat = next(iter(m.to_act()))
    m.apply(seat, m.legal_actions(seat)[0])  # lay a card
    m.apply(seat, "end")
    up = next(s for s in m.to_act() if m.must_act(s))
    other = next(s for s in m.to_act() if s not in (seat, up))
    return m, up, other


def test_luegenbeutel_refuses_malformed_actions_with_the_same_reasons() -> None:
    m, up, other = _luegenbeutel_window()
    count = m.view(other)["stack"]["count"]
    for bad in (
        "challenge:x",
        "challenge:",
        "challenge",
        "challenge:03",
        "challenge:0",
        f"challenge:{count + 1}",
        "challenge:all",
    ):
        assert _refusal(m, other, bad) == f"choose a card from 1 to {count}"
    liar = m.view(other)["stack"]["seat"]
    assert _refusal(m, liar, "challenge:1") == "you cannot challenge your own turn"
    assert _refusal(m, up, "accept") == "there is nothing to accept: just play on"
    assert _refusal(m, up, "accept:1") == "there is nothing to accept: just play on"
    assert _refusal(m, up, "lay") == "you do not hold ''"
    assert _refusal(m, up, "lay:Z") == "you do not hold 'Z'"
    assert _refusal(m, up, "skip") == "you do not hold ''"
    assert _refusal(m, up, "end") == "lay a card, skip or pass first"
    assert _refusal(m, up, "pass:x") == "'pass:x' is not allowed now"
    assert _refusal(m, up, "Lay:7") == "'Lay:7' is not allowed now"
    assert _refusal(m, other, "lay:7") == "it is not your turn"
    assert _refusal(m, other, None) == "an action is a text such as 'play:EO'"
    m, up, other = _luegenbeutel_window(reveal_all=True)
    assert _refusal(m, other, "challenge:1") == (
        "in this room a challenge turns over the whole turn: 'challenge:all'"
    )

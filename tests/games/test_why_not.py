"""Why not this card? (issue 28): a card of a hand that may not be played now is
refused by the engine's own ``verify`` with a reason in players' words, whose
parameters are codes the web shows in the page's language (a suit, a card): never
the bare "'play:EO' is not allowed now", in every game, in every state a random
match passes through. The classic Schafkopf's called Sau names its suit."""

from __future__ import annotations

import random
from typing import Any

import pytest

from app.games import IllegalAction, Match, new_match
from app.games.luegenbeutel import LuegenbeutelMatch
from app.games.tricks import TrickGame
from tests.games.contract import state_of
from tests.games.test_schafkopf_classic import act, gras_rufspiel, hands, match

NOT_YOUR_TURN = "it is not your turn"
FOLLOW = "you must follow suit: {suit} was led"
# the reasons a held card may be refused with, per game (besides NOT_YOUR_TURN)
REASONS: dict[str, set[str]] = {
    "schafkopf": {FOLLOW},
    "beutelschneider": {FOLLOW},
    "schafkopf_classic": {
        FOLLOW, "you must play a trump: a trump was led",
        "{suit} was led: you must play the called Sau",
        "the called Sau may not be discarded before {suit} was led",
        "lead {suit} with the called Sau, unless you hold four cards of {suit}",
        "no card is played before the game is settled"},
    "mauscheln": {
        "you must follow suit: {suit} were led", "you must beat {card}",
        "you must play a trump ({suit})", "you must play a trump ({suit} or the {card})",
        "no card is played before every player has decided and exchanged"},
    "luegenbeutel": {
        "after passing you may lay only the card you drew, and only once",
        "wait: the round's last turn may still be challenged"},
}
PLAYERS = {"schafkopf": 4, "beutelschneider": 4, "schafkopf_classic": 4, "mauscheln": 4,
           "luegenbeutel": 3}


def card_action(m: Match, card: str) -> str:
    """The action a tap on ``card`` of a hand asks about."""
    return f"lay:{card}" if isinstance(m, LuegenbeutelMatch) else f"play:{card}"


def refusal(m: Match, seat: int, action: str) -> IllegalAction | None:
    try:
        m.verify(seat, action)
    except IllegalAction as exc:
        return exc
    return None


def refused_cards(m: Match) -> list[tuple[int, str, IllegalAction]]:
    """Every held card of every seat that may not be played now, with the refusal."""
    out = []
    for seat in range(m.players):
        for card in sorted(set(m.hands[seat])):  # type: ignore[attr-defined]
            exc = refusal(m, seat, card_action(m, card))
            if exc is not None:
                out.append((seat, card, exc))
    return out


@pytest.mark.parametrize("game", sorted(REASONS))
def test_every_refused_card_says_why_in_players_words(game: str) -> None:
    seen: dict[str, int] = {}
    for seed in range(6):
        options: dict[str, Any] = {"all_pass": "ramsch"} if game == "schafkopf_classic" else {}
        m = new_match(game, PLAYERS[game], options, seed=seed)
        rng = random.Random(seed)
        for _ in range(160):
            if m.is_over:
                break
            for seat, _card, exc in refused_cards(m):
                assert exc.key in REASONS[game] | {NOT_YOUR_TURN}, (game, exc.key, str(exc))
                seen[exc.key] = seen.get(exc.key, 0) + 1
                if exc.key == NOT_YOUR_TURN:
                    assert seat != m.turn  # type: ignore[attr-defined]
                if "{suit}" in exc.key:
                    assert exc.params["suit"] in {"E", "G", "H", "S", "g", "y", "r", "b",
                                                  "D", "C"}, exc.params
                    assert exc.params["suit"] not in str(exc).split(), "the English names it"
                if "{card}" in exc.key:
                    assert exc.params["card"] not in str(exc), "the English names the card"
            seat = sorted(m.to_act())[0]
            m.apply(seat, rng.choice(m.legal_actions(seat)))
    assert seen.get(NOT_YOUR_TURN), game
    assert len(seen) >= 2, (game, seen)  # a rule of the game was met, not just turns


@pytest.mark.parametrize("game", ["schafkopf", "beutelschneider"])
def test_follow_suit_names_the_suit_led(game: str) -> None:
    for seed in range(20):
        m = new_match(game, 4, {}, seed=seed)
        rng = random.Random(seed)
        while not m.is_over:
            assert isinstance(m, TrickGame)
            seat = m.turn
            assert seat is not None
            refused = [(s, c, e) for s, c, e in refused_cards(m) if s == seat]
            if refused:
                _seat, _card, exc = refused[0]
                assert exc.key == FOLLOW
                assert exc.params == {"suit": m.led_suit()}
                assert str(exc) == FOLLOW.format(suit=m.suit_names[m.led_suit() or ""])
                return
            m.apply(seat, rng.choice(m.legal_actions(seat)))
    raise AssertionError("no card was ever refused")


# ----- the classic Schafkopf: Seat 1 plays on the Gras Sau, which seat 3 holds -------
def test_classic_called_sau_reasons_name_the_called_suit() -> None:
    m = gras_rufspiel()
    act(m, "1:play:G7 2:play:G8")
    exc = refusal(m, 3, "play:GK")
    assert exc is not None and exc.key == "{suit} was led: you must play the called Sau"
    assert exc.params == {"suit": "G"} and str(exc) == (
        "Gras was led: you must play the called Sau")

    m = gras_rufspiel()
    act(m, "1:play:E7 2:play:EA")  # Eichel led: seat 3 holds none and may not discard GA
    exc = refusal(m, 3, "play:GA")
    assert exc is not None and exc.params == {"suit": "G"}
    assert str(exc) == "the called Sau may not be discarded before Gras was led"
    # trumps led: seat 3 must follow with a trump
    act(m, "3:play:GK 0:play:E8 2:play:S10 3:play:H8 0:play:S9 1:play:HK")
    act(m, "1:play:HO 2:play:H9")
    exc = refusal(m, 3, "play:GA")
    assert exc is not None and str(exc) == "you must play a trump: a trump was led"


def test_classic_lead_of_the_called_suit_and_the_auction() -> None:
    three = match(hands("EO E7 E8 E9 G7 G8 S8 S7", "SA S10 S9 G9 HA EA GA H7",
                        "GO HO SO EU GU HU SU H10", "E10 EK SK G10 GK HK H9 H8"), dealer=0)
    auction = refusal(three, 1, "play:SA")  # seat 1 is forehand: its call comes first
    assert auction is not None
    assert str(auction) == "no card is played before the game is settled"
    assert str(refusal(three, 2, "play:GO")) == NOT_YOUR_TURN
    act(three, "1:pass 2:pass 3:pass 0:bid 0:class:rufspiel 0:call:S")
    exc = refusal(three, 1, "play:S10")
    assert exc is not None and exc.params == {"suit": "S"}
    assert str(exc) == "lead Schellen with the called Sau, unless you hold four cards of Schellen"


def test_a_legal_card_is_not_refused_and_verify_changes_nothing() -> None:
    m = gras_rufspiel()
    before = state_of(m)
    for seat, card, _exc in refused_cards(m):
        assert card_action(m, card) not in m.legal_actions(seat)
    for action in m.legal_actions(1):
        assert refusal(m, 1, action) is None
    assert state_of(m) == before


# ----- Mauscheln and Lügenbeutel ------------------------------------------------------
def test_mauscheln_a_card_before_the_play_waits_for_every_decision() -> None:
    m = new_match("mauscheln", 4, {"dealer": 0}, seed=3)
    while m.phase not in ("bidding", "joining"):
        seat = sorted(m.to_act())[0]
        m.apply(seat, m.legal_actions(seat)[-1])
    seat = sorted(m.to_act())[0]
    card = m.hands[seat][0]  # type: ignore[attr-defined]
    exc = refusal(m, seat, f"play:{card}")
    assert exc is not None and str(exc) == (
        "no card is played before every player has decided and exchanged")
    other = (seat + 1) % 4
    exc = refusal(m, other, f"play:{m.hands[other][0]}")  # type: ignore[attr-defined]
    assert exc is not None and str(exc) == NOT_YOUR_TURN


def test_luegenbeutel_after_passing_only_the_drawn_card() -> None:
    for seed in range(40):
        m = new_match("luegenbeutel", 3, {}, seed=seed)
        seat = m.turn  # type: ignore[attr-defined]
        m.apply(seat, "pass")
        if m.turn != seat or not m.drawn:  # type: ignore[attr-defined]
            continue
        other = next(c for c in m.hands[seat] if c != m.drawn)  # type: ignore[attr-defined]
        exc = refusal(m, seat, f"lay:{other}")
        assert exc is not None
        assert str(exc) == "after passing you may lay only the card you drew, and only once"
        return
    raise AssertionError("no pass drew a card")

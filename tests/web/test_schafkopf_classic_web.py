"""The classic Schafkopf at the table (issue 27): the partner stays secret in every
fragment until the called Sau shows, the auction's buttons are the seat's own legal
actions, the sheet is in euros and cents, and the lobby and the rematch form offer
the "choice" option."""

from __future__ import annotations

from typing import Any

from app import i18n
from app.games import GAMES, new_match
from app.games.actions import BID, KONTRA, PASS_SPEAK, RETOUR, CallSau, NameGame, Play
from app.rooms.bot_driver import bots_to_act
from app.rooms.clock import ManualClock
from app.rooms.room import Room, Seat
from app.rooms.table_state import seat_state, table_state
from app.web.fragments import SharedFragments, render_fragments
from app.web.games.schafkopf_classic import PRESENTATION, game_line, money
from app.web.lobby import lobby_order
from app.web.option_form import read_options

GAME = "schafkopf_classic"
# seat 1 (forehand: seat 0 deals) plays a Rufspiel on the Gras Sau; seat 2 or seat 3
# holds it, the other one the Gras Ten instead (the two deals differ by that alone)
HANDS = [
    ["SO", "SU", "EA", "E10", "EK", "SA", "S10", "SK"],
    ["EO", "GO", "HO", "EU", "GU", "HA", "H10", "G7"],
    ["GA", "HU", "HK", "E9", "E8", "S9", "G9", "H9"],
    ["G10", "H8", "H7", "E7", "GK", "G8", "S8", "S7"],
]
SAU, TEN = "GA", "G10"
AUCTION = [(1, BID.wire), (2, PASS_SPEAK.wire), (3, PASS_SPEAK.wire), (0, PASS_SPEAK.wire),
           (1, NameGame("rufspiel").wire), (1, CallSau("G").wire)]
WATCHERS = (1, 0, None)  # the declarer, the other opponent, a spectator


def _swapped() -> list[list[str]]:
    return [[{SAU: TEN, TEN: SAU}.get(c, c) for c in hand] if s in (2, 3) else list(hand)
            for s, hand in enumerate(HANDS)]


def _room(hands: list[list[str]]) -> Room:
    room = Room(id="r", game=GAME, players=4, options={}, host_token_hash="h",
                clock=ManualClock(start=0.0))
    room.seats = [Seat(index=i, name=name, token_hash=str(i))
                  for i, name in enumerate(("Anna", "Bert", "Cilli", "Done"))]
    room.match = new_match(GAME, 4, {"dealer": 0}, seed=1, deals=[{"hands": hands}])
    for s in range(4):
        room.arrive(s)
    return room


def _drawn(room: Room, cache: SharedFragments, step: int) -> dict[tuple[Any, ...], Any]:
    room.version = step
    room.changed()
    out: dict[tuple[Any, ...], Any] = {}
    for language in ("en", "de"):
        with i18n.language(language):
            for seat in WATCHERS:
                out[(language, seat, "pushed")] = cache.render(room, seat, seat == 1)
                out[(language, seat, "page")] = render_fragments(room, seat, seat == 1)
    for seat in WATCHERS:
        assert room.match is not None
        out[("view", seat)] = room.match.view(seat)
    return out


def _common(a: Room, b: Room, seat: int) -> str | None:
    """An action the seat may take in both deals, neither the Sau nor the Ten (a
    card of the Gras suit is never led: its Sau would show)."""
    assert a.match is not None and b.match is not None
    both = [x for x in a.match.legal(seat) if x in b.match.legal(seat)]
    leading = not a.match.view(None)["trick"]
    cards = [x for x in both if isinstance(x, Play) and x.card not in (SAU, TEN)
             and not (leading and x.card[0] == "G")]
    return cards[0].wire if cards else None


def test_the_partner_is_in_no_fragment_until_the_called_sau_is_played() -> None:
    """Two deals that differ only by which opponent of the declarer holds the called
    Sau draw the declarer, the other opponent and a spectator the same fragments,
    byte for byte, pushed and on a page load, in both languages, through the auction,
    Kontra and Retour and the tricks, until the Sau is played."""
    rooms = [_room(HANDS), _room(_swapped())]
    caches = [SharedFragments(), SharedFragments()]
    step = 0
    assert _drawn(rooms[0], caches[0], step) == _drawn(rooms[1], caches[1], step)
    script = list(AUCTION)
    kontra_said = retour_said = False
    compared = 0
    while True:
        ma, mb = rooms[0].match, rooms[1].match
        assert ma is not None and mb is not None
        if script:
            seat, action = script.pop(0)
        elif not kontra_said:  # the other opponent doubles, the declarer answers
            seat, action, kontra_said = 0, KONTRA.wire, True
        elif not retour_said:
            seat, action, retour_said = 1, RETOUR.wire, True
        else:
            seat = ma.turn
            assert seat == mb.turn
            common = _common(rooms[0], rooms[1], seat)
            if common is None:
                break
            action = common
        events = [m.apply(seat, action) for m in (ma, mb)]
        assert events[0] == events[1], action
        step += 1
        assert _drawn(rooms[0], caches[0], step) == _drawn(rooms[1], caches[1], step), action
        compared += 1
        if ma.is_over:
            break
    assert kontra_said and retour_said
    assert compared >= 12, "the auction, Kontra, Retour and some tricks were compared"
    # the partner is known to himself all along: seats 2 and 3 were told differently
    assert rooms[0].match is not None and rooms[1].match is not None
    assert rooms[0].match.view(2)["partner"] == 2 and rooms[1].match.view(3)["partner"] == 3
    assert rooms[0].match.view(None)["partner"] is None


def test_a_seat_that_may_only_say_kontra_is_neither_awaited_nor_shown() -> None:
    """Once the game stands, the opponents may say Kontra off turn: the table waits
    only for the seat on turn, each plate and turn mark is the same whoever may
    double, and a bot driver is not woken for a person who may only say Kontra."""
    rooms = [_room(HANDS), _room(_swapped())]
    for room in rooms:
        assert room.match is not None
        for seat, action in AUCTION:
            room.match.apply(seat, action)
        room.changed()
    a, b = (r.match for r in rooms)
    assert a is not None and b is not None
    assert a.to_act() == {1, 0, 3} and b.to_act() == {1, 0, 2}  # the engine knows
    for room in rooms:
        state = table_state(room)
        mine = [seat_state(room, s, False, state.status).my_turn for s in range(4)]
        assert mine == [False, True, False, False]  # only the declarer, on lead, is awaited
        assert bots_to_act(room) == []  # four people: no bot is asked anything
    with i18n.language("de"):
        plates = [render_fragments(r, None, False)["seats"] for r in rooms]
    assert plates[0] == plates[1]


def test_the_buttons_are_the_seats_own_legal_actions_in_the_tables_words() -> None:
    room = _room(HANDS)
    match = room.match
    assert match is not None
    with i18n.language("de"):
        actions = render_fragments(room, 1, False)["actions"]
        assert "Ich spiel" in actions and "Weiter" in actions
        assert render_fragments(room, 2, False)["actions"].count("data-action") == 0
    for seat, action in AUCTION[:4]:
        match.apply(seat, action)
    with i18n.language("en"):
        actions = render_fragments(room, 1, False)["actions"]
    # only the classes the seat may name (Geier is off by default), then Weiter
    for word in ("Rufspiel", "Wenz", "Solo", "Wenz Tout", "Solo Tout", "Weiter"):
        assert f">{word}" in actions, word
    assert "Geier" not in actions
    match.apply(1, NameGame("rufspiel").wire)
    with i18n.language("de"):
        actions = render_fragments(room, 1, False)["actions"]
        assert "Gras-Sau" in actions and "Eichel-Sau" not in actions  # G7: only Gras
    match.apply(1, CallSau("G").wire)
    with i18n.language("de"):
        board = render_fragments(room, 0, False)["board"]
        assert "Bert spielt auf die Gras-Sau" in board
        assert "Kontra" in render_fragments(room, 0, False)["actions"]  # its own button
        assert "Kontra" not in render_fragments(room, 2, False)["actions"]  # the partner
        assert "Kontra" not in render_fragments(room, None, False)["actions"]


def test_the_holder_is_told_until_the_called_sau_shows_then_every_board_names_both() -> None:
    """The holder's board says it holds the Sau while the Sau is in its hand; once it
    is played (Bert leads Gras, Cilli must give the Sau) it names the partners like
    every other board, to the end of the match (it said "Nobody else knows yet"
    after the last trick)."""
    room = _room(HANDS)
    match = room.match
    assert match is not None
    for seat, action in AUCTION:
        match.apply(seat, action)
    with i18n.language("en"):
        holder = render_fragments(room, 2, False)["board"]
        assert "You hold the Gras Sau: you play with Bert. Nobody else knows yet." in holder
        assert "Partners" not in render_fragments(room, 3, False)["board"]
    match.apply(1, Play("G7").wire)
    match.apply(2, Play(SAU).wire)
    for language, partners in (("en", "Partners: Bert & Cilli"),
                               ("de", "Partner: Bert & Cilli")):
        with i18n.language(language):
            for viewer in (0, 1, 2, 3, None):
                board = render_fragments(room, viewer, False)["board"]
                assert partners in board, (language, viewer)
                assert "Nobody else knows" not in board and "weiß es sonst keiner" not in board


def test_money_and_the_games_in_both_languages() -> None:
    names = ["Anna", "Bert", "Cilli", "Done"]
    with i18n.language("de"):
        assert money(40) == "0,40\xa0€" and money(-150) == "-1,50\xa0€"
        assert money(20, signed=True) == "+0,20\xa0€"
        assert game_line({"declared": "solo", "declarer": 2, "trump": "H"}, names) \
            == "Cilli: Herz-Solo"
        assert game_line({"game": "wenz", "declarer": 1}, names) == "Bert: Wenz"
        assert PRESENTATION.action_label(KONTRA.wire) == "Kontra!"
    with i18n.language("en"):
        assert money(40) == "€0.40" and money(-150) == "-€1.50"
        assert game_line({"declared": "rufspiel", "declarer": 0, "called": "G"}, names) \
            == "Anna plays a Rufspiel on the Gras Sau"
        assert PRESENTATION.action_label(PASS_SPEAK.wire) == "Weiter (pass)"


def test_the_lobby_lists_the_classic_game_first_for_german_visitors() -> None:
    assert lobby_order("de")[0] == GAME
    assert lobby_order("en") == list(GAMES)
    assert sorted(lobby_order("de")) == sorted(GAMES)


def test_the_choice_option_is_read_from_a_form() -> None:
    spec = GAMES[GAME].options
    assert read_options(spec, {"x.all_pass": "ramsch"}, "x.")["all_pass"] == "ramsch"
    assert "all_pass" not in read_options(spec, {"x.all_pass": ""}, "x.")


def test_the_replay_says_each_call_of_the_auction_and_the_deals_end() -> None:
    """The replay's sentences (app.web.replay asks the presentation) for the actions
    of the classic game, in both languages; none of them names the partner before
    the engine's public ``partner`` event does."""
    names = ["Anna", "Bert", "Cilli", "Done"]
    m = new_match(GAME, 4, {"dealer": 0}, seed=1, deals=[{"hands": HANDS}])
    events = [e for seat, action in AUCTION for e in m.apply(seat, action)]
    events += m.apply(0, KONTRA.wire)
    with i18n.language("de"):
        said = [PRESENTATION.describe(e, names) for e in events]
    assert said == ["Bert: Ich spiel.", "Cilli: Weiter.", "Done: Weiter.", "Anna: Weiter.",
                    "Bert sagt Rufspiel an.", "Bert spielt auf die Gras-Sau.", "Anna: Kontra!"]
    with i18n.language("en"):
        said = [PRESENTATION.describe(e, names) for e in events]
    assert said[0] == "Bert: Ich spiel." and said[5] == "Bert plays a Rufspiel on the Gras Sau."
    assert not any("Cilli" in s and "partner" in s for s in said)
    with i18n.language("de"):
        assert PRESENTATION.describe({"type": "partner", "seat": 2}, names) \
            == "Cilli hat die gerufene Sau: der Partner."
        end = {"type": "deal_end", "deal_no": 3, "kind": "played", "game": "wenz",
               "declarer": 1, "won": True, "party_points": 70, "cents": [-50, 150, -50, -50]}
        assert PRESENTATION.describe(end, names) == (
            "Spiel 3 ist aus: Bert: Wenz, gewonnen mit 70 Augen; Anna -0,50\xa0€, "
            "Bert +1,50\xa0€, Cilli -0,50\xa0€, Done -0,50\xa0€.")

"""Every table state of every game draws for every seat and a spectator: random
matches with each variant, rendered after every action (no server needed)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from app.games import new_match
from app.rooms.room import Room, Seat
from app.web.fragments import render_frame

VARIANTS: list[tuple[str, int, dict[str, Any]]] = [
    ("schafkopf", 4, {}),
    ("beutelschneider", 3, {}),
    ("beutelschneider", 4, {}),
    ("mauscheln", 3, {}),
    ("mauscheln", 4, {"knock": True, "quartets": True, "belli": True}),
    ("mauscheln", 5, {"knock": True, "weli": True}),
    ("mauscheln", 7, {"quartets": True}),
    ("luegenbeutel", 2, {}),
    ("luegenbeutel", 3, {"reveal_all": True}),
    ("luegenbeutel", 5, {"lb_card": True}),
]


@pytest.mark.parametrize(("game", "players", "options"), VARIANTS,
                         ids=[f"{g}-{n}-{'-'.join(o) or 'plain'}" for g, n, o in VARIANTS])
def test_every_state_draws_for_every_seat(game: str, players: int,
                                          options: dict[str, Any]) -> None:
    room = Room(id="r", game=game, players=players, options=options, host_token_hash="h")
    room.seats = [Seat(index=i, name=f"P<{i}>", token_hash=str(i)) for i in range(players)]
    room.match = new_match(game, players, dict(options, dealer=0), seed=players)
    rng = random.Random(players)
    for step in range(400):
        match = room.match
        for seat in [None, *range(players)]:
            html = render_frame(room, seat, is_host=seat == 0)
            assert 'id="version"' in html and "<P<" not in html
        if match.is_over:
            break
        seat = rng.choice(sorted(match.to_act()))
        match.apply(seat, rng.choice(match.legal_actions(seat)))
        room.version = step + 1


def test_a_turn_nobody_is_at_counts_down_to_the_bot_for_everybody() -> None:
    from app.rooms.clock import ManualClock

    room = Room(id="r", game="schafkopf", players=4, options={}, host_token_hash="h",
                clock=ManualClock(start=0.0))
    room.seats = [Seat(index=i, name=f"P{i}", token_hash=str(i)) for i in range(4)]
    room.match = new_match("schafkopf", 4, {"dealer": 0}, seed=4)
    turn = sorted(room.match.to_act())[0]
    for s in range(4):
        room.arrive(s)
    html = render_frame(room, (turn + 1) % 4, is_host=False)
    assert "clock away" not in html, "everybody is at the table"
    room.leave(turn)
    html = render_frame(room, (turn + 1) % 4, is_host=False)
    away = room.table["away_seconds"] * 1000
    plate = html.split(f'id="plate-{turn}"', 1)[1].split('id="plate-', 1)[0]
    assert 'class="clock away"' in plate and "P" + str(turn) in plate
    left = int(plate.split('data-left-ms="', 1)[1].split('"', 1)[0])
    assert left == away, "the whole away time: nobody has waited for them yet"
    other = html.split(f'id="plate-{(turn + 2) % 4}"', 1)[1].split('id="plate-', 1)[0]
    assert "clock away" not in other, "only the seat whose move is awaited"
    room.seats[turn] = Seat(index=turn, name="Bot", token_hash="b", is_bot=True)
    assert "clock away" not in render_frame(room, None, is_host=False), "bots are never away"


def test_a_plate_says_its_state_in_its_classes() -> None:
    """The plate of the seat whose turn it is carries ``turn``, each its team; a
    free seat's plate ``free``, and a spectator may pick it before the start."""
    import re

    room = Room(id="r", game="schafkopf", players=4, options={}, host_token_hash="h")
    room.seats = [Seat(index=i, name=f"P{i}", token_hash=str(i)) for i in range(3)] + [None]
    waiting = render_frame(room, None, is_host=False)
    assert re.search(r'<label id="plate-3" class="plate team1 free pick"', waiting)
    assert re.search(r'<div id="plate-0" class="plate team0"', waiting)
    room.seats[3] = Seat(index=3, name="P3", token_hash="3")
    room.match = new_match("schafkopf", 4, {"dealer": 0}, seed=4)
    turn = room.match.view(None)["turn"]
    html = render_frame(room, 0, is_host=False)
    classes = dict(re.findall(r'<div id="plate-(\d)" class="([^"]*)"', html))
    assert classes == {str(s): f"plate{' turn' if s == turn else ''} team{s % 2}"
                       for s in range(4)}


@pytest.mark.parametrize(("game", "players"), [("schafkopf", 4), ("mauscheln", 4)])
def test_while_a_finished_deal_is_shown_the_plates_show_it_too(game: str,
                                                               players: int) -> None:
    """The engine deals on at once; while the room holds the result up, the plates
    show the finished deal's totals and neither the next deal's card counts nor its
    dealer (a Mauscheln seat's chips before the next deal's stake)."""
    import re

    from app.rooms.room import DealHold

    room = Room(id="r", game=game, players=players, options={}, host_token_hash="h")
    room.seats = [Seat(index=i, name=f"P{i}", token_hash=str(i)) for i in range(players)]
    room.match = match = new_match(game, players, {"dealer": 0}, seed=3)
    rng = random.Random(3)
    while match.deal_no == 1:
        seat = rng.choice(sorted(match.to_act()))
        match.apply(seat, rng.choice(match.legal_actions(seat)))
    finished = match.view(None)["last_deal"]["scores"]
    room.hold = DealHold(deal_no=1, until=1e12)
    html = render_frame(room, 0, is_host=False)
    ring = html.split('id="seats"', 1)[1].split("</section>", 1)[0]
    shown = [int(x) for x in re.findall(r'<span class="score">(-?\d+)</span>', ring)]
    assert shown == finished
    assert 'class="count"' not in ring and "deals</span>" not in ring
    room.hold = None
    ring = render_frame(room, 0, is_host=False).split('id="seats"', 1)[1].split(
        "</section>", 1)[0]
    assert 'class="count"' in ring and "deals</span>" in ring, "the next deal, once shown"


def test_the_luegenbeutel_turn_line_says_what_the_seat_may_do_now() -> None:
    room = Room(id="r", game="luegenbeutel", players=3, options={}, host_token_hash="h")
    room.seats = [Seat(index=i, name=f"P{i}", token_hash=str(i)) for i in range(3)]
    room.match = new_match("luegenbeutel", 3, {"dealer": 2}, seed=7)
    seat = room.match.view(None)["turn"]

    def line() -> str:
        html = render_frame(room, seat, is_host=False)
        return html.split('class="turn-line mine">', 1)[1].split("</p>", 1)[0]

    assert "pass" in room.match.legal_actions(seat)
    assert "skip with one card, or pass" in line()
    room.match.apply(seat, "pass")
    legal = room.match.legal_actions(seat)
    assert "pass" not in legal and "end" in legal
    expected = ("You drew a card: lay it as" if len(legal) > 1 else "You passed: end your turn.")
    assert expected in line() and "pass." not in line()
    room.match = new_match("luegenbeutel", 3, {"dealer": 2}, seed=7)
    lay = next(a for a in room.match.legal_actions(seat) if a.startswith("lay:"))
    room.match.apply(seat, lay)
    assert "end" in room.match.legal_actions(seat), "after laying, more or end"
    assert "lay more cards as" in line() and "(1 laid)" in line()


def test_a_waiting_table_says_the_target_the_host_chose() -> None:
    """The game's description says "the target"; the waiting table names it, as the
    host set it, in the game's measure (the lobby shows the default)."""
    from app import i18n

    room = Room(id="r", game="schafkopf", players=4, options={"target": 2},
                host_token_hash="h")
    room.seats = [Seat(index=0, name="Anna", token_hash="0"), None, None, None]
    assert room.status == "waiting"
    english = render_frame(room, 0, True)
    assert "Target: 2 units." in english and "11" not in english
    with i18n.language("de"):
        assert "Ziel: 2 Einheiten." in render_frame(room, 0, True)


def test_the_score_sheet_gives_points_in_its_columns_and_the_reasons_under_it() -> None:
    """A bonus's words are too long for a column on a phone: the column shows the
    points, the list under the table what each was for, by name."""
    from app.web.render import env

    sheet = {"card_points": 0, "beutelschneider": 0, "beutelschneider_cancelled": False,
             "hand_total": 0, "total": 0, "bonuses": []}
    bonus = {"name": "seducer", "points": 10,
             "label": "the seducing (later) card took the trick"}
    ld = {"sheets": [dict(sheet, seat=0), dict(sheet, seat=1, bonuses=[bonus, bonus]),
                     dict(sheet, seat=2)]}
    html = env.get_template("games/beutelschneider/sheet.html").render(
        ld=ld, names=["Anna", "Bert", "Alois"])
    row = html.split("Bonuses</th>", 1)[1].split("</tr>", 1)[0]
    assert row == "<td>–</td><td>+20</td><td>–</td>"
    notes = html.split('<ul class="sheet-notes">', 1)[1].split("</ul>", 1)[0]
    assert notes.count("<li>Bert: +10 the seducing (later) card took the trick</li>") == 2
    assert "Anna" not in notes and "Alois" not in notes
    ld["sheets"][1]["bonuses"] = []
    assert "sheet-notes" not in env.get_template("games/beutelschneider/sheet.html").render(
        ld=ld, names=["Anna", "Bert", "Alois"])

"""Why not this card? (issue 28): a card of the hand that may not be played now is
drawn as a button that asks the server why (``{"why": "play:EO"}``); the server asks
the engine (``Match.verify``) for that socket's own seat and answers that socket
alone with the engine's reason in one line, in the socket's language. Nothing
changes and nothing of the table is drawn again; the other sockets hear nothing;
a spectator and a malformed frame get a clear error."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from websockets.sync.client import connect

from app import i18n
from app.games import IllegalAction
from app.games.cards import SUIT_NAMES_DE
from app.web.messages import error_text
from tests.conftest import Server
from tests.games.test_schafkopf_classic import act, gras_rufspiel
from tests.web.apiclient import Table, sit_in_order
from tests.web.frames import TableSocket, frame_flash

# a card that asks why: what it asks about (hx-vals, escaped) and what it points at
WHY_RE = re.compile(r'<button type="button" class="card [^"]*blocked"[^>]*ws-send\s+hx-vals=\'\{'
                    r'&#34;why&#34;:&#34;([^&]+)&#34;\}\'\s+aria-describedby="([^"]+)"')
HINT_RE = re.compile(r'<span id="why-hint" hidden>([^<]+)</span>')


def socket(server: Server, room: str, token: str | None = None,
           lang: str = "en") -> TableSocket:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    ws = TableSocket(connect(f"{server.ws_base}/r/{room}/ws?lang={lang}",
                             additional_headers=headers, open_timeout=5, max_size=2**22,
                             legacy=True))
    ws.recv(timeout=5)  # the whole table
    return ws


def ask(ws: TableSocket, why: Any) -> None:
    ws.send(json.dumps({"why": why, "HEADERS": {}}))


def answer(ws: TableSocket, alone: bool = True) -> str:
    """The flash of the next push; ``alone``: the push is that flash and nothing of
    the table (an answer to a why; an error draws the table as any refusal does)."""
    raw = str(ws.ws.recv(timeout=5))
    if alone:
        assert raw.startswith('<div id="flash"'), raw[:300]
    assert 'id="hand"' not in raw, "nothing of the hand is drawn again"
    text = frame_flash(raw)
    assert text, raw
    return text


def drain(*sockets: TableSocket) -> None:
    """Read what the sockets were pushed so far (presence of the others opening)."""
    for ws in sockets:
        try:
            while True:
                ws.recv(timeout=0.5)
        except TimeoutError:
            pass


def silent(*sockets: TableSocket) -> None:
    for ws in sockets:
        with pytest.raises(TimeoutError):
            ws.ws.recv(timeout=0.3)


def refused_position(table: Table, seats: list[tuple[int, str]]) -> tuple[int, str, str]:
    """Play the first legal card until the seat on turn holds a card it may not play:
    (that seat, the card, the suit led)."""
    for _ in range(32):
        for seat, token in seats:
            data = table.view(token)
            legal = data["legal"]
            if not legal:
                continue
            refused = [c for c in data["view"]["hand"] if f"play:{c}" not in legal]
            if refused:
                return seat, refused[0], data["view"]["trick"][0]["card"][0]
            assert table.act(token, legal[0], data["version"]).status_code == 200
            break
    raise AssertionError("no card was refused")


def test_a_refused_card_says_why_to_its_socket_alone(sqlite_server: Server) -> None:
    table = Table(sqlite_server.base, "schafkopf", options={"dealer": 3}, seed=4)
    seats = sit_in_order(table, ("Anna", "Bert", "Cilli", "Done"))
    assert table.start().status_code == 200
    seat, card, led = refused_position(table, seats)
    before = table.view()
    other = (seat + 1) % 4
    mine = socket(sqlite_server, table.room, seats[seat][1])
    german = socket(sqlite_server, table.room, seats[seat][1], lang="de")
    theirs = socket(sqlite_server, table.room, seats[other][1])
    spectator = socket(sqlite_server, table.room)
    drain(mine, german, theirs, spectator)

    # the seat's hand draws the refused card as a button that asks why
    hand = mine.table["hand"]
    asks = dict(WHY_RE.findall(hand))
    assert asks.get(f"play:{card}") == "why-hint", hand
    assert HINT_RE.findall(hand) == ["cannot be played now: press it to hear why"]
    assert HINT_RE.findall(german.table["hand"]) == [
        "Jetzt nicht spielbar: drücken, um den Grund zu hören"]
    assert "why" not in spectator.table.get("hand", "")

    ask(mine, f"play:{card}")
    assert answer(mine) == f"You must follow suit: {SUIT_NAMES_DE[led]} was led"
    ask(german, f"play:{card}")
    assert answer(german) == f"Du musst bedienen: {SUIT_NAMES_DE[led]} ist ausgespielt."
    silent(theirs, spectator)

    # a seat not on turn is told so, in its language
    their_card = table.view(seats[other][1])["view"]["hand"][0]
    ask(theirs, f"play:{their_card}")
    assert answer(theirs) == "It is not your turn"
    # a card the seat may play answers nothing (its button plays it)
    legal = table.view(seats[seat][1])["legal"][0]
    ask(mine, legal)
    silent(mine, german, theirs, spectator)
    # nothing changed
    assert table.view() == before
    for ws in (mine, german, theirs, spectator):
        ws.close()


def test_a_spectator_and_malformed_why_frames_get_an_error_and_change_nothing(
        sqlite_server: Server) -> None:
    table = Table(sqlite_server.base, "schafkopf", options={"dealer": 3}, seed=4)
    seats = sit_in_order(table, ("Anna", "Bert", "Cilli", "Done"))
    assert table.start().status_code == 200
    before = table.view()
    mine = socket(sqlite_server, table.room, seats[0][1])  # forehand: on turn
    theirs = socket(sqlite_server, table.room, seats[2][1])
    spectator = socket(sqlite_server, table.room)
    drain(mine, theirs, spectator)
    ask(spectator, "play:EO")
    assert answer(spectator, alone=False) == "You are watching; take a seat to play."
    for bad in (5, "", None, ["play:EO"], "play:" + "E" * 80):
        ask(mine, bad)
        assert answer(mine, alone=False) == "That message was not understood."
    # another seat's card (or none at all): the same answer, nothing of other hands
    held = {c for _, tok in seats for c in table.view(tok)["view"]["hand"]}
    own = set(table.view(seats[0][1])["view"]["hand"])
    foreign = sorted(held - own)[0]
    ask(mine, f"play:{foreign}")
    said = answer(mine)
    ask(mine, "play:XX")
    assert answer(mine) == said.replace(foreign, "XX")
    silent(theirs, spectator)
    assert table.view() == before
    for ws in (mine, theirs, spectator):
        ws.close()


def test_the_called_sau_in_german_and_english() -> None:
    """The classic Schafkopf's reasons as the table shows them (the socket's answer
    is :func:`error_text` of the engine's refusal, capitalised)."""
    m = gras_rufspiel()
    act(m, "1:play:E7 2:play:EA")  # Eichel led: seat 3 may not discard the Gras Sau
    with pytest.raises(IllegalAction) as info:
        m.verify(3, "play:GA")
    with i18n.language("de"):
        assert error_text(info.value, "schafkopf_classic") == (
            "Die gerufene Sau darf nicht abgeworfen werden, bevor Gras ausgespielt wurde.")
    with i18n.language("en"):
        assert error_text(info.value, "schafkopf_classic") == (
            "the called Sau may not be discarded before Gras was led")
    m = gras_rufspiel()
    act(m, "1:play:G7 2:play:G8")
    with pytest.raises(IllegalAction) as info:
        m.verify(3, "play:GK")
    with i18n.language("de"):
        assert error_text(info.value, "schafkopf_classic") == (
            "Gras ist ausgespielt: Du musst die gerufene Sau zugeben.")


def test_a_luegenbeutel_stack_asks_about_its_lay(sqlite_server: Server) -> None:
    """Lügenbeutel's hand is drawn as stacks of its own: a stack that cannot be laid
    now asks about ``lay:<card>``, and the seat not on turn is told so in German."""
    table = Table(sqlite_server.base, "luegenbeutel", players=3, seed=2)
    seats = sit_in_order(table, ("Anna", "Bert", "Cilli"))
    assert table.start().status_code == 200
    waiting = next(tok for _, tok in seats if not table.view(tok)["legal"])
    ws = socket(sqlite_server, table.room, waiting, lang="de")
    drain(ws)
    asks = dict(WHY_RE.findall(ws.table["hand"]))
    held = set(table.view(waiting)["view"]["hand"])
    assert {a.removeprefix("lay:") for a in asks} == held and set(asks.values()) == {"why-hint"}
    ask(ws, sorted(asks)[0])
    assert answer(ws) == "Du bist nicht an der Reihe."
    ws.close()

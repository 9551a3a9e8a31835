"""A seat changes hands (the host swaps seats, releases one, somebody takes it over)
while pages are open: each socket follows its own seat token, so a swapped person's
page moves with them at once (their cards, their turn, their chat name, their
presence) and no seat ever waits on, or is played from, a socket that is not its
own. Real sockets against the real app."""

from __future__ import annotations

import json
import re

from tests.conftest import Server
from tests.web.apiclient import Table
from tests.web.frames import (
    TableSocket,
    frame_actions,
    frame_flash,
    frame_version,
    hidden_titles,
    open_socket,
    recv_until,
    send_action,
)
from tests.web.test_table_flow import host


def sit(table: Table, name: str, seat: int) -> str:
    """``name`` takes ``seat``; their seat token."""
    return table.join(name, seat=seat)[1]


def plate(frame: str, seat: int) -> str:
    """The plate of ``seat`` round the table ("" while it is a free seat to pick)."""
    found = re.search(rf'<div id="plate-{seat}".*?</div>', frame, re.S)
    return found[0] if found else ""


def hand_of(frame: str) -> str:
    return frame.split('id="hand"', 1)[1].split('id="host-end"', 1)[0]


def chat_lines(frame: str) -> list[str]:
    return re.findall(r'<li class="msg[^"]*".*?</li>', frame, re.S)


def test_a_swapped_persons_page_follows_them_to_their_new_seat(
        sqlite_server: Server) -> None:
    # dealer 1: seat 2 leads the first trick
    table = Table(sqlite_server.base, "schafkopf", options={"dealer": 1}, seed=4)
    sit(table, "Anna", 0)
    bert = sit(table, "Bert", 1)
    cilli = sit(table, "Cilli", 2)
    table.http.post(f"/api/rooms/{table.room}/bots", headers=host(table))
    with (open_socket(sqlite_server.ws_base, table.room, bert) as bert_ws,
          open_socket(sqlite_server.ws_base, table.room, cilli) as cilli_ws,
          open_socket(sqlite_server.ws_base, table.room) as watcher):
        for ws in (bert_ws, cilli_ws, watcher):
            ws.recv(timeout=5)
        # the host seats Bert opposite Anna, so that they are partners
        r = table.http.post(f"/api/rooms/{table.room}/swap", json={"a": 1, "b": 2},
                            headers=host(table))
        assert r.status_code == 200 and r.json()["seats"][:3] == ["Anna", "Cilli", "Bert"]
        for ws, seat in ((bert_ws, 2), (cilli_ws, 1)):
            frame = recv_until(ws, lambda f: frame_flash(f) is not None)
            assert frame_flash(frame) == "The host moved you to another seat.", frame_flash(frame)
            assert 'id="hand"' in frame and f'data-seat="{seat}"' in frame.split(
                'id="hand"', 1)[1][:200], "the page sees the table from the new seat"
            assert "chat-name" not in frame, "the chat writes as the seat, not as a guest"
        # both still count as at the table, each at their new seat
        frame = recv_until(watcher, lambda f: "Bert" in plate(f, 2))
        assert 'presence here' in plate(frame, 2) and 'presence here' in plate(frame, 1)

        assert table.start().status_code == 200
        hand = table.view(bert)["view"]["hand"]
        frame = recv_until(bert_ws, lambda f: bool(frame_actions(f)))
        assert all(t in hand_of(frame) for t in hidden_titles("schafkopf", hand)), \
            "Bert's cards come to Bert's page"
        cilli_frame = recv_until(cilli_ws, lambda f: frame_version(f) == frame_version(frame))
        assert not frame_actions(cilli_frame), "Cilli's page does not play Bert's seat"
        assert not any(t in cilli_frame for t in hidden_titles("schafkopf", hand))

        # his chat lines carry his name, and are his own on his page
        bert_ws.send(json.dumps({"chat": "Servus"}))
        line = recv_until(watcher, lambda f: "Servus" in f)
        said = [li for li in chat_lines(line) if "Servus" in li]
        assert said and '<span class="who">Bert</span>' in said[-1]
        assert "watching" not in said[-1] and "Guest" not in said[-1]
        mine = recv_until(bert_ws, lambda f: "Servus" in f)
        assert " mine" in next(li for li in chat_lines(mine) if "Servus" in li)

        # he plays from his page, for his new seat
        version = frame_version(frame)
        send_action(bert_ws, frame_actions(frame)[0], version)
        recv_until(bert_ws, lambda f: frame_version(f) > version)
        assert table.view()["view"]["trick"][0]["seat"] == 2

    # his page is closed: his seat no longer counts as at the table (a bot steps in
    # when the table waits for him), and nobody else's socket is taken for his
    with open_socket(sqlite_server.ws_base, table.room) as late:
        # Bert's seat and Cilli's (her page is closed too)
        frame = recv_until(late, lambda f: "presence here" not in plate(f, 2) + plate(f, 1))
        assert "Bert" in plate(frame, 2) and "Cilli" in plate(frame, 1)


def test_a_released_seats_socket_watches_and_writes_as_a_watcher(
        sqlite_server: Server) -> None:
    table = Table(sqlite_server.base, "schafkopf", seed=4,
                  options={"dealer": 3, "spectator_chat": True})  # watchers may write
    tokens = [sit(table, name, seat) for seat, name in enumerate(("Anna", "Bert", "Cilli"))]
    table.http.post(f"/api/rooms/{table.room}/bots", headers=host(table))
    assert table.start().status_code == 200
    with open_socket(sqlite_server.ws_base, table.room, tokens[1]) as bert_ws:
        first = bert_ws.recv(timeout=5)
        assert "chat-name" not in first
        r = table.http.post(f"/api/rooms/{table.room}/kick", json={"seat": 1},
                            headers=host(table))
        assert r.status_code == 200
        frame = recv_until(bert_ws, lambda f: frame_flash(f) is not None)
        assert "released your seat" in (frame_flash(frame) or "")
        assert 'id="chat-name"' in frame, "the chat is drawn again: a name to write under"
        taker = table.http.post(f"/api/rooms/{table.room}/join", json={"name": "Vroni"})
        assert taker.status_code == 200 and taker.json()["seat"] == 1
        # his old socket sends a move for the seat: refused, nothing changes
        state = table.view(taker.json()["token"])
        send_action(bert_ws, state["legal"][0] if state["legal"] else "play:EO",
                    state["version"])
        refused = recv_until(bert_ws, lambda f: frame_flash(f) is not None)
        assert "watching" in (frame_flash(refused) or "")
        assert table.view()["version"] == state["version"]
        bert_ws.send(json.dumps({"chat": "Schade", "name": "Bertl"}))
        line = recv_until(bert_ws, lambda f: "Schade" in f)
        said = next(li for li in chat_lines(line) if "Schade" in li)
        assert "Bertl" in said and "watching" in said


def test_the_sockets_of_a_swap_each_keep_their_own_presence(sqlite_server: Server) -> None:
    """Two pages of one person and one of another: after a swap each page counts at
    its person's new seat, and closing them one by one empties exactly those seats."""
    table = Table(sqlite_server.base, "schafkopf", options={"dealer": 3}, seed=4)
    anna, bert = sit(table, "Anna", 0), sit(table, "Bert", 1)
    sockets: list[TableSocket] = [open_socket(sqlite_server.ws_base, table.room, t)
                                  for t in (anna, anna, bert)]
    watcher = open_socket(sqlite_server.ws_base, table.room)
    try:
        for ws in (*sockets, watcher):
            ws.recv(timeout=5)
        assert table.http.post(f"/api/rooms/{table.room}/swap", json={"a": 0, "b": 3},
                               headers=host(table)).status_code == 200
        assert table.http.post(f"/api/rooms/{table.room}/swap", json={"a": 1, "b": 0},
                               headers=host(table)).status_code == 200
        frame = recv_until(watcher, lambda f: "Anna" in plate(f, 3) and "Bert" in plate(f, 0))
        assert "presence here" in plate(frame, 3) and "presence here" in plate(frame, 0)
        sockets.pop().close()  # Bert's page
        frame = recv_until(watcher, lambda f: "presence here" not in plate(f, 0))
        assert "presence here" in plate(frame, 3), "Anna's two pages still count"
        sockets.pop().close()
        sockets.pop().close()
        recv_until(watcher, lambda f: "presence here" not in plate(f, 3))
    finally:
        for ws in (*sockets, watcher):
            ws.close()

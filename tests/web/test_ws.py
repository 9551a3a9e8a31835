"""The table WebSocket through the real app: four clients play a deal, bad input
is refused to that client only, and no frame shows another seat's cards."""

from __future__ import annotations

import json
import random

import httpx
import pytest
from websockets.exceptions import InvalidStatus
from websockets.sync.client import ClientConnection

from tests.conftest import Server
from tests.web.apiclient import Table, sit_in_order
from tests.web.frames import (
    frame_actions,
    frame_flash,
    frame_version,
    hidden_titles,
    open_socket,
    recv_until,
    send_action,
)


def _seated(server: Server, seed: int = 4) -> tuple[Table, list[tuple[int, str]]]:
    table = Table(server.base, "schafkopf", options={"dealer": 3}, seed=seed)
    seats = sit_in_order(table, ("Anna", "Bert", "Cilli", "Done"))
    assert table.start().status_code == 200
    return table, seats


def _at(version: int):  # noqa: ANN202 - a predicate
    return lambda frame: frame_version(frame) >= version


def test_four_websocket_clients_play_a_whole_deal(sqlite_server: Server) -> None:
    table, seats = _seated(sqlite_server)
    sockets = [open_socket(sqlite_server.ws_base, table.room, tok) for _, tok in seats]
    spectator = open_socket(sqlite_server.ws_base, table.room)
    frames = [str(ws.recv(timeout=5)) for ws in sockets]
    rng = random.Random(9)
    for step in range(32):
        version = frame_version(frames[0])
        assert all(frame_version(f) == version for f in frames)
        acting = [i for i, f in enumerate(frames) if frame_actions(f)]
        assert len(acting) == 1
        seat = acting[0]
        # no frame holds another seat's unplayed cards
        for i, f in enumerate(frames):
            for j, (_, tok) in enumerate(seats):
                if j != i:
                    hand = table.view(tok)["view"]["hand"]
                    hand_html = f.split('id="hand"', 1)[1].split('id="result"', 1)[0]
                    assert not any(t in hand_html for t in hidden_titles("schafkopf", hand))
        send_action(sockets[seat], rng.choice(frame_actions(frames[seat])), version)
        frames = [recv_until(ws, _at(version + 1)) for ws in sockets]
        if step == 31:
            assert "Deal 1" in frames[0] and "deal-result" in frames[0]
    spec = recv_until(spectator, _at(frame_version(frames[0])))
    assert not frame_actions(spec)
    assert table.view()["view"]["deal_no"] == 2
    for ws in [*sockets, spectator]:
        ws.close()


def test_stale_version_and_double_submit_are_refused_and_change_nothing(
        sqlite_server: Server) -> None:
    table, seats = _seated(sqlite_server)
    forehand = 0  # dealer 3
    ws = open_socket(sqlite_server.ws_base, table.room, seats[forehand][1])
    other = open_socket(sqlite_server.ws_base, table.room, seats[1][1])
    frame = str(ws.recv(timeout=5))
    str(other.recv(timeout=5))
    version = frame_version(frame)
    action = frame_actions(frame)[0]
    send_action(ws, action, version)
    send_action(ws, action, version)  # the double click
    # frames are full tables and may coalesce: read until the refusal arrives
    refusal = recv_until(ws, lambda f: frame_flash(f) is not None)
    assert "changed" in (frame_flash(refusal) or "")
    assert frame_version(refusal) == version + 1
    # an old version from a stale tab is refused too
    send_action(other, frame_actions(recv_until(other, _at(version + 1)))[0], version - 1)
    stale = recv_until(other, lambda f: frame_flash(f) is not None)
    assert frame_version(stale) == version + 1
    # the refusals went to those clients only, and nothing changed
    assert table.view()["version"] == version + 1
    assert len(table.view()["view"]["trick"]) == 1
    ws.close()
    other.close()


@pytest.mark.parametrize("payload", [
    "not json", "[1, 2]", json.dumps({"version": 1}), json.dumps({"action": 5, "version": 1}),
    json.dumps({"action": "play:EO", "version": "x"}), json.dumps({"cmd": "start"}),
    "x" * 5000, json.dumps({"action": "play:EO<script>", "version": 2}),
    json.dumps({"cmd": []}), json.dumps({"action": "play:EO", "version": "²"}),
    json.dumps({"action": "exchange", "discard": {"a": 1}, "version": 2}),
])
def test_malformed_and_huge_frames_get_an_error_and_change_nothing(
        sqlite_server: Server, payload: str) -> None:
    table, seats = _seated(sqlite_server)
    before = table.view()
    ws = open_socket(sqlite_server.ws_base, table.room, seats[0][1])
    watcher = open_socket(sqlite_server.ws_base, table.room, seats[1][1])
    str(ws.recv(timeout=5))
    str(watcher.recv(timeout=5))
    ws.send(payload)
    reply = recv_until(ws, lambda f: frame_flash(f) is not None)
    assert frame_flash(reply)
    assert "<script>" not in reply
    assert table.view() == before
    with pytest.raises(TimeoutError):
        watcher.recv(timeout=0.3)  # the others hear nothing of it
    ws.close()
    watcher.close()


def test_spectators_and_forged_tokens_cannot_act(sqlite_server: Server) -> None:
    table, seats = _seated(sqlite_server)
    before = table.view()
    spectator = open_socket(sqlite_server.ws_base, table.room)
    frame = str(spectator.recv(timeout=5))
    assert not frame_actions(frame)
    send_action(spectator, "play:EO", frame_version(frame))
    reply = recv_until(spectator, lambda f: frame_flash(f) is not None)
    assert "watching" in (frame_flash(reply) or "")
    with pytest.raises(InvalidStatus):
        open_socket(sqlite_server.ws_base, table.room, "forged-token")
    # a seat token of another table is no good here either
    other_table = Table(sqlite_server.base)
    _, foreign = other_table.join("Zenzi")
    with pytest.raises(InvalidStatus):
        open_socket(sqlite_server.ws_base, table.room, foreign)
    assert table.view() == before
    spectator.close()


def test_websocket_from_another_origin_is_refused(sqlite_server: Server) -> None:
    table, seats = _seated(sqlite_server)
    with pytest.raises(InvalidStatus):
        open_socket(sqlite_server.ws_base, table.room, seats[0][1], origin="https://evil.example")
    ok: ClientConnection = open_socket(sqlite_server.ws_base, table.room, seats[0][1],
                                       origin=sqlite_server.base)
    assert frame_actions(str(ok.recv(timeout=5)))
    ok.close()


def test_reload_restores_the_seat_and_names_are_escaped(sqlite_server: Server) -> None:
    http = httpx.Client(base_url=sqlite_server.base, follow_redirects=False)
    r = http.post("/rooms", data={"game": "schafkopf", "schafkopf.target": "11"})
    assert r.status_code == 303
    room_path = r.headers["location"]
    browsers = [httpx.Client(base_url=sqlite_server.base, follow_redirects=True)
                for _ in range(4)]
    names = ["<b>Sepp</b>", "Vroni", "Xaver", "Resi"]
    # "any free seat": who joins one after the other become partners
    for seat, b, name in zip((0, 2, 1, 3), browsers, names, strict=True):
        b.get(room_path)
        r = b.post(room_path + "/join", data={"name": name})
        assert r.status_code == 200  # redirected back to the table, now seated
        # the viewer's seat is on the page's own hand (table.js marks the plate)
        assert f'class="hand-area" data-seat="{seat}"' in r.text
    page = browsers[1].get(room_path).text  # a reload
    assert 'class="hand-area" data-seat="2"' in page
    assert 'Vroni<span class="you"> (you)</span>' in page
    assert "<b>Sepp</b>" not in page and "&lt;b&gt;Sepp&lt;/b&gt;" in page
    # a seat cookie is HttpOnly and scoped to the room
    cookie = browsers[0].cookies.jar
    assert any(c.name == "stammtisch_seat" and c.path == room_path for c in cookie)
    # a fifth browser cannot take a seat
    late = httpx.Client(base_url=sqlite_server.base)
    r = late.post(room_path + "/join", data={"name": "Late"})
    assert r.status_code == 403 and "taken" in r.text
    # a form post from another site is refused
    r = late.post(room_path + "/join", data={"name": "Evil"},
                  headers={"Origin": "https://evil.example"})
    assert r.status_code == 403
    assert http.get("/r/doesnotexist").status_code == 404


def test_the_others_see_who_is_at_the_table_without_any_move_going_stale(
        sqlite_server: Server) -> None:
    table, seats = _seated(sqlite_server)
    watcher = open_socket(sqlite_server.ws_base, table.room, seats[1][1])
    first = str(watcher.recv(timeout=5))
    version = frame_version(first)

    def plate(frame: str, seat: int) -> str:
        return frame.split(f'data-seat="{seat}"', 1)[1].split("</div>", 1)[0]

    assert "not connected" in plate(first, 0)
    anna = open_socket(sqlite_server.ws_base, table.room, seats[0][1])
    here = recv_until(watcher, lambda f: "at the table" in plate(f, 0))
    assert frame_version(here) == version, "presence is not a move"
    anna.close()
    recv_until(watcher, lambda f: "not connected" in plate(f, 0))
    assert table.view()["version"] == version
    watcher.close()


def test_the_handshake_is_let_go_once_the_socket_is_accepted() -> None:
    """uvicorn's websockets protocol keeps the handshake's request and 101 response
    for the socket's life; the table socket drops those two (and nothing else of a
    server whose objects are of other kinds), and the request's headers in the scope
    with Starlette's parsed headers and cookies (read before: nothing reads them
    after)."""
    from starlette.websockets import WebSocket
    from websockets.datastructures import Headers
    from websockets.http11 import Request, Response

    from app.web.ws import drop_handshake

    class Protocol:
        def __init__(self, request: object, response: object) -> None:
            self.request, self.response, self.scope = request, response, {"type": "websocket"}

        async def send(self, message: object) -> None:
            pass

        async def receive(self) -> dict[str, str]:
            return {"type": "websocket.connect"}

    sansio = Protocol(Request("/r/x/ws", Headers({"Host": "h"})),
                      Response(101, "Switching Protocols", Headers()))
    scope = {"type": "websocket", "path": "/r/x/ws", "client": ("10.0.0.7", 5000),
             "headers": [(b"host", b"h"), (b"cookie", b"stammtisch_host=abc; lang=de"),
                         (b"user-agent", b"Mozilla/5.0 (Linux; Android 14)")]}
    websocket = WebSocket(scope, sansio.receive, sansio.send)
    assert websocket.cookies == {"stammtisch_host": "abc", "lang": "de"}  # read first
    assert websocket.headers["user-agent"].startswith("Mozilla")
    drop_handshake(websocket)
    assert sansio.request is None and sansio.response is None
    assert sansio.scope == {"type": "websocket"}
    assert scope["headers"] == [] and scope["path"] == "/r/x/ws"  # what the log needs stays
    assert scope["client"] == ("10.0.0.7", 5000)
    assert "_headers" not in websocket.__dict__ and "_cookies" not in websocket.__dict__
    assert websocket.cookies == {}

    other = Protocol("a request of another kind", {"status": 101})
    drop_handshake(WebSocket({"type": "websocket", "headers": []}, other.receive, other.send))
    assert other.request == "a request of another kind" and other.response == {"status": 101}

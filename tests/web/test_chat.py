"""The table chat through the real server: the JSON API and the table WebSocket.

Messages are escaped wherever they are shown, rate limited per writer, kept across a
restart, read by spectators, written by spectators only while the host lets them,
and never make the table's version move."""

from __future__ import annotations

import contextlib
import json
import re
from typing import Any

import httpx
from websockets.sync.client import ClientConnection, connect

from tests.conftest import Server
from tests.web.apiclient import Table
from tests.web.frames import frame_flash, frame_version, open_socket, recv_until

EVIL = '<script>alert("x")</script><img src=x onerror=alert(1)>'
ESCAPED_TEXT = "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;"
LINE_RE = re.compile(r'<li class="msg[^"]*" data-id="\d+">(.*?)</li>', re.S)


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _table(server: Server, names: tuple[str, ...] = ("Anna", "Bert", "Cilli", "Done"),
           start: bool = False, options: dict[str, Any] | None = None) -> Table:
    table = Table(server.base, "schafkopf", options={"dealer": 3, **(options or {})}, seed=4)
    for name in names:
        table.join(name)
    if start:
        assert table.start().status_code == 200
    return table


def _post(table: Table, token: str | None, **body: Any) -> httpx.Response:
    headers = _auth(token) if token else {}
    return table.http.post(f"/api/rooms/{table.room}/chat", json=body, headers=headers)


def _messages(table: Table, token: str | None = None) -> list[dict[str, Any]]:
    r = table.http.get(f"/api/rooms/{table.room}/chat", headers=_auth(token) if token else {})
    assert r.status_code == 200, r.text
    assert set(r.json()) == {"messages"}
    return list(r.json()["messages"])


def _send(ws: ClientConnection, **data: Any) -> None:
    ws.send(json.dumps({**data, "HEADERS": {}}))


def _quiet(ws: ClientConnection, wait: float = 0.4) -> None:
    """Read what the socket has to say until it has been silent for ``wait`` seconds
    (presence frames when the others connect)."""
    with contextlib.suppress(TimeoutError):
        while True:
            ws.recv(timeout=wait)


def _chat_frame(ws: ClientConnection, needle: str) -> str:
    return recv_until(ws, lambda f: "chat-log" in f and needle in f)


def test_api_chat_round_trip_with_exact_shape(sqlite_server: Server) -> None:
    table = _table(sqlite_server)
    r = _post(table, table.tokens[1], text="  Servus   beinand!  ")
    assert r.status_code == 201, r.text
    assert r.json()["text"] == "Servus beinand!"  # one line, spaces folded
    assert _post(table, table.tokens[2], react="🍺").status_code == 201
    messages = _messages(table)  # a spectator (no token) reads too
    assert [set(m) for m in messages] == [{"seat", "name", "text", "at"}] * 2
    assert [(m["seat"], m["name"], m["text"]) for m in messages] == [
        (2, "Bert", "Servus beinand!"), (1, "Cilli", "🍺")]  # Anna's partner, then Cilli
    assert messages[0]["at"] <= messages[1]["at"]
    assert _messages(table, table.tokens[0]) == messages
    # what people say at the table is theirs: it is never written to the server log
    assert "beinand" not in sqlite_server.log_path.read_text()


def test_bad_chat_input_is_refused_clearly_and_stores_nothing(sqlite_server: Server) -> None:
    table = _table(sqlite_server)
    other = _table(sqlite_server, names=("Xaver", "Yvonne", "Zenzi", "Wastl"))
    token = table.tokens[0]
    cases: list[tuple[dict[str, Any], dict[str, str], int]] = [
        ({"text": "x" * 201}, _auth(token), 400),
        ({"text": "   "}, _auth(token), 400),
        ({"text": "bell\x07"}, _auth(token), 400),
        ({"text": 5}, _auth(token), 422),
        ({"react": "💩"}, _auth(token), 400),
        ({"text": "a", "react": "👍"}, _auth(token), 400),
        ({}, _auth(token), 400),
        ({"text": "hi"}, {}, 401),  # the API writes as a seat
        ({"text": "hi"}, _auth(other.tokens[0]), 403),  # a token of another table
        ({"text": "hi"}, {"Authorization": "Basic abc"}, 401),
    ]
    for body, headers, status in cases:
        r = table.http.post(f"/api/rooms/{table.room}/chat", json=body, headers=headers)
        assert r.status_code == status, (body, r.text)
        assert r.json()["error"], body
    r = table.http.post(f"/api/rooms/{table.room}/chat", content=b"{not json",
                        headers={**_auth(token), "content-type": "application/json"})
    assert r.status_code == 422
    assert table.http.post("/api/rooms/nope/chat", json={"text": "hi"},
                           headers=_auth(token)).status_code == 404
    assert table.http.get(f"/api/rooms/{table.room}/chat",
                          headers=_auth(other.tokens[0])).status_code == 403
    assert _messages(table) == []
    assert _post(table, token, text="x" * 200).status_code == 201  # the limit itself is fine


def test_html_in_names_and_messages_stays_text_everywhere(sqlite_server: Server) -> None:
    table = _table(sqlite_server, names=("<b>Anna</b>", "Bert", "Cilli", "Done"))
    listener = open_socket(sqlite_server.ws_base, table.room, table.tokens[1])
    str(listener.recv(timeout=5))
    writer = open_socket(sqlite_server.ws_base, table.room, table.tokens[0])
    str(writer.recv(timeout=5))
    _send(writer, chat=EVIL)
    frame = _chat_frame(listener, "alert")
    assert ESCAPED_TEXT in frame and "&lt;b&gt;Anna&lt;/b&gt;" in frame
    assert "<script>" not in frame and "<img" not in frame and "<b>Anna" not in frame
    assert _messages(table)[0]["text"] == EVIL  # the API gives the text as it was typed
    page = table.http.get(f"/r/{table.room}").text
    log = page.split('id="chat-log"', 1)[1].split("</ol>", 1)[0]
    assert ESCAPED_TEXT in log and "<script>" not in log and "<img" not in log
    for ws in (listener, writer):
        ws.close()


def test_a_chat_line_is_appended_alone_and_the_version_stays(sqlite_server: Server) -> None:
    table = _table(sqlite_server, start=True)
    version = table.view()["version"]
    sockets = [open_socket(sqlite_server.ws_base, table.room, t) for t in table.tokens[:2]]
    spectator = open_socket(sqlite_server.ws_base, table.room)
    for ws in [*sockets, spectator]:
        first = str(ws.recv(timeout=5))
        assert frame_version(first) == version
        assert 'id="chat-log" hx-swap-oob="true"' in first  # a (re)connect gets the log
    for ws in [*sockets, spectator]:
        _quiet(ws)
    _send(sockets[0], chat="Na, wer spielt?")
    for ws in [*sockets, spectator]:
        frame = _chat_frame(ws, "Na, wer spielt?")
        assert frame.startswith('<ol id="chat-log" hx-swap-oob="beforeend">')
        assert 'id="version"' not in frame and 'id="hand"' not in frame
        assert len(LINE_RE.findall(frame)) == 1
    _send(sockets[1], react="😂")
    assert 'class="msg reaction"' in _chat_frame(spectator, "😂")
    assert 'class="msg reaction mine"' in _chat_frame(sockets[1], "😂")
    assert table.view()["version"] == version
    for ws in [*sockets, spectator]:
        ws.close()


def test_rate_limit_gives_429_over_the_api_and_a_flash_on_the_socket(
        sqlite_server: Server) -> None:
    table = _table(sqlite_server)
    for i in range(5):
        assert _post(table, table.tokens[0], text=f"m{i}").status_code == 201
    r = _post(table, table.tokens[0], text="one too many")
    assert r.status_code == 429
    assert "Not so fast" in r.json()["error"]
    assert _post(table, table.tokens[1], text="Bert has his own limit").status_code == 201
    ws = open_socket(sqlite_server.ws_base, table.room, table.tokens[2])
    str(ws.recv(timeout=5))
    for i in range(6):
        _send(ws, chat=f"c{i}")
    flash = recv_until(ws, lambda f: bool(frame_flash(f)))
    assert "Not so fast" in str(frame_flash(flash))
    texts = [m["text"] for m in _messages(table)]
    assert "one too many" not in texts and "c5" not in texts
    assert [t for t in texts if t.startswith("c")] == ["c0", "c1", "c2", "c3", "c4"]
    ws.close()


def test_spectators_read_and_write_only_while_the_host_lets_them(
        sqlite_server: Server) -> None:
    table = _table(sqlite_server, start=True, options={"spectator_chat": True})
    spectator = open_socket(sqlite_server.ws_base, table.room)
    first = str(spectator.recv(timeout=5))
    assert 'name="chat"' in first and 'name="name"' in first  # spectators may write
    _send(spectator, chat="Schaut gut aus", name="Opa")
    frame = _chat_frame(spectator, "Schaut gut aus")
    assert '<span class="who">Opa</span> <span class="tag">watching</span>' in frame
    assert _messages(table)[-1] == {**_messages(table)[-1], "seat": None, "name": "Opa"}
    _send(spectator, chat="I am Anna", name="anna")  # no passing for a seated player
    assert "is called that" in str(frame_flash(recv_until(spectator, lambda f: bool(
        frame_flash(f)))))

    # the host closes the chat for spectators (API); they still read
    r = table.http.post(f"/api/rooms/{table.room}/spectator-chat", json={"on": False},
                        headers=_auth(table.tokens[0]))
    assert r.status_code == 403  # a seat token is not the host's
    r = table.http.post(f"/api/rooms/{table.room}/spectator-chat", json={"on": False},
                        headers=_auth(table.host_token))
    assert r.status_code == 200 and r.json() == {"spectator_chat": False}
    controls = recv_until(spectator, lambda f: 'id="chat-controls"' in f and "closed" in f)
    assert 'name="chat"' not in controls
    _send(spectator, chat="psst", name="Opa")
    flash = recv_until(spectator, lambda f: bool(frame_flash(f)))
    assert "closed the chat for spectators" in str(frame_flash(flash))
    assert _post(table, table.tokens[1], text="Ruhe da hinten").status_code == 201
    assert "Ruhe da hinten" in _chat_frame(spectator, "Ruhe da hinten")
    assert [m["text"] for m in _messages(table)] == ["Schaut gut aus", "Ruhe da hinten"]
    # the switch is kept with the room
    r = table.http.get(f"/r/{table.room}")
    assert "you can read along" in r.text
    spectator.close()


def test_the_host_switches_spectator_chat_on_the_socket(sqlite_server: Server) -> None:
    table = _table(sqlite_server, options={"spectator_chat": False})
    host = httpx.Client(base_url=sqlite_server.base)
    form = host.post("/rooms", data={"game": "schafkopf"}, follow_redirects=False)
    assert form.status_code == 303
    room = form.headers["location"].rsplit("/", 1)[1]
    cookie = f"stammtisch_host={host.cookies.get('stammtisch_host')}"
    host_ws = connect(f"{sqlite_server.ws_base}/r/{room}/ws",
                      additional_headers={"Cookie": cookie}, open_timeout=5, legacy=True)
    first = str(host_ws.recv(timeout=5))
    assert "Let spectators write" in first  # closed unless the host opens it
    _send(host_ws, cmd="spectator_chat", on=True)
    recv_until(host_ws, lambda f: "Close the chat for spectators" in f)
    _send(host_ws, cmd="spectator_chat", on=False)
    assert "Let spectators write" in recv_until(host_ws, lambda f: "Let spectators" in f)
    spectator = open_socket(sqlite_server.ws_base, room)
    assert "you can read along" in str(spectator.recv(timeout=5))
    _send(spectator, cmd="spectator_chat", on=True)  # not the host
    assert "Only the host" in str(frame_flash(recv_until(spectator, lambda f: bool(
        frame_flash(f)))))
    _send(host_ws, cmd="spectator_chat", on="yes")  # not a boolean
    assert "on (true) or off" in str(frame_flash(recv_until(host_ws, lambda f: bool(
        frame_flash(f)))))
    # the room opened with spectator_chat off starts closed
    page = table.http.get(f"/r/{table.room}").text
    assert "you can read along" in page and 'name="chat"' not in page
    for w in (host_ws, spectator):
        w.close()
    host.close()


def test_chat_survives_a_restart(server: Server) -> None:
    table = _table(server, start=True)
    assert _post(table, table.tokens[0], text="Vor dem Neustart").status_code == 201
    assert _post(table, table.tokens[3], react="👍").status_code == 201
    before = _messages(table)
    server.stop()
    server.start()
    assert _messages(table) == before
    page = table.http.get(f"/r/{table.room}").text
    assert "Vor dem Neustart" in page and "👍" in page
    assert _post(table, table.tokens[1], text="Danach").status_code == 201
    assert [m["text"] for m in _messages(table)] == ["Vor dem Neustart", "👍", "Danach"]

"""Strict input (issue 25 item 8): every JSON body of the API and every WebSocket
command takes its fields in their own types only (``{"seat": true}`` released seat 1,
``{"on": 0}`` switched the spectators' chat off); the host's commands refuse others in
whole, translated sentences; a name that looks like one taken at the table (Cyrillic
look-alikes) and bidirectional controls in names and chat lines are refused. Each
refusal is a clear error to that client, and nothing changes."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
from websockets.sync.client import ClientConnection, connect

from tests.conftest import Server
from tests.web.apiclient import Table
from tests.web.frames import frame_flash, open_socket, recv_until


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _waiting(server: Server) -> tuple[Table, int]:
    """A Schafkopf table (not started): Anna in seat 0 and a bot; the bot's seat."""
    table = Table(server.base, "schafkopf", seed=4)
    table.join("Anna", seat=0)
    r = table.http.post(f"/api/rooms/{table.room}/bots", headers=_auth(table.host_token))
    assert r.status_code == 200, r.text
    return table, int(r.json()["seat"])


def _playing(server: Server) -> Table:
    """A started Mauscheln table of three people (Anna, Bert, Cilli)."""
    table = Table(server.base, "mauscheln", players=3, seed=5)
    for seat, name in enumerate(("Anna", "Bert", "Cilli")):
        table.join(name, seat=seat)
    assert table.start().status_code == 200
    return table


def _refused(r: httpx.Response, status: int = 422) -> str:
    assert r.status_code == status, (r.status_code, r.text)
    error: str = r.json()["error"]
    assert error
    return error


def test_api_bodies_take_their_own_types_only(sqlite_server: Server) -> None:
    base = sqlite_server.base
    http = httpx.Client(base_url=base, timeout=10)
    for body in ({"game": "schafkopf", "players": True}, {"game": "schafkopf", "players": "4"},
                 {"game": "schafkopf", "players": 4.0}, {"game": 1}):
        _refused(http.post("/api/rooms", json=body))
    waiting, _bot = _waiting(sqlite_server)
    room, host = waiting.room, _auth(waiting.host_token)
    before = waiting.view()
    for body in ({"name": "Bert", "seat": True}, {"name": "Bert", "seat": "2"},
                 {"name": "Bert", "seat": 2.0}, {"name": 5}, {"name": "Bert", "player": 7}):
        _refused(http.post(f"/api/rooms/{room}/join", json=body))
    for body in ({"a": True, "b": 1}, {"a": 0, "b": "1"}, {"a": 0.0, "b": 1}):
        _refused(http.post(f"/api/rooms/{room}/swap", json=body, headers=host))
    _refused(http.post(f"/api/rooms/{room}/bots", json={"level": 1}, headers=host))
    assert waiting.view()["seats"] == before["seats"], "nobody joined, moved or was added"

    table = _playing(sqlite_server)
    room, host = table.room, _auth(table.host_token)
    state = table.view(table.tokens[0])
    mover = next(t for t in table.tokens if table.view(t)["legal"])
    legal = table.view(mover)
    for version in (True, str(legal["version"]), float(legal["version"])):
        _refused(table.act(mover, legal["legal"][0], version))
    _refused(table.act(mover, 5, legal["version"]))
    for seat in (True, 1.0, "1"):  # True was seat 1
        _refused(http.post(f"/api/rooms/{room}/kick", json={"seat": seat}, headers=host))
    for on in (0, 1, "false", "true", None):  # 0 was "off"
        _refused(http.post(f"/api/rooms/{room}/spectator-chat", json={"on": on},
                           headers=host))
    for body in ({"text": 5}, {"react": True}, {"text": ["hi"]}):
        _refused(http.post(f"/api/rooms/{room}/chat", json=body, headers=_auth(mover)))
    after = table.view(table.tokens[0])
    assert after["version"] == state["version"] and after["stand_ins"] == {}
    assert http.get(f"/api/rooms/{room}/chat").json() == {"messages": []}
    page = http.get(f"/r/{room}").text
    assert "you can read along" in page, "the spectators' chat stayed as it was (closed)"
    # the same requests with the right types work
    r = http.post(f"/api/rooms/{room}/spectator-chat", json={"on": True}, headers=host)
    assert r.status_code == 200 and r.json() == {"spectator_chat": True}
    r = http.post(f"/api/rooms/{room}/kick", json={"seat": 1}, headers=host)
    assert r.status_code == 200 and r.json()["stand_ins"] == {"1": "released"}
    http.close()


def _host_socket(server: Server, table: Table) -> ClientConnection:
    ws = connect(f"{server.ws_base}/r/{table.room}/ws", open_timeout=5, legacy=True,
                 additional_headers={"Cookie": f"stammtisch_host={table.host_token}",
                                     "Authorization": f"Bearer {table.tokens[0]}"})
    recv_until(ws, lambda f: 'id="version"' in f)
    return ws


def _flash(ws: Any, **data: Any) -> str:
    ws.send(json.dumps({**data, "HEADERS": {}}))
    return str(frame_flash(recv_until(ws, lambda f: frame_flash(f) is not None)))


def test_socket_commands_take_their_own_types_only(sqlite_server: Server) -> None:
    waiting, _bot = _waiting(sqlite_server)
    ws = _host_socket(sqlite_server, waiting)
    before = waiting.view()
    assert "seat is a number" in _flash(ws, cmd="swap", a=True, b=1)
    assert "seat is a number" in _flash(ws, cmd="swap", a=0, b=1.0)
    assert "seat is a number" in _flash(ws, cmd="remove_bot", seat=True)
    assert "easy" in _flash(ws, cmd="add_bot", level=1)
    assert waiting.view()["seats"] == before["seats"]
    ws.close()

    table = _playing(sqlite_server)
    ws = _host_socket(sqlite_server, table)
    state = table.view(table.tokens[0])
    assert "seat is a number" in _flash(ws, cmd="kick", seat=True)
    assert "on (true) or off" in _flash(ws, cmd="spectator_chat", on=1)
    assert "version" in _flash(ws, action="pass", version=True)
    assert "not understood" in _flash(ws, cmd=5)
    assert table.view(table.tokens[0])["version"] == state["version"]
    assert table.view()["stand_ins"] == {}
    # the host ends the match; the rematch form's fields are strict too
    auth = _auth(table.host_token)
    assert table.http.post(f"/api/rooms/{table.room}/end", headers=auth).status_code == 200
    recv_until(ws, lambda f: "Play again" in f)
    for field, value in (("opt.knock", 5), ("opt.knock", 0), ("opt.knock", "maybe"),
                         ("opt.chips", True), ("opt.chips", 1.5), ("opt.chips", "٣٠"),
                         ("opt.chips", [30])):
        flash = _flash(ws, cmd="rematch", **{field: value})
        assert "on or off" in flash or "whole number" in flash, (field, value, flash)
    assert table.view()["status"] == "finished", "no rematch was opened"
    assert "data-goto" not in table.http.get(f"/r/{table.room}").text
    # a checkbox's own value and digits of a form are what a form sends: accepted
    ws.send(json.dumps({"cmd": "rematch", "opt.knock": "1", "opt.chips": "30", "HEADERS": {}}))
    recv_until(ws, lambda f: "data-goto" in f)
    ws.close()


@pytest.mark.parametrize(("language", "sentences"), [
    ("en", ("Only the host can remove bots.", "Only the host can swap seats.",
            "Only the host can release a seat.")),
    ("de", ("Nur der Gastgeber kann Bots entfernen.", "Nur der Gastgeber kann Plätze tauschen.",
            "Nur der Gastgeber kann einen Platz freigeben.")),
])
def test_the_hosts_commands_refuse_others_in_whole_sentences(
        sqlite_server: Server, language: str, sentences: tuple[str, ...]) -> None:
    waiting, bot = _waiting(sqlite_server)
    anna = {**_auth(waiting.tokens[0]), "Accept-Language": language}
    http = waiting.http
    remove, swap = sentences[0], sentences[1]
    assert _refused(http.delete(f"/api/rooms/{waiting.room}/bots/{bot}", headers=anna),
                    403) == remove
    assert _refused(http.post(f"/api/rooms/{waiting.room}/swap", json={"a": 0, "b": 1},
                              headers=anna), 403) == swap
    table = _playing(sqlite_server)
    bert = {**_auth(table.tokens[1]), "Accept-Language": language}
    assert _refused(table.http.post(f"/api/rooms/{table.room}/kick", json={"seat": 0},
                                    headers=bert), 403) == sentences[2]
    assert _refused(table.http.post(f"/api/rooms/{table.room}/kick", json={"seat": 0},
                                    headers={"Accept-Language": language}), 401) == sentences[2]


def test_look_alike_names_and_direction_controls_are_refused(sqlite_server: Server) -> None:
    table = Table(sqlite_server.base, "mauscheln", players=5, seed=6,
                  options={"spectator_chat": True})
    table.join("Anna")
    table.join("Otto")
    join = f"/api/rooms/{table.room}/join"
    for name in ("\u0410nna", "\u0430nna", "ANNA", "0tto", "\u041etto"):
        # Cyrillic А and а, capitals, a zero for an O, a Cyrillic О
        assert "already has that name" in _refused(
            table.http.post(join, json={"name": name}), 400), name
    for name in ("Anna\u202e", "\u2066Bert\u2069", "Bert\u200f", "\u061cBert", "Be\u202art"):
        error = _refused(table.http.post(join, json={"name": name}), 400)
        assert "writing direction" in error, name
    de = table.http.post(join, json={"name": "\u202eBert"}, headers={"Accept-Language": "de"})
    assert "Schreibrichtung" in _refused(de, 400)
    assert table.view()["seats"][:2] == ["Anna", "Otto"] and table.view()["seats"][2] is None
    # names that only resemble each other in part are other people
    table.join("Anne")
    table.join("Berta")
    # the chat: no direction controls in a line; a spectator may not pass for Anna
    token = table.tokens[0]
    chat = f"/api/rooms/{table.room}/chat"
    for text in ("gg \u202egg", "\u2067abc\u2069", "a\u200eb", "x\u061cy"):
        assert "writing direction" in _refused(
            table.http.post(chat, json={"text": text}, headers=_auth(token)), 400), text
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467"  # one emoji joined by ZWJ
    r = table.http.post(chat, json={"text": f"Servus {family}"}, headers=_auth(token))
    assert r.status_code == 201 and r.json()["text"] == f"Servus {family}"
    watcher = open_socket(sqlite_server.ws_base, table.room)
    assert "is called that" in _flash(watcher, chat="Hallo", name="\u0410nna")
    assert "writing direction" in _flash(watcher, chat="Hallo", name="Opa\u202e")
    assert "writing direction" in _flash(watcher, chat="Hallo \u202e", name="Opa")
    watcher.close()
    lines = table.http.get(chat).json()["messages"]
    assert [m["text"] for m in lines] == [f"Servus {family}"]

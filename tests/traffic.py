"""A round of everything a live server is sent, good and bad: pages, forms, the JSON
API, table sockets that play, chat and close (politely and not), and the bad input an
attacker sends. ``tests/test_cycles.py`` runs it against a server in its own
process and then looks for objects left in reference cycles; it runs in a process of
its own, so the client's objects are not counted.

Usage: python -m tests.traffic BASE_URL ROUNDS
"""

from __future__ import annotations

import contextlib
import json
import socket
import sys
from contextlib import ExitStack
from urllib.parse import urlsplit

import httpx
from websockets.sync.client import ClientConnection, connect

JSON = {"Content-Type": "application/json"}
PAGE = {"Accept": "text/html"}


def _socket(stack: ExitStack, base: str, room: str, token: str | None = None,
            deflate: bool = True) -> ClientConnection:
    """A table socket (a spectator's without ``token``) that has read its table."""
    ws = stack.enter_context(connect(
        base.replace("http", "ws", 1) + f"/r/{room}/ws", proxy=None,
        additional_headers={"Authorization": f"Bearer {token}"} if token else {},
        compression="deflate" if deflate else None, open_timeout=20))
    ws.recv(timeout=20)  # the table as it is
    return ws


def _raw(base: str, data: bytes) -> bytes:
    """Send ``data`` on a fresh connection, read until the server closes it."""
    where = urlsplit(base)
    sock = socket.create_connection((where.hostname, where.port), timeout=20)
    sock.sendall(data)
    answer = b""
    with contextlib.suppress(ConnectionResetError):  # refused while still sending
        while part := sock.recv(65536):
            answer += part
    sock.close()
    return answer


def finished(http: httpx.Client) -> str:
    """A Mauscheln match of three people that the host ended: in the history."""
    made = http.post("/api/rooms", json={"game": "mauscheln", "players": 3}).json()
    host = {"Authorization": f"Bearer {made['host_token']}"}
    for name in ("Vroni", "Sepp", "Resi"):
        http.post(f"/api/rooms/{made['room']}/join", json={"name": name})
    assert http.post(f"/api/rooms/{made['room']}/start", headers=host).status_code == 200
    assert http.post(f"/api/rooms/{made['room']}/end", headers=host).status_code == 200
    return str(made["room"])


def shared_reviews(http: httpx.Client) -> None:
    """Reviews shared at a match the host ended (issue 28): shared over the API and the
    page's form, read by another seat (its page, the API), refused to a spectator and
    for a review not shared, withdrawn."""
    made = http.post("/api/rooms", json={"game": "mauscheln", "players": 3}).json()
    room, host = made["room"], {"Authorization": f"Bearer {made['host_token']}"}
    tokens = [http.post(f"/api/rooms/{room}/join", json={"name": name}).json()["token"]
              for name in ("Vroni", "Sepp", "Resi")]
    assert http.post(f"/api/rooms/{room}/start", headers=host).status_code == 200
    assert http.post(f"/api/rooms/{room}/end", headers=host).status_code == 200
    share = f"/api/rooms/{room}/review/share"
    assert http.post(share, json={"shared": True},
                     headers={"Authorization": f"Bearer {tokens[0]}"}).status_code == 200
    for token, seat in ((tokens[1], 0), (tokens[1], 2), ("forged", 0)):
        assert http.get(f"/api/rooms/{room}/review", params={"deal": 1, "seat": seat},
                        headers={"Authorization": f"Bearer {token}"}).status_code < 500
    base = str(http.base_url).rstrip("/")
    for token, seat in ((tokens[2], "0"), (tokens[2], "1"), (tokens[2], "")):
        cookie = {"Cookie": f"stammtisch_seat={token}", "Origin": base, **PAGE}
        assert http.get(f"/r/{room}/reviews", params={"seat": seat} if seat else {},
                        headers=cookie).status_code < 500
        assert http.post(f"/r/{room}/reviews/share", data={"shared": "0"},
                         headers=cookie).status_code < 500


def pages(http: httpx.Client, room: str, match: str) -> None:
    for path in ("/", "/rules/schafkopf", "/history", "/history?game=mauscheln",
                 "/standings", "/standings?game=mauscheln", "/healthz", "/readyz",
                 "/api/games", "/docs", "/openapi.json", f"/r/{room}", f"/r/{room}/qr.svg",
                 f"/api/rooms/{room}/chat", f"/history/{match}", f"/history/{match}/replay",
                 f"/r/{match}/ledger", "/lang/de?next=/"):
        assert http.get(path, headers=PAGE).status_code < 500, path


def play(base: str, http: httpx.Client) -> str:
    """A Schafkopf table of four people: moves over the API and over the sockets,
    chat, bad frames; every socket closed, one of them abruptly. Returns the room."""
    made = http.post("/api/rooms", json={"game": "schafkopf", "options": {
        "trick_pause_ms": 0, "next_deal_s": 0, "spectator_chat": True,
        "hints": True}}).json()
    room, host = made["room"], made["host_token"]
    tokens = [http.post(f"/api/rooms/{room}/join", json={"name": n}).json()["token"]
              for n in ("Anna", "Bert", "Cilli", "Done")]
    assert http.post(f"/api/rooms/{room}/start",
                     headers={"Authorization": f"Bearer {host}"}).status_code == 200
    with ExitStack() as stack:
        sockets = [_socket(stack, base, room, t, deflate=i % 2 == 0)
                   for i, t in enumerate(tokens)]
        watcher = _socket(stack, base, room)
        _sockets(http, room, tokens, sockets, watcher)
    return room


def _sockets(http: httpx.Client, room: str, tokens: list[str],
             sockets: list[ClientConnection], watcher: ClientConnection) -> None:
    for step in range(8):
        for token, ws in zip(tokens, sockets, strict=True):
            state = http.get(f"/api/rooms/{room}/view",
                             headers={"Authorization": f"Bearer {token}"}).json()
            if state["legal"]:
                move = {"action": state["legal"][0], "version": state["version"]}
                if step % 2:
                    ws.send(json.dumps(move))
                else:
                    http.post(f"/api/rooms/{room}/actions", json=move,
                              headers={"Authorization": f"Bearer {token}"})
                break
    # a practice table's hints: one thought out, one refused for another version, one
    # that is not a version, a spectator's
    for token, ws in zip(tokens, sockets, strict=True):
        state = http.get(f"/api/rooms/{room}/view",
                         headers={"Authorization": f"Bearer {token}"}).json()
        if state["legal"]:
            for version in (state["version"], state["version"] - 1, "soon"):
                ws.send(json.dumps({"hint": version}))
            break
    watcher.send(json.dumps({"hint": 0}))
    sockets[0].send(json.dumps({"chat": "Servus"}))
    watcher.send(json.dumps({"chat": "Hallo", "name": "Zaungast"}))
    http.post(f"/api/rooms/{room}/chat", json={"react": "🍺"},
              headers={"Authorization": f"Bearer {tokens[1]}"})
    for bad in ("not json", "[" * 50, '{"action": "play:XX", "version": 0}', "x" * 5000,
                '{"cmd": 7}', '"text"'):
        sockets[2].send(bad)
    sockets[2].send(b"\x00\x01")  # a binary frame
    for ws in sockets[:3]:
        ws.recv(timeout=20)
    sockets[3].socket.close()  # gone without a word
    # a text frame that is not UTF-8 (the server closes the socket; frames from a
    # client are masked, here with a mask of zeros). Frames the protocol itself
    # refuses leave a cycle in websockets (app.cycles): test_cycles.py counts those
    watcher.socket.sendall(b"\x81\x82\x00\x00\x00\x00\xff\xfe")
    for ws in (*sockets[:3], watcher):
        with contextlib.suppress(Exception):  # some were closed by the server
            ws.close()


def bad_requests(base: str, http: httpx.Client, room: str) -> None:
    join = f"/api/rooms/{room}/join"
    for body, kind in ((b'{"name": ', "application/json"),
                       (b'{"name": "\xff\xfe"}', "application/json"),
                       (b"[" * 3000, "application/json"),
                       (b'{"name": NaN}', "application/json"),
                       (b'{"nam": 1}', "application/json"),
                       (b'{"name": "x"}', "text/plain"),
                       (b"x" * 70_000, "application/json"),
                       (b"garbage", "multipart/form-data")):
        assert http.post(join, content=body, headers={"Content-Type": kind}).status_code < 500
    assert http.post(f"/api/rooms/{room}/start").status_code == 401
    assert http.post(f"/api/rooms/{room}/start",
                     headers={"Authorization": "Bearer forged"}).status_code == 403
    assert http.get("/api/rooms/nothing-here/view").status_code == 404
    assert http.get("/nothing-here", headers=PAGE).status_code == 404
    assert http.delete("/api/games").status_code == 405
    assert http.post("/rooms", data={"game": "nope"}, headers={"Origin": base}).status_code < 500
    assert http.post("/rooms", data={"game": "schafkopf", "practice": "1"},
                     headers={"Origin": base}).status_code < 500  # a practice table
    assert http.post("/rooms", data={"game": "schafkopf"},
                     headers={"Origin": "https://elsewhere.example"}).status_code < 500
    assert http.post(f"/r/{room}/join", data={"name": "<b>Eve</b>"},
                     headers={"Origin": base}).status_code < 500
    # a chunked body past the limit, and a request that is not HTTP
    _raw(base, b"POST /api/rooms HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n"
               b"Content-Type: application/json\r\n\r\n" + b"10000\r\n" + b"x" * 0x10000
               + b"\r\n10000\r\n" + b"x" * 0x10000 + b"\r\n0\r\n\r\n")
    # requests that are not HTTP: uvicorn refuses them with 400 before the app
    _raw(base, b"NOT HTTP AT ALL\r\n\r\n")
    _raw(base, b"GET / HTTP/1.1\r\nHost: x\r\nA header without a colon\r\n\r\n")
    _raw(base, b"POST /api/rooms HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n")


def one_round(base: str) -> None:
    with httpx.Client(base_url=base, timeout=30) as http:
        room = play(base, http)
        pages(http, room, finished(http))
        shared_reviews(http)
        bad_requests(base, http, room)


if __name__ == "__main__":
    for _ in range(int(sys.argv[2])):
        one_round(sys.argv[1])

"""Limits for a server on the open internet, against a live server: request bodies
counted as they arrive (any transfer encoding, every route), per-client rates of
rooms and joins, open sockets per client and per room, the cap on open rooms; each
refusal is a clear 413/429 to that client only."""

from __future__ import annotations

import json
import select
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from starlette.requests import HTTPConnection
from websockets.sync.client import ClientConnection

from app.web.limits import client_key
from tests.conftest import Server, migrate
from tests.web.frames import frame_flash, open_socket

LIMITS = {
    "RATE_ROOMS": "4/minute", "RATE_JOINS": "6/minute", "MAX_SOCKETS_PER_CLIENT": "3",
    "MAX_SOCKETS_PER_ROOM": "2", "MAX_OPEN_ROOMS": "1000",
}


def _server(tmp_path: Path, env: dict[str, str]) -> Server:
    url = f"sqlite:///{tmp_path / 'limits.db'}"
    migrate(url)
    srv = Server(url, tmp_path / "server.log", env=env)
    return srv.start()


@pytest.fixture
def limited(tmp_path: Path) -> Iterator[Server]:
    srv = _server(tmp_path, LIMITS)
    yield srv
    srv.stop()


@pytest.fixture
def roomy(tmp_path: Path) -> Iterator[Server]:
    """Generous rates (the suite's), default body limit."""
    srv = _server(tmp_path, {})
    yield srv
    srv.stop()


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError("no VmRSS")


def chunked_upload(port: int, path: str, total: int, content_type: str,
                   prefix: bytes = b"") -> tuple[int, bytes, int]:
    """Send ``total`` bytes as a chunked body, 64 KiB a chunk, and stop as soon as
    the server answers. Returns (status, body, bytes sent)."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    head = (f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
            f"Content-Type: {content_type}\r\nTransfer-Encoding: chunked\r\n"
            "Accept: application/json\r\n\r\n").encode()
    sock.sendall(head)
    sent = 0
    chunk = b"x" * 65536
    response = b""
    try:
        if prefix:
            sock.sendall(b"%x\r\n%s\r\n" % (len(prefix), prefix))
            sent += len(prefix)
        while sent < total:
            readable, _, _ = select.select([sock], [], [], 0)
            if readable:
                break
            sock.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk))
            sent += len(chunk)
        else:
            sock.sendall(b"0\r\n\r\n")
    except (BrokenPipeError, ConnectionResetError):
        pass
    deadline = time.monotonic() + 10
    while b"\r\n\r\n" not in response or len(response) < _expected_len(response):
        assert time.monotonic() < deadline, response
        try:
            part = sock.recv(65536)
        except ConnectionResetError:
            break
        if not part:
            break
        response += part
    sock.close()
    status = int(response.split(b" ", 2)[1])
    return status, response.split(b"\r\n\r\n", 1)[1], sent


def _expected_len(response: bytes) -> int:
    head, _, _ = response.partition(b"\r\n\r\n")
    for line in head.split(b"\r\n"):
        if line.lower().startswith(b"content-length:"):
            return len(head) + 4 + int(line.split(b":")[1])
    return 0


def test_a_chunked_20_mb_body_is_refused_early_and_memory_stays_flat(roomy: Server) -> None:
    assert roomy.proc is not None
    pid = roomy.proc.pid
    before = rss_kib(pid)
    status, body, sent = chunked_upload(roomy.port, "/api/rooms", 20 * 2**20,
                                        "application/json", prefix=b'{"game": "')
    assert status == 413
    assert "too large" in json.loads(body)["error"]
    assert sent < 20 * 2**20, "the server answered before the whole body was sent"
    # a multipart form to the lobby's form route, and a join form: refused the same way
    boundary = "----fuzz"
    part = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"game\"; "
            "filename=\"big.bin\"\r\nContent-Type: application/octet-stream\r\n\r\n").encode()
    status, body, _ = chunked_upload(roomy.port, "/rooms", 20 * 2**20,
                                     f"multipart/form-data; boundary={boundary}", prefix=part)
    assert status == 413
    status, _, _ = chunked_upload(roomy.port, "/r/nope/join", 20 * 2**20,
                                  "application/x-www-form-urlencoded", prefix=b"name=")
    assert status == 413
    grown = rss_kib(pid) - before
    assert grown < 8 * 1024, f"RSS grew by {grown} KiB for refused bodies"
    # an honest body still works, also sent chunked
    ok = httpx.post(roomy.base + "/api/rooms", content=iter([b'{"game": "schafkopf"}']),
                    headers={"Content-Type": "application/json"})
    assert ok.status_code == 201
    # and a Content-Length that says too much is refused before anything is read
    r = httpx.post(roomy.base + "/api/rooms", content=b"x" * 70_000,
                   headers={"Content-Type": "application/json"})
    assert r.status_code == 413 and "too large" in r.json()["error"]
    assert r.headers["x-content-type-options"] == "nosniff"


def test_room_creation_and_joins_have_a_rate_per_client(limited: Server) -> None:
    http = httpx.Client(base_url=limited.base)
    rooms = []
    for _ in range(4):
        r = http.post("/api/rooms", json={"game": "schafkopf"})
        assert r.status_code == 201
        rooms.append(r.json()["room"])
    r = http.post("/api/rooms", json={"game": "schafkopf"})
    assert r.status_code == 429
    assert "wait a little" in r.json()["error"]
    assert 1 <= int(r.headers["retry-after"]) <= 60
    # the lobby form says it on the lobby page
    page = http.post("/rooms", data={"game": "schafkopf"},
                     headers={"Origin": limited.base, "Accept": "text/html"})
    assert page.status_code == 429 and "wait a little" in page.text
    assert 'class="notice error"' in page.text
    # joins: six per minute from this address
    for i in range(6):
        room = rooms[i // 4]
        r = http.post(f"/api/rooms/{room}/join", json={"name": f"P{i}"})
        assert r.status_code == 200, r.text
    r = http.post(f"/api/rooms/{rooms[2]}/join", json={"name": "Late"})
    assert r.status_code == 429 and "try again" in r.json()["error"]
    form = http.post(f"/r/{rooms[2]}/join", data={"name": "Late"},
                     headers={"Origin": limited.base, "Accept": "text/html"})
    assert form.status_code == 429 and "try again" in form.text
    # nothing was seated by the refused joins
    view = http.get(f"/api/rooms/{rooms[2]}/view").json()
    assert view["seats"] == [None] * 4
    http.close()


def _refused(ws: ClientConnection) -> str | None:
    """The flash of a socket refused for too many connections, then its close."""
    frame = str(ws.recv(timeout=5))
    with pytest.raises(Exception):  # noqa: B017 - closed by the server, any close error
        ws.recv(timeout=5)
    assert ws.close_code == 1008
    return frame_flash(frame)


def test_open_sockets_are_capped_per_room_and_per_client(limited: Server) -> None:
    http = httpx.Client(base_url=limited.base)
    a = http.post("/api/rooms", json={"game": "schafkopf"}).json()["room"]
    b = http.post("/api/rooms", json={"game": "schafkopf"}).json()["room"]
    open_ = [open_socket(limited.ws_base, a), open_socket(limited.ws_base, a)]
    for ws in open_:
        assert 'id="seats"' in str(ws.recv(timeout=5))
    flash = _refused(open_socket(limited.ws_base, a))
    assert flash and "as many visitors" in flash
    open_.append(open_socket(limited.ws_base, b))
    assert 'id="seats"' in str(open_[-1].recv(timeout=5))
    flash = _refused(open_socket(limited.ws_base, b))
    assert flash and "Too many tables are open from your address" in flash
    # closing one frees its place
    open_.pop(0).close()
    time.sleep(0.3)
    again = open_socket(limited.ws_base, a)
    assert 'id="seats"' in str(again.recv(timeout=5))
    for ws in [*open_, again]:
        ws.close()
    http.close()


@pytest.mark.parametrize(("a", "b", "same"), [
    ("2001:db8:0:1200::1", "2001:db8:0:12ff:ffff::2", True),  # two /64s of one /56
    ("2001:db8:0:1200::1", "2001:db8:0:1300::1", False),  # the next /56
    ("::ffff:198.51.100.7", "198.51.100.7", True),
    ("198.51.100.7", "198.51.100.8", False),
])
def test_an_ipv6_client_is_its_56(a: str, b: str, same: bool) -> None:
    """A household given a /56 is one client, whichever /64 it sends from (it was
    256 clients, each with its own rooms and sockets)."""
    def key(address: str) -> str:
        return client_key(HTTPConnection({"type": "http", "client": (address, 50000),
                                          "headers": []}))

    assert (key(a) == key(b)) is same
    assert key("2001:db8:0:12ab::1") == "2001:db8:0:1200::/56"


@pytest.mark.parametrize(("setting", "english", "german"), [
    ("MAX_OPEN_ROOMS", "This server has as many open tables as it can keep (2);",
     "Auf diesem Server sind so viele Tische offen, wie er halten kann (2);"),
    ("MAX_ROOMS_PER_CLIENT", "2 tables opened from your address are still open, as "
     "many as one address may have at once.", "Von deiner Adresse aus sind noch 2 "
     "Tische offen, mehr darf eine Adresse nicht gleichzeitig haben."),
])
def test_the_server_and_one_address_keep_at_most_so_many_rooms_open(
        tmp_path: Path, setting: str, english: str, german: str) -> None:
    srv = _server(tmp_path, {setting: "2"})
    try:
        http = httpx.Client(base_url=srv.base)
        for _ in range(2):
            assert http.post("/api/rooms", json={"game": "schafkopf"}).status_code == 201
        r = http.post("/api/rooms", json={"game": "schafkopf"})
        assert r.status_code == 429 and r.json()["error"].startswith(english)
        assert int(r.headers["retry-after"]) > 0
        r = http.post("/api/rooms", json={"game": "mauscheln"},
                      headers={"Accept-Language": "de"})
        assert r.status_code == 429 and r.json()["error"].startswith(german)
        http.close()
    finally:
        srv.stop()

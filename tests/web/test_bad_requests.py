"""Bad requests against a live server: each gets the documented ``{"error": ...}``
(a body that is not JSON too, before any token or rate is looked at), and a stream of
them leaves the server's memory where it was (no reference cycles for a pass of the
collector to free later: app/cycles.py)."""

from __future__ import annotations

import json
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.conftest import Server, migrate
from tests.web.test_limits import rss_kib

BAD_BODIES = (
    b'{"name": ',  # cut short
    b'{"name": "\xff\xfe"}',  # not UTF-8
    b"[" * 3000,  # nested past any limit
    b'{"name": NaN}',  # not JSON's
)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    url = f"sqlite:///{tmp_path / 'bad.db'}"
    migrate(url)
    srv = Server(url, tmp_path / "server.log", env={"LOG_LEVEL": "warning"}).start()
    yield srv
    srv.stop()


def _pipelined(port: int, requests: list[bytes]) -> list[bytes]:
    """Send ``requests`` on one keep-alive connection, all at once; the answers."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=30)
    sock.sendall(b"".join(requests))
    data = b""
    answers: list[bytes] = []
    while len(answers) < len(requests):
        part = sock.recv(1 << 16)
        assert part, f"closed after {len(answers)} answers"
        data += part
        while b"\r\n\r\n" in data:
            head, _, rest = data.partition(b"\r\n\r\n")
            length = int(next(line.split(b":")[1] for line in head.split(b"\r\n")
                              if line.lower().startswith(b"content-length")))
            if len(rest) < length:
                break
            answers.append(head + b"\r\n\r\n" + rest[:length])
            data = rest[length:]
    sock.close()
    return answers


def _post(path: str, body: bytes) -> bytes:
    return (f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\n\r\n").encode() + body


def _not_http(port: int) -> None:
    sock = socket.create_connection(("127.0.0.1", port), timeout=30)
    sock.sendall(b"NOT HTTP AT ALL\r\n\r\n")
    try:
        while sock.recv(4096):
            pass
    except ConnectionResetError:
        pass
    sock.close()


def test_bodies_that_are_not_json_get_the_documented_error(server: Server) -> None:
    room = httpx.post(server.base + "/api/rooms", json={"game": "schafkopf"}).json()["room"]
    for body in BAD_BODIES:
        for path in (f"/api/rooms/{room}/join", "/api/rooms", f"/api/rooms/{room}/actions"):
            r = httpx.post(server.base + path, content=body,
                           headers={"Content-Type": "application/json"})
            assert r.status_code == 422, (path, body[:20], r.text)
            assert set(r.json()) == {"error"}, r.text
            assert "JSON" in r.json()["error"] or "nests" in r.json()["error"]
    german = httpx.post(server.base + "/api/rooms", content=b"{", headers={
        "Content-Type": "application/json", "Accept-Language": "de"}).json()["error"]
    assert "JSON" in german and "kein" in german, german


def test_a_stream_of_bad_requests_leaves_memory_where_it_was(server: Server) -> None:
    """20,000 bodies that are not JSON (no token needed) and 2,000 requests that are
    not HTTP: the server's RSS grows by a few MiB at most, where the bodies alone
    took 13-15 KB each until the collector's next full pass (260 MB)."""
    assert server.proc is not None
    room = httpx.post(server.base + "/api/rooms", json={"game": "schafkopf"}).json()["room"]
    batch = [_post(f"/api/rooms/{room}/join", body) for body in BAD_BODIES] * 25
    _pipelined(server.port, batch)  # the first of each kind, before measuring
    time.sleep(0.5)
    before = rss_kib(server.proc.pid)
    for _ in range(20_000 // len(batch)):
        answers = _pipelined(server.port, batch)
        assert all(a.startswith(b"HTTP/1.1 4") for a in answers), answers[0]
    for _ in range(2_000):
        _not_http(server.port)
    time.sleep(0.5)
    grown = rss_kib(server.proc.pid) - before
    assert grown < 16 * 1024, f"RSS grew by {grown} KiB"
    last = json.loads(answers[-1].split(b"\r\n\r\n", 1)[1])
    assert set(last) == {"error"}
    log = server.log_path.read_text()
    assert log.count("Invalid HTTP request received") < 20, "one line every 10 s at most"


def test_wrong_methods_and_unreadable_forms_get_the_documented_error(server: Server) -> None:
    wrong = httpx.delete(server.base + "/api/games")
    assert wrong.status_code == 405 and set(wrong.json()) == {"error"}
    assert wrong.headers["allow"] == "GET"
    form = httpx.post(server.base + "/api/rooms", content=b"x",
                      headers={"Content-Type": "multipart/form-data"})
    assert 400 <= form.status_code < 500 and set(form.json()) == {"error"}, form.text

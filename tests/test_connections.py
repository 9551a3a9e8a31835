"""Connections cannot be held open: against the server as scripts/serve.sh starts it,
with real sockets that send slowly or not at all. A body that does not arrive in
BODY_TIMEOUT_S gets 408 and its connection closed, an idle connection is closed after
KEEPALIVE_S, one client has at most MAX_REQUESTS_PER_CLIENT requests under way, the
start script takes the open-file limit the system allows, and the Caddy proxy of the
https profile closes what uvicorn does not time out (a request's headers)."""

from __future__ import annotations

import os
import re
import resource
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.conftest import ROOT, free_port
from tests.test_deploy import _serve, _wait_up


class Served:
    def __init__(self, proc: subprocess.Popen[bytes], port: int) -> None:
        self.proc = proc
        self.port = port
        self.base = f"http://127.0.0.1:{port}"


@pytest.fixture
def serve(tmp_path: Path) -> Iterator[object]:
    started: list[subprocess.Popen[bytes]] = []

    def start(**env: str) -> Served:
        port = free_port()
        proc = _serve(f"sqlite:///{tmp_path / f'c{len(started)}.db'}", port,
                      tmp_path / "serve.log", **env)
        started.append(proc)
        served = Served(proc, port)
        _wait_up(served.base, proc, tmp_path / "serve.log")
        return served

    yield start
    for proc in started:
        proc.send_signal(signal.SIGTERM)
        proc.wait(20)


def _connect(port: int) -> socket.socket:
    return socket.create_connection(("127.0.0.1", port), timeout=20)


def _read_until_closed(sock: socket.socket, within: float) -> tuple[bytes, float]:
    """What the server sends until it closes the connection, and when it closed
    (AssertionError if it is still open after ``within`` seconds)."""
    sock.settimeout(within)
    started = time.monotonic()
    data = b""
    try:
        while part := sock.recv(65536):
            data += part
    except ConnectionResetError:
        pass
    except TimeoutError:
        raise AssertionError(f"still open after {within} s; got {data[:80]!r}") from None
    return data, time.monotonic() - started


def _slow_body(port: int) -> socket.socket:
    """A request whose body never finishes arriving."""
    sock = _connect(port)
    sock.sendall(b"POST /api/rooms HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                 b"Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"ga")
    return sock


def test_a_body_that_does_not_arrive_gets_408_and_the_connection_closes(serve) -> None:  # type: ignore[no-untyped-def]
    served = serve(BODY_TIMEOUT_S="1")
    sock = _slow_body(served.port)
    answer, _ = _read_until_closed(sock, within=10)
    assert answer.startswith(b"HTTP/1.1 408"), answer[:200]
    assert b'"error"' in answer
    assert httpx.get(served.base + "/healthz").status_code == 200


def test_one_client_has_at_most_max_requests_under_way(serve) -> None:  # type: ignore[no-untyped-def]
    served = serve(MAX_REQUESTS_PER_CLIENT="3", BODY_TIMEOUT_S="60")
    slow = [_slow_body(served.port) for _ in range(3)]
    time.sleep(0.5)  # the three are under way
    refused = httpx.get(served.base + "/api/games")
    assert refused.status_code == 429, refused.text
    assert set(refused.json()) == {"error"} and refused.headers["retry-after"] == "1"
    for sock in slow:
        sock.close()
    deadline = time.monotonic() + 10
    while httpx.get(served.base + "/api/games").status_code == 429:  # the server saw them go
        assert time.monotonic() < deadline
        time.sleep(0.1)


def test_an_idle_connection_is_closed_after_keepalive_s(serve) -> None:  # type: ignore[no-untyped-def]
    served = serve(KEEPALIVE_S="1")
    sock = _connect(served.port)
    sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    answer, waited = _read_until_closed(sock, within=4)  # uvicorn's own default is 5 s
    assert answer.startswith(b"HTTP/1.1 200")
    assert waited < 4


def test_the_start_script_takes_the_open_file_limit_the_system_allows(serve) -> None:  # type: ignore[no-untyped-def]
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard <= 256:
        pytest.skip(f"the hard open-file limit here is {hard}")
    resource.setrlimit(resource.RLIMIT_NOFILE, (256, hard))  # inherited by serve.sh
    try:
        served = serve()
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    limits = Path(f"/proc/{served.proc.pid}/limits").read_text()
    found = re.search(r"Max open files\s+(\d+)\s+(\d+)", limits)
    assert found is not None, limits
    assert found[1] == found[2] != "256", limits


def test_the_caddy_proxy_closes_connections_whose_headers_do_not_arrive(serve) -> None:  # type: ignore[no-untyped-def]
    """uvicorn times out no connection that never completes its request's headers
    (README, Limits): the Caddyfile's timeouts do, and a table's socket through the
    proxy is not affected by them."""
    caddy = shutil.which("caddy")
    if caddy is None:
        pytest.skip("the proxy's timeouts need caddy (apt-get install caddy)")
    served = serve()
    port = free_port()
    config = (ROOT / "Caddyfile").read_text()
    config = config.replace("{\n\tservers", "{\n\tadmin off\n\tservers", 1)
    config = config.replace("{$STAMMTISCH_DOMAIN:localhost}", f"http://127.0.0.1:{port}")
    config = config.replace("app:8000", f"127.0.0.1:{served.port}")
    with tempfile.TemporaryDirectory() as home:
        (Path(home) / "Caddyfile").write_text(config)
        proc = subprocess.Popen(
            [caddy, "run", "--config", "Caddyfile", "--adapter", "caddyfile"], cwd=home,
            env={**os.environ, "XDG_DATA_HOME": home, "XDG_CONFIG_HOME": home},
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            base = f"http://127.0.0.1:{port}"
            _wait_up(base, proc, Path(home) / "Caddyfile")
            _proxy_closes_slow_headers(base, port)
        finally:
            proc.terminate()
            proc.wait(20)


def _proxy_closes_slow_headers(base: str, port: int) -> None:
    from websockets.sync.client import connect

    room = httpx.post(base + "/api/rooms", json={"game": "schafkopf"}).json()["room"]
    results: dict[str, float] = {}

    def hold(name: str, data: bytes) -> None:
        sock = _connect(port)
        sock.sendall(data)
        results[name] = _read_until_closed(sock, within=16)[1]

    holders = [threading.Thread(target=hold, args=args) for args in (
        ("nothing sent", b""), ("headers cut short", b"GET / HTTP/1.1\r\nHost: x\r\n"))]
    for thread in holders:
        thread.start()
    with connect(f"ws://127.0.0.1:{port}/r/{room}/ws", proxy=None, open_timeout=20) as ws:
        ws.recv(timeout=20)
        for thread in holders:
            thread.join(30)
        ws.send('{"cmd": "next_deal"}')  # still answered after the proxy's timeouts
        assert "hx-swap-oob" in str(ws.recv(timeout=20))
    assert set(results) == {"nothing sent", "headers cut short"}
    assert all(waited < 15 for waited in results.values()), results

"""The cycle collector while the app serves (app.cycles): no pass while anybody is at
the server, one pass once nobody is, CPython's schedule afterwards; and the live
server makes no reference cycles, whatever it is sent."""

from __future__ import annotations

import collections
import contextlib
import gc
import re
import subprocess
import sys
import threading
import time
import weakref
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest
import uvicorn
from fastapi.testclient import TestClient
from websockets.exceptions import ConnectionClosed

from app import cycles
from app.main import create_app
from tests.conftest import ROOT, free_port, migrate


class Node:
    """Something that can sit in a reference cycle and be watched by a weakref."""

    def __init__(self) -> None:
        self.other: Node | None = None


def cycle() -> tuple[Node, weakref.ref[Node]]:
    a, b = Node(), Node()
    a.other, b.other = b, a
    return a, weakref.ref(b)


class Stop(Exception):
    pass


def checks(answers: list[bool], look: Callable[[], None]) -> Callable[[float], object]:
    """A sleep for cycles.run: before each check after the first, ``look`` (what the
    check before did); the loop ends once every answer was given."""
    slept: list[float] = []

    async def sleep(seconds: float) -> None:
        slept.append(seconds)
        if len(slept) > 1:
            look()
        if len(slept) > len(answers):
            raise Stop

    return sleep


def run(answers: list[bool], look: Callable[[], None], *, pass_every: float) -> None:
    """cycles.run asking ``idle()`` once per check, 1 s apart: stepped by hand,
    without an event loop (another test's may be running in this thread)."""
    given = iter(answers)
    coro = cycles.run(idle=lambda: next(given), sleep=checks(answers, look),  # type: ignore[arg-type]
                      check_every=1.0, pass_every=pass_every)
    with pytest.raises(Stop):
        coro.send(None)


def test_serving_sets_the_schedule_and_puts_cpythons_back() -> None:
    before, frozen = gc.get_threshold(), gc.get_freeze_count()
    with cycles.serving():
        assert gc.get_threshold() == (cycles.YOUNG_THRESHOLD, cycles.NEVER, cycles.NEVER)
        assert gc.get_freeze_count() > frozen  # what exists at start-up is left out
    assert gc.get_threshold() == before
    assert gc.get_freeze_count() == 0


def test_the_pass_waits_until_nobody_is_at_the_server() -> None:
    """Idle at two checks in a row, and the pass is due: then, and only then."""
    freed: list[bool] = []
    with cycles.serving():
        holder, watch = cycle()
        del holder  # garbage at once

        def look() -> None:
            freed.append(watch() is None)

        # idle, busy, idle, idle: the pass comes at the second idle check in a row
        run([True, False, True, True], look, pass_every=2.0)
    assert freed == [False, False, False, True]


def test_a_busy_server_makes_no_pass() -> None:
    freed: list[bool] = []
    with cycles.serving():
        holder, watch = cycle()
        del holder

        def look() -> None:
            freed.append(watch() is None)

        # somebody at the server at every other check, for a long time
        run([False, True] * 20, look, pass_every=2.0)
        assert not any(freed)
    gc.collect()
    assert watch() is None


def test_sockets_that_owe_enough_make_the_pass_due_while_busy() -> None:
    freed: list[bool] = []
    with cycles.serving():
        holder, watch = cycle()
        del holder

        def look() -> None:
            freed.append(watch() is None)

        cycles._owed = 0  # whatever sockets of other tests owed
        cycles.owe(cycles.OWED_MAX - 1)
        run([False], look, pass_every=2.0)
        cycles.owe(1)
        run([False], look, pass_every=2.0)
    assert freed == [False, True]
    assert cycles._owed == 0


def test_no_count_of_new_objects_starts_a_pass_while_serving() -> None:
    with cycles.serving():
        holder, watch = cycle()
        del holder
        kept = [[] for _ in range(50_000)]  # far past CPython's 700 new objects
        assert watch() is not None, "no pass has run"
        del kept
    gc.collect()
    assert watch() is None


def test_the_app_serves_with_the_schedule(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'c.db'}"
    migrate(url)
    before = gc.get_threshold()
    with TestClient(create_app(url)) as client:
        assert client.get("/healthz").status_code == 200
        assert gc.get_threshold() == (cycles.YOUNG_THRESHOLD, cycles.NEVER, cycles.NEVER)
    assert gc.get_threshold() == before


# ----- the live server makes no cycles ---------------------------------------------
def served_http() -> str:
    """The HTTP implementation scripts/serve.sh runs uvicorn with."""
    found = re.search(r"--http (\w+)", (ROOT / "scripts" / "serve.sh").read_text())
    return found[1] if found else "auto"


@pytest.fixture
def in_process(tmp_path: Path) -> Iterator[str]:
    """The app under uvicorn as serve.sh starts it, in a thread of this process, so
    the collector here sees the server's objects; the client runs in another."""
    url = f"sqlite:///{tmp_path / 'cycles.db'}"
    migrate(url)
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(
        create_app(url), host="127.0.0.1", port=port, http=served_http(),
        ws_max_size=65536, ws_per_message_deflate=True, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)
    yield base
    server.should_exit = True
    thread.join(30)


def traffic(base: str, rounds: int) -> None:
    done = subprocess.run([sys.executable, "-m", "tests.traffic", base, str(rounds)],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]


def left_in_cycles() -> collections.Counter[str]:
    """What a full pass of the collector finds unreachable, by type, once the server
    has nothing in progress."""
    time.sleep(1.5)  # the closing handshakes of the sockets finish
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        gc.collect()
        found = collections.Counter(type(o).__qualname__ for o in gc.garbage)
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.collect()
    return found


def left_by_websockets() -> collections.Counter[str]:
    """Of what a full pass finds unreachable (as :func:`left_in_cycles`), the objects
    in a cycle with one of websockets' errors: what the sockets left, and nothing that
    some other work of the process (a bot worker started meanwhile) left at the same
    time."""
    from websockets.exceptions import WebSocketException

    time.sleep(1.5)  # the closing handshakes of the sockets finish
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        gc.collect()
        garbage = {id(o): o for o in gc.garbage}
        linked: dict[int, set[int]] = collections.defaultdict(set)
        for o in gc.garbage:  # garbage that refers to garbage, either way
            for ref in gc.get_referents(o):
                if id(ref) in garbage:
                    linked[id(o)].add(id(ref))
                    linked[id(ref)].add(id(o))
        # type(), not isinstance(): a dead weak proxy among them raises on __class__
        todo = [id(o) for o in gc.garbage if issubclass(type(o), WebSocketException)]
        seen = set(todo)
        while todo:  # the garbage linked to the errors, directly or not
            for other in linked[todo.pop()] - seen:
                seen.add(other)
                todo.append(other)
        found = collections.Counter(type(garbage[i]).__qualname__ for i in seen)
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.collect()
    return found


def test_nothing_the_server_is_sent_leaves_reference_cycles(in_process: str) -> None:
    """Pages, forms, the API, sockets that play, chat and close, malformed and
    oversized bodies, wrong methods, forged tokens: after a first round (templates
    compiled, caches filled) a second round of the same leaves no object in a
    reference cycle, so nothing waits for a pass of the collector (app.cycles)."""
    traffic(in_process, rounds=1)
    left_in_cycles()  # what the first round made once, for good
    traffic(in_process, rounds=1)
    left = left_in_cycles()
    assert not left, f"{sum(left.values())} objects in reference cycles: {left.most_common(12)}"


def test_sockets_ended_by_a_protocol_error_are_owed_what_they_leave(in_process: str) -> None:
    """A frame the WebSocket protocol refuses (past the size limit, not masked) ends
    the socket and leaves websockets' parser error in a cycle: the server notes at
    least as many objects as are left, and owing OWED_MAX makes the pass due."""
    from websockets.sync.client import connect

    room = httpx.post(in_process + "/api/rooms", json={"game": "schafkopf"}).json()["room"]
    frames = [b"\x81\xff" + (70_000).to_bytes(8, "big") + b"\x00" * 4 + b"x" * 100,
              b"\x81\x02hi"] * 3
    left_in_cycles()
    owed = cycles._owed
    for frame in frames:
        with connect(in_process.replace("http", "ws") + f"/r/{room}/ws", proxy=None) as ws:
            ws.recv(timeout=20)
            ws.socket.sendall(frame)
            with contextlib.suppress(ConnectionClosed, TimeoutError):
                ws.recv(timeout=20)  # the server's close
    found = left_by_websockets()
    left = sum(found.values())
    assert left > 0, "websockets no longer leaves a cycle: cycles.owe can go"
    assert cycles._owed - owed >= left, found.most_common(12)

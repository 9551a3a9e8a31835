"""A seeded fuzz run against a live server (loopback only, bounded in count and
time): random and malformed WebSocket frames and JSON API bodies. No answer is a
500, the table changes only by the legal actions that were sent, no frame shows a
card its socket may not see, and the server's memory stays bounded."""

from __future__ import annotations

import json
import random
import re
import string
import time
from pathlib import Path
from typing import Any

import httpx

from app.web.cards import face
from tests.conftest import Server
from tests.web.apiclient import Table
from tests.web.frames import open_socket
from tests.web.test_hidden_frames import Collector
from tests.web.test_limits import rss_kib

TITLE_RE = re.compile(r'class="card (?!back)[^"]*"[^>]*title="([^"]+)"')
ROUNDS = 400
TIME_BUDGET_S = 90


def _junk(rng: random.Random, depth: int = 0) -> Any:
    """A random JSON value (sometimes deep, sometimes big, sometimes odd types)."""
    kind = rng.randrange(10)
    if kind == 0 or depth > 3:
        return rng.choice([None, True, False, 0, -1, 2**63, 1e308, -0.0, "", "🂡", "\u0000"])
    if kind == 1:
        return "".join(rng.choice(string.printable) for _ in range(rng.randrange(40)))
    if kind == 2:
        return rng.randrange(-10**6, 10**6)
    if kind == 3:
        return [_junk(rng, depth + 1) for _ in range(rng.randrange(4))]
    if kind == 4:
        return {rng.choice(["action", "version", "cmd", "name", "game", "x", ""]):
                _junk(rng, depth + 1) for _ in range(rng.randrange(4))}
    if kind == 5:
        return rng.choice(["play:", "play:EO", "play:ZZ", "play:" + "A" * 300, "exchange:",
                           "challenge:all", "lay:7H", "mauschel", "pass", "accept",
                           "<script>alert(1)</script>", "' OR 1=1 --"])
    if kind == 6:
        return "x" * rng.choice([100, 4000, 5000])
    return rng.random()


def _frame(rng: random.Random, version: int) -> str:
    """A WebSocket text frame: malformed text, deep nesting, or JSON shaped like ours
    but never a legal move made from the current version."""
    kind = rng.randrange(8)
    if kind == 0:
        return rng.choice(["", "{", "}", "[", "null", "nan", "\"", "{\"action\":", "\x00"])
    if kind == 1:
        return rng.choice(["[", "{\"a\":"]) * rng.randrange(100, 2000)
    if kind == 2:
        return json.dumps(_junk(rng))
    if kind == 3:  # a move from a stale or future version
        return json.dumps({"action": _junk(rng), "version": version + rng.choice([-1, 1, 7])})
    if kind == 4:  # host commands from a socket that is not the host's
        return json.dumps({"cmd": rng.choice(["start", "add_bot", "end_game", "drop", 1])})
    if kind == 5:
        return json.dumps({"action": _junk(rng), "version": _junk(rng)})
    if kind == 6:
        return json.dumps({"action": "exchange", "version": version, "discard": _junk(rng)})
    return "{\"action\": \"play:EO\", \"version\": " + str(version) + "}" + "x" * 10


def _api_call(rng: random.Random, http: httpx.Client, room: str,
              tokens: list[str]) -> httpx.Response:
    kind = rng.randrange(7)
    auth = rng.choice([{}, {"Authorization": "Bearer " + rng.choice(tokens)},
                       {"Authorization": "Bearer nope"}, {"Authorization": "Basic x"},
                       {"Authorization": "Bearer"}])
    body = _junk(rng)
    if kind == 0:
        return http.post("/api/rooms", json=body)
    if kind == 1:
        return http.post("/api/rooms", content=rng.choice([b"{", b"[" * 3000, b"\xff\xfe",
                                                           b"null", b""]),
                         headers={"Content-Type": "application/json"})
    if kind == 2:
        return http.post(f"/api/rooms/{room}/join", json=rng.choice([body, {"name": body}]))
    if kind == 3:
        return http.post(f"/api/rooms/{room}/actions", headers=auth,
                         json=rng.choice([body, {"action": body, "version": body}]))
    if kind == 4:
        target = rng.choice([room, "nope", "../../etc", "%00", "a" * 500])
        return http.get(f"/api/rooms/{target}/view", headers=auth)
    if kind == 5:
        return http.post(f"/api/rooms/{room}/{rng.choice(['start', 'bots', 'end'])}",
                         headers=auth)
    origin = f"{http.base_url.scheme}://{http.base_url.netloc.decode()}"
    return http.post("/rooms", data={"game": str(body)[:50], "schafkopf.target": str(body)},
                     headers={"Origin": origin})


def test_random_and_malformed_input_changes_nothing_and_leaks_nothing(
        sqlite_server: Server, tmp_path: Path) -> None:
    rng = random.Random(20240611)
    table = Table(sqlite_server.base, "schafkopf", options={"dealer": 3}, seed=17)
    tokens = [table.join(n)[1] for n in ("Anna", "Bert", "Cilli", "Done")]
    assert table.start().status_code == 200
    assert sqlite_server.proc is not None
    pid = sqlite_server.proc.pid
    spectator = Collector(open_socket(sqlite_server.ws_base, table.room))
    seat0 = Collector(open_socket(sqlite_server.ws_base, table.room, tokens[0]))
    time.sleep(0.3)
    before_rss = rss_kib(pid)
    version = table.view()["version"]
    legal_sent = 0
    http = httpx.Client(base_url=sqlite_server.base, timeout=10)
    deadline = time.monotonic() + TIME_BUDGET_S
    for i in range(ROUNDS):
        assert time.monotonic() < deadline, f"fuzzing took too long (round {i})"
        target = rng.choice([spectator, seat0])
        target.ws.send(_frame(rng, version))
        if rng.random() < 0.3:
            target.ws.send(rng.randbytes(rng.randrange(1, 64)))  # a binary frame
        r = _api_call(rng, http, table.room, tokens)
        assert r.status_code < 500, (r.status_code, r.text[:300])
        if i % 40 == 39:  # now and then one legal move, over the API
            states = [table.view(t) for t in tokens]
            seat = next(s for s, st in enumerate(states) if st["legal"])
            move = rng.choice(states[seat]["legal"])
            ok = table.act(tokens[seat], move, states[seat]["version"])
            assert ok.status_code == 200, ok.text
            legal_sent += 1
            version = ok.json()["version"]
    time.sleep(0.5)
    assert table.view()["version"] == version
    assert version == 1 + 4 + legal_sent, "only the legal moves changed the table"
    assert spectator.frames and seat0.frames, "both sockets stayed served"
    hands = {seat: set(table.view(t)["view"]["hand"]) for seat, t in enumerate(tokens)}
    hidden_from_all = {face("schafkopf", c).title for h in hands.values() for c in h}
    hidden_from_0 = {face("schafkopf", c).title for s, h in hands.items() if s for c in h}
    for frame in spectator.frames:
        assert not hidden_from_all & set(TITLE_RE.findall(frame))
    for frame in seat0.frames:
        assert not hidden_from_0 & set(TITLE_RE.findall(frame))
    own = {face("schafkopf", c).title for c in hands[0]}
    assert own <= set(TITLE_RE.findall(seat0.frames[-1])), "the check reads card faces"
    grown = rss_kib(pid) - before_rss
    assert grown < 40 * 1024, f"the server grew by {grown} KiB"
    spectator.close()
    seat0.close()
    http.close()
    log = (tmp_path / "server.log").read_text()
    assert "Traceback" not in log, log[-3000:]

"""Nothing is lost: the real server is killed mid-deal (SIGKILL) or stopped
(SIGTERM), started again, and the same clients finish the match as if nothing had
happened."""

from __future__ import annotations

import json
import random
import signal
import time
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed

from app.db import Database, repo
from app.games import new_match
from tests.conftest import Server
from tests.web.apiclient import Table, sit_in_order
from tests.web.frames import frame_actions, frame_version, open_socket, recv_until

SEED = 77
OPTIONS = {"dealer": 3, "target": 2}


def _latest(ws: Any, version: int, last: dict[int, str]) -> str:
    """The socket's frame for ``version`` or later (frames are whole tables)."""
    key = id(ws)
    if key not in last or frame_version(last[key]) < version:
        last[key] = recv_until(ws, lambda f: frame_version(f) >= version)
    return last[key]


def _play(table: Table, tokens: list[str], sockets: dict[int, Any], steps: int,
          rng: random.Random, log: list[tuple[int, str]]) -> None:
    """Play ``steps`` actions; seats in ``sockets`` act over their WebSocket, the
    others over the JSON API, always the action ``rng`` picks from the legal ones."""
    last: dict[int, str] = {}
    for _ in range(steps):
        spectator = table.view()
        if spectator["status"] == "finished":
            return
        states = [table.view(t) for t in tokens]
        seat = next(i for i, st in enumerate(states) if st["legal"])
        st = states[seat]
        action = rng.choice(st["legal"])
        if seat in sockets:
            ws = sockets[seat]
            assert action in frame_actions(_latest(ws, st["version"], last))
            ws.send(json.dumps({"action": action, "version": st["version"]}))
            _latest(ws, st["version"] + 1, last)
        else:
            r = table.act(tokens[seat], action, st["version"])
            assert r.status_code == 200, r.text
        log.append((seat, action))


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM], ids=["sigkill", "sigterm"])
def test_a_killed_server_comes_back_and_the_match_ends_as_if_uninterrupted(
        server: Server, sig: int) -> None:
    table = Table(server.base, "schafkopf", options=OPTIONS, seed=SEED)
    tokens = [token for _, token in sit_in_order(table, ("Anna", "Bert", "Cilli", "Done"))]
    assert table.start().status_code == 200
    sockets = {0: open_socket(server.ws_base, table.room, tokens[0]),
               2: open_socket(server.ws_base, table.room, tokens[2])}
    rng = random.Random(5)
    log: list[tuple[int, str]] = []
    _play(table, tokens, sockets, 16, rng, log)  # half a deal
    before = table.view(tokens[1])
    server.kill(sig)
    for ws in sockets.values():
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                ws.recv(timeout=5)
        if sig == signal.SIGTERM:  # a planned restart tells browsers to come back
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1012
    server.start()
    server.serves(table.room)  # with room leases: once the old process's ran out
    after = table.view(tokens[1])
    assert after == before, "seats, hands, trick, turn and version are as they were"
    sockets = {0: open_socket(server.ws_base, table.room, tokens[0]),
               2: open_socket(server.ws_base, table.room, tokens[2])}
    _play(table, tokens, sockets, 10_000, rng, log)
    final = table.view()
    assert final["status"] == "finished"
    # the same seed and the same actions without any interruption
    m = new_match("schafkopf", 4, OPTIONS, seed=SEED)
    for seat, action in log:
        m.apply(seat, action)
    assert m.is_over
    assert final["view"]["winners"] == m.winners
    assert final["view"]["results"] == m.view(None)["results"]
    assert final["view"]["scores"] == m.scores
    for ws in sockets.values():
        ws.close()


def test_chip_balances_after_a_kill_equal_the_ledger(server: Server) -> None:
    table = Table(server.base, "mauscheln", players=3, options={"dealer": 0}, seed=3)
    tokens = [table.join(n)[1] for n in ("Anna", "Bert", "Cilli")]
    assert table.start().status_code == 200
    rng = random.Random(8)
    log: list[tuple[int, str]] = []
    while table.view()["view"]["deal_no"] < 3 and table.view()["status"] == "playing":
        _play(table, tokens, {}, 1, rng, log)
    _play(table, tokens, {}, 3, rng, log)  # into the third deal
    before = table.view()
    server.kill(signal.SIGKILL)
    server.start()
    server.serves(table.room)
    after = table.view()
    assert after == before
    db = Database(server.db_url)
    try:
        ledger = db.run_sync(repo.balances, match_id=table.room, players=3)
    finally:
        db.close()
    assert ledger == after["view"]["last_deal"]["scores"]
    assert sum(after["view"]["scores"]) + after["view"]["pot"] == 3 * 40


def test_an_idle_room_leaves_memory_and_its_link_says_so(db_url: str, tmp_path) -> None:  # noqa: ANN001
    """A started room nobody is at is closed; one that never started is deleted."""
    srv = Server(db_url, tmp_path / "idle.log", env={
        "ROOM_IDLE_MINUTES": "0.01", "UNSTARTED_ROOM_IDLE_MINUTES": "0.01"}).start()
    try:
        waiting = Table(srv.base, "schafkopf", options={"away_seconds": 10})
        waiting.join("Anna")
        table = Table(srv.base, "schafkopf", options={"away_seconds": 10})
        table.join("Anna")
        for _ in range(3):
            assert table.http.post(f"/api/rooms/{table.room}/bots", headers={
                "Authorization": f"Bearer {table.host_token}"}).status_code == 200
        assert table.start().status_code == 200
        deadline = time.monotonic() + 30
        for t in (waiting, table):  # Anna's API calls keep both for away_seconds
            while t.http.get(f"/api/rooms/{t.room}/view").status_code == 200:
                assert time.monotonic() < deadline, "the idle room stayed"
                time.sleep(0.2)
        page = table.http.get(f"/r/{table.room}")
        assert page.status_code == 404 and "This table is closed" in page.text
        db = Database(srv.db_url)
        try:
            assert db.run_sync(repo.match_status, match_id=table.room) == "closed"
            assert db.run_sync(repo.match_status, match_id=waiting.room) is None, \
                "a room that never started is deleted, not kept as closed"
        finally:
            db.close()
        # a closed room does not come back after a restart
        srv.kill(signal.SIGTERM)
        srv.start()
        assert table.http.get(f"/api/rooms/{table.room}/view").status_code == 404
    finally:
        srv.stop()

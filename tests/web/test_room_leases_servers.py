"""Two real server processes on one PostgreSQL schema with ``ROOM_LEASES`` on: a
room made and played on the first is handed over when the second is asked for it
(its socket closed with 1012); the second killed with SIGKILL lets its leases run
out, meanwhile the first refuses the room (503 with Retry-After, a socket closed
with 1012) and takes it back within LEASE_SECONDS + 2 s, every move made before it
there, and play goes on; stopped with SIGTERM, it hands the room over at once.
With SQLite, leases refuse to start in one line."""

from __future__ import annotations

import random
import signal
import subprocess
import time
from pathlib import Path

import pytest
from websockets.exceptions import ConnectionClosed

from app.db import Database, one_server, repo
from app.db.models import MatchRow
from app.rooms import leases
from tests.conftest import Server, migrate
from tests.web.apiclient import Table, sit_in_order
from tests.web.frames import open_socket
from tests.web.test_cluster import _owners

LEASE_S = 5  # the dead process's lease outlives the three refusals (1 s each)
ENV = {"ROOM_LEASES": "true", "LEASE_SECONDS": str(LEASE_S)}


def _play(table: Table, tokens: list[str], steps: int, rng: random.Random,
          log: list[str]) -> None:
    """``steps`` moves over the JSON API, each the one ``rng`` picks."""
    for _ in range(steps):
        states = [table.view(t) for t in tokens]
        st = next(s for s in states if s["legal"])
        action = rng.choice(st["legal"])
        r = table.act(tokens[states.index(st)], action, st["version"])
        assert r.status_code == 200, r.text
        log.append(action)


def _taken_over(other: Table, since: float, limit: float) -> float:
    """Seconds from ``since`` until ``other``'s server serves the room."""
    while time.monotonic() - since < limit + 5:
        if other.http.get(f"/api/rooms/{other.room}/view").status_code == 200:
            return time.monotonic() - since
        time.sleep(0.1)
    raise AssertionError("the room was not taken over")


def test_leases_on_sqlite_refuse_to_start_with_one_line(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'one.db'}"
    migrate(url)
    server = Server(url, tmp_path / "refused.log", ENV)
    done = subprocess.run(server.uvicorn_args(), cwd=server.cwd, env=server.env, text=True,
                          capture_output=True, timeout=60)
    assert done.returncode == one_server.EXIT_CODE
    said = [line for line in (done.stdout + done.stderr).splitlines() if "stammtisch" in line]
    assert len(said) == 1 and leases.REFUSAL in said[0], done.stdout + done.stderr
    assert "Traceback" not in done.stdout + done.stderr


@pytest.mark.postgres
@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM], ids=["sigkill", "sigterm"])
def test_the_other_server_takes_the_room_over_with_every_move(
        pg_url: str, tmp_path: Path, sig: int) -> None:
    """The room is made and played on the first; asked for on the second, the first
    hands it over at once (the handback: its socket closed with 1012); the second
    then stopped with ``sig``, the first takes the room back: after the dead
    process's lease ran out (503 with Retry-After meanwhile), or at once."""
    first = Server(pg_url, tmp_path / "first.log", ENV).start()
    second = Server(pg_url, tmp_path / "second.log", ENV).start()
    try:
        table = Table(first.base, "schafkopf", options={"dealer": 3}, seed=11)
        tokens = [token for _, token in sit_in_order(table, ("Anna", "Bert", "Cilli", "Dora"))]
        assert table.start().status_code == 200
        rng, log = random.Random(3), ["start"]
        _play(table, tokens, 10, rng, log)
        before = table.view(tokens[1])
        other = Table.attach(second.base, table.room)

        # asked for on the second, the room is handed over by the first
        ws = open_socket(first.ws_base, table.room, tokens[0])
        ws.recv(timeout=5)
        began = time.monotonic()
        assert other.view(tokens[1]) == before, "every move made before is there"
        print(f"handed over in {time.monotonic() - began:.2f} s")
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                ws.recv(timeout=5)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1012
        _play(other, tokens, 4, rng, log)
        before = other.view(tokens[1])

        stopped = time.monotonic()
        second.kill(sig)
        if sig == signal.SIGKILL:  # the first refuses while the dead one's lease lives
            refused = table.http.get(f"/api/rooms/{table.room}/view")
            assert refused.status_code == 503 and refused.headers["retry-after"] == "2"
            assert refused.json()["error"] == ("This table is served by another server "
                                               "just now; try again in a moment.")
            page = table.http.get(f"/r/{table.room}", headers={"Accept": "text/html"})
            assert page.status_code == 503 and "another server" in page.text
            ws = open_socket(first.ws_base, table.room, tokens[0])
            with pytest.raises(ConnectionClosed) as closed:
                ws.recv(timeout=5)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1012
        took = _taken_over(table, stopped, LEASE_S + 2)
        print(f"taken over {took:.2f} s after the {signal.Signals(sig).name}")
        assert took <= (LEASE_S + 2 if sig == signal.SIGKILL else 2.0)
        assert table.view(tokens[1]) == before, "every move made before is there"
        _play(table, tokens, 6, rng, log)
    finally:
        first.stop()
        second.stop()
    db = Database(pg_url)
    try:
        logged = db.run_sync(repo.action_log, match_id=table.room)
    finally:
        db.close()
    assert [a.action for a in logged] == log, "nothing lost, nothing applied twice"
    assert [a.seq for a in logged] == list(range(logged[0].seq, logged[0].seq + len(log)))


@pytest.mark.postgres
def test_a_sigterm_gives_every_lease_up_before_a_page_is_told_to_reconnect(
        pg_url: str, tmp_path: Path) -> None:
    """uvicorn's graceful stop closes the sockets first (1012) and runs the lifespan's
    end after they are gone; the server gives its leases up before that (app.main),
    so a page that reconnects at once finds its room free for the next process."""
    server = Server(pg_url, tmp_path / "stopped.log", ENV).start()
    db = Database(pg_url)
    try:
        tables = []
        for seed in (5, 6):
            table = Table(server.base, "schafkopf", options={"dealer": 3}, seed=seed)
            tokens = [t for _, t in sit_in_order(table, ("Anna", "Bert", "Cilli", "Dora"))]
            assert table.start().status_code == 200
            tables.append((table, tokens))
        sockets = [open_socket(server.ws_base, table.room, tokens[0])
                   for table, tokens in tables]
        for ws in sockets:
            ws.recv(timeout=5)
        assert all(_owners(db, [t.room for t, _ in tables]).values()), \
            "the server holds its rooms"
        assert server.proc is not None
        server.proc.send_signal(signal.SIGTERM)
        for (table, _), ws in zip(tables, sockets, strict=True):
            with pytest.raises(ConnectionClosed) as closed:
                while True:
                    ws.recv(timeout=10)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1012
            # told to reconnect: the room is free already
            row = db.run_sync(lambda s, r=table.room: s.get(MatchRow, r))
            assert row.owner is None and row.lease_until is None
        server.proc.wait(20)
        assert "Traceback" not in server.log_path.read_text()
    finally:
        db.close()
        server.stop()

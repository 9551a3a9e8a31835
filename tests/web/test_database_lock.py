"""A long database lock is seen, against a live server on SQLite and PostgreSQL
(issue 25 item 7): while another program holds the write lock (reads go on),
``/readyz`` says the server is not ready, and a move that waits for it shows
"Reconnecting to the database…" on every seat's page within about two seconds,
gone when the move's write goes through (a 35 s lock made a move hang 34 s with no
notice anywhere, and /readyz said ready)."""

from __future__ import annotations

import json

import httpx
import pytest

from tests.conftest import Server
from tests.locks import write_lock
from tests.web.frames import frame_version, open_socket, recv_until

NOTICE = "Reconnecting to the database"


def _table(http: httpx.Client) -> tuple[str, list[str]]:
    made = http.post("/api/rooms", json={"game": "schafkopf", "seed": 2,
                                         "options": {"dealer": 3}}).json()
    tokens = [http.post(f"/api/rooms/{made['room']}/join", json={"name": n}).json()["token"]
              for n in ("Anna", "Bert", "Cilli", "Done")]
    started = http.post(f"/api/rooms/{made['room']}/start",
                        headers={"Authorization": f"Bearer {made['host_token']}"})
    assert started.status_code == 200
    return made["room"], tokens


@pytest.mark.parametrize("lock", ["write", "exclusive"])
def test_a_long_lock_is_seen_by_readiness_and_by_every_seat(server: Server,
                                                            lock: str) -> None:
    http = httpx.Client(base_url=server.base, timeout=15)
    room, tokens = _table(http)
    sockets = [open_socket(server.ws_base, room, t) for t in tokens]
    try:
        for ws in sockets:
            ws.recv(timeout=5)
        assert http.get("/readyz").status_code == 200
        views = [http.get(f"/api/rooms/{room}/view",
                          headers={"Authorization": f"Bearer {t}"}).json() for t in tokens]
        seat = next(i for i, v in enumerate(views) if v["legal"])
        version = views[seat]["version"]
        with write_lock(server.db_url, lock):
            ready = http.get("/readyz")
            assert ready.status_code == 503
            assert ready.json()["reason"] == "the database answers but takes no writes (locked?)"
            assert http.get("/healthz").status_code == 200
            sockets[seat].send(json.dumps({"action": views[seat]["legal"][0],
                                           "version": version}))
            for ws in sockets:  # every seat hears why the table waits
                frame = recv_until(ws, lambda f: NOTICE in f, timeout=10)
                assert frame_version(frame) == version, "nothing unsaved is shown"
        for ws in sockets:  # the write went through: the move, and no notice
            frame = recv_until(ws, lambda f: frame_version(f) == version + 1
                               and NOTICE not in f, timeout=20)
        assert http.get("/readyz").status_code == 200
    finally:
        for ws in sockets:
            ws.close()
        http.close()

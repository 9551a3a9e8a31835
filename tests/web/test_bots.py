"""Bots fill empty seats and play through the same room service as people."""

from __future__ import annotations

import time

from tests.conftest import Server
from tests.web.apiclient import Table


def test_host_fills_three_seats_with_bots_and_they_play_to_the_end(
        sqlite_server: Server) -> None:
    table = Table(sqlite_server.base, "schafkopf", options={"target": 1})
    seat, token = table.join("Anna")
    headers = {"Authorization": f"Bearer {table.host_token}"}
    r = table.http.post(f"/api/rooms/{table.room}/bots",
                        headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 403, "only the host seats bots"
    for expected in (1, 2, 3):
        r = table.http.post(f"/api/rooms/{table.room}/bots", headers=headers)
        assert r.status_code == 200 and r.json()["seat"] == expected
    assert table.http.post(f"/api/rooms/{table.room}/bots", headers=headers).status_code == 403
    assert table.start().status_code == 200
    deadline = time.monotonic() + 60
    while True:
        st = table.view(token)
        if st["status"] == "finished":
            break
        assert time.monotonic() < deadline, "the bots stopped playing"
        if st["legal"]:
            r = table.act(token, st["legal"][0], st["version"])
            assert r.status_code in (200, 409)
        else:
            time.sleep(0.02)
    assert st["view"]["winners"] in ([0, 2], [1, 3])
    assert all(name for name in st["seats"])

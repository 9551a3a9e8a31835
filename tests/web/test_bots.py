"""Bots fill empty seats and play through the same room service as people; the host
picks each bot's level."""

from __future__ import annotations

import time

from tests.conftest import Server
from tests.web.apiclient import Table
from tests.web.frames import frame_flash, recv_until
from tests.web.test_table_flow import host_socket


def test_host_fills_three_seats_with_bots_and_they_play_to_the_end(
        sqlite_server: Server) -> None:
    table = Table(sqlite_server.base, "schafkopf", options={"target": 1})
    seat, token = table.join("Anna")
    headers = {"Authorization": f"Bearer {table.host_token}"}
    r = table.http.post(f"/api/rooms/{table.room}/bots",
                        headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 403, "only the host seats bots"
    # strong bots (they think in the server's pool), in the team nobody sits in first,
    # from its far end: Anna's partner's seat stays free for a friend longest
    for expected in (3, 1, 2):
        r = table.http.post(f"/api/rooms/{table.room}/bots", headers=headers)
        assert r.status_code == 200 and r.json() == {"seat": expected, "level": "strong"}
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
    log = sqlite_server.log_path.read_text()
    assert "bot worker failed" not in log and "Traceback" not in log


def test_the_host_picks_a_bots_level_and_the_table_shows_it(sqlite_server: Server) -> None:
    table = Table(sqlite_server.base, "schafkopf")
    table.join("Anna")
    url = f"/api/rooms/{table.room}/bots"
    headers = {"Authorization": f"Bearer {table.host_token}"}
    for body, status in (({"level": "hard"}, 422), ({"level": 3}, 422), ([], 422)):
        r = table.http.post(url, headers=headers, json=body)
        assert r.status_code == status, r.text
        assert r.json()["error"]
        assert table.view()["seats"][1:] == [None, None, None], "nothing was seated"
    r = table.http.post(url, headers=headers, json={"level": "hard"})
    assert "easy" in r.json()["error"] and "strong" in r.json()["error"]
    german = table.http.post(url, json={"level": "hard"},
                             headers={**headers, "Accept-Language": "de"})
    assert german.status_code == 422 and "leicht" in german.json()["error"]
    seated = [table.http.post(url, headers=headers, json={"level": "easy"}).json(),
              table.http.post(url, headers=headers).json(),
              table.http.post(url, headers=headers, json={}).json()]
    assert seated == [{"seat": 3, "level": "easy"}, {"seat": 1, "level": "strong"},
                      {"seat": 2, "level": "strong"}]
    page = table.http.get(f"/r/{table.room}").text
    assert page.count("bot · easy") == 1 and page.count("bot · strong") == 2
    german_page = table.http.get(f"/r/{table.room}", headers={"Accept-Language": "de"}).text
    assert german_page.count("Bot · leicht") == 1 and german_page.count("Bot · stark") == 2


def test_the_hosts_socket_seats_a_bot_of_the_level_picked(sqlite_server: Server) -> None:
    table = Table(sqlite_server.base, "schafkopf")
    table.join("Anna")
    ws = host_socket(sqlite_server, table)
    ws.recv(timeout=5)
    # the waiting table's control: a level to pick, then "Seat a bot"
    page = table.http.get(f"/r/{table.room}",
                          headers={"Cookie": f"stammtisch_host={table.host_token}"}).text
    assert 'name="level"' in page and 'value="easy"' in page and 'value="strong"' in page
    ws.send('{"cmd": "add_bot", "level": "expert"}')  # refused, to the host only
    flash = frame_flash(recv_until(ws, lambda f: frame_flash(f) is not None)) or ""
    assert "easy" in flash and "strong" in flash
    assert table.view()["seats"][1:] == [None, None, None], "nothing was seated"
    ws.send('{"cmd": "add_bot", "level": "easy"}')
    recv_until(ws, lambda f: "bot · easy" in f)
    ws.send('{"cmd": "add_bot"}')
    recv_until(ws, lambda f: "bot · strong" in f)
    assert [name is not None for name in table.view()["seats"]] == [True, True, False, True]
    ws.close()

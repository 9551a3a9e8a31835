"""The JSON API against a real uvicorn process: four clients play a whole match."""

from __future__ import annotations

import random

import httpx

from tests.conftest import Server
from tests.web.apiclient import Table


def test_four_clients_play_a_whole_match_of_random_legal_moves(server: Server) -> None:
    table = Table(server.base, "schafkopf", options={"target": 3, "dealer": 0})
    seats = [table.join(name) for name in ("Anna", "Bert", "Cilli", "Done")]
    assert [s for s, _ in seats] == [0, 2, 1, 3], "who joins one after the other: partners"
    assert table.start().status_code == 200
    rng = random.Random(5)
    moves = 0
    while True:
        states = [table.view(token) for _, token in seats]
        if states[0]["view"]["phase"] == "over":
            break
        acting = [i for i, st in enumerate(states) if st["legal"]]
        assert len(acting) == 1, "exactly one seat may act in Schafkopf"
        seat = acting[0]
        st = states[seat]
        r = table.act(seats[seat][1], rng.choice(st["legal"]), st["version"])
        assert r.status_code == 200, r.text
        assert r.json()["version"] == st["version"] + 1
        moves += 1
    final = table.view()
    assert final["status"] == "finished"
    units = final["view"]["units"]
    assert max(units) >= 3 and moves % 32 == 0
    winners = final["view"]["winners"]
    assert winners in ([0, 2], [1, 3])
    assert all(final["view"]["scores"][w] == max(units) for w in winners)
    # the finished match is on the history page with its players
    page = httpx.get(server.base + "/history").text
    assert all(name in page for name in ("Anna", "Bert", "Cilli", "Done"))
    detail = httpx.get(f"{server.base}/history/{table.room}").text
    assert "Deals" in detail and "Anna" in detail


def test_api_refuses_bad_tokens_stale_versions_and_illegal_actions(server: Server) -> None:
    table = Table(server.base, "schafkopf", options={"dealer": 3}, seed=1)
    seats = [table.join(n) for n in ("A", "B", "C", "D")]
    # starting needs the host token
    r = table.http.post(f"/api/rooms/{table.room}/start")
    assert r.status_code == 401 and "host" in r.json()["error"]
    r = table.http.post(f"/api/rooms/{table.room}/start",
                        headers={"Authorization": f"Bearer {seats[0][1]}"})
    assert r.status_code == 403
    assert table.start().status_code == 200
    st = table.view(seats[0][1])
    before = table.view()
    # no token: 401; forged token: 403
    assert table.act(None, st["legal"][0], st["version"]).status_code == 401
    r = table.act("forged-token", st["legal"][0], st["version"])
    assert r.status_code == 403 and r.json()["error"]
    # stale version: 409
    r = table.act(seats[0][1], st["legal"][0], st["version"] - 1)
    assert r.status_code == 409
    # illegal action: 422 with a readable reason
    r = table.act(seats[1][1], "play:EO", st["version"])
    assert r.status_code == 422 and r.json()["error"]
    r = table.act(seats[0][1], "play:XX", st["version"])
    assert r.status_code == 422 and "error" in r.json()
    # malformed bodies: 422 with an error, never a crash
    r = table.http.post(f"/api/rooms/{table.room}/actions", content=b"{nope",
                        headers={"Authorization": f"Bearer {seats[0][1]}",
                                 "content-type": "application/json"})
    assert r.status_code == 422 and r.json()["error"]
    r = table.http.post(f"/api/rooms/{table.room}/actions", json={"action": 5},
                        headers={"Authorization": f"Bearer {seats[0][1]}"})
    assert r.status_code == 422
    # none of it changed anything
    assert table.view() == before
    # the double submit: the first counts, the second is stale
    action = st["legal"][0]
    assert table.act(seats[0][1], action, st["version"]).status_code == 200
    assert table.act(seats[0][1], action, st["version"]).status_code == 409
    assert table.view()["version"] == st["version"] + 1


def test_room_creation_and_joining_are_validated(server: Server) -> None:
    http = httpx.Client(base_url=server.base)
    assert http.post("/api/rooms", json={"game": "skat"}).status_code == 400
    assert http.post("/api/rooms", json={"game": "schafkopf", "players": 3}).status_code == 400
    r = http.post("/api/rooms", json={"game": "schafkopf", "options": {"target": 0}})
    assert r.status_code == 400 and "at least" in r.json()["error"]
    table = Table(server.base)
    assert len(table.room) >= 22  # 128 bits, URL-safe
    r = table.http.post(f"/api/rooms/{table.room}/join", json={"name": "   "})
    assert r.status_code == 400
    r = table.http.post(f"/api/rooms/{table.room}/join", json={"name": "x" * 25})
    assert r.status_code == 400
    table.join("Sepp")
    r = table.http.post(f"/api/rooms/{table.room}/join", json={"name": "sepp"})
    assert r.status_code == 400 and "name" in r.json()["error"]
    for n in ("B", "C", "D"):
        table.join(n)
    r = table.http.post(f"/api/rooms/{table.room}/join", json={"name": "Late"})
    assert r.status_code == 403
    assert http.get("/api/rooms/nope/view").status_code == 404
    games = http.get("/api/games").json()
    assert any(g["name"] == "schafkopf" and g["min_players"] == 4 for g in games)
    assert http.get("/docs").status_code == 200
    assert "/api/rooms/{room_id}/actions" in http.get("/openapi.json").json()["paths"]


def test_huge_bodies_are_refused_and_tables_are_never_cached(server: Server) -> None:
    table = Table(server.base, "schafkopf")
    r = table.http.post(f"/api/rooms/{table.room}/join",
                        content=b'{"name": "' + b"x" * 100_000 + b'"}',
                        headers={"content-type": "application/json"})
    assert r.status_code == 413 and "too large" in r.json()["error"]
    r = table.http.post(f"/api/rooms/{table.room}/join", json={"name": "y" * 300})
    assert r.status_code == 422
    _, token = table.join("Anna")
    r = table.http.get(f"/api/rooms/{table.room}/view",
                       headers={"Authorization": f"Bearer {token}"})
    assert r.headers["cache-control"] == "no-store"
    assert httpx.get(f"{server.base}/r/{table.room}").headers["cache-control"] == "no-store"

"""What is shared, is shared: two apps (two server processes) on one PostgreSQL schema,
room leases on (``ROOM_LEASES=auto``). The lobby opens a room on either; history and
standings read the database and are the same on both; a rematch made on the server
of the old room is followed (``/r/{old}/next``) from the other, which takes the new
room over (the handback), carrying the seat cookie on; the old room's page there
sends its visitors after the rematch. A finished room without a rematch stays with
its server, and the other answers 503 for it. A room's chat lives with the server
that serves it."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, update

from app.db import Database
from app.db.models import MatchRow
from app.main import create_app
from tests.web.test_lobby_errors import entered

pytestmark = pytest.mark.postgres
ORIGIN = {"Origin": "http://testserver"}
PAGE = {"Accept": "text/html"}


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture
def two(pg_url: str) -> Iterator[tuple[TestClient, TestClient]]:
    with TestClient(create_app(pg_url), headers=ORIGIN) as a, \
            TestClient(create_app(pg_url), headers=ORIGIN) as b:
        yield a, b


def _rooms(client: TestClient) -> set[str]:
    return set(client.app.state.rooms.rooms)  # type: ignore[attr-defined]


def test_lobby_history_standings_and_rematch_work_from_either_server(
        two: tuple[TestClient, TestClient]) -> None:
    a, b = two
    assert a.app.state.rooms.leases is not None  # type: ignore[attr-defined]

    # the lobby opens a room on either server; the room's page on the other takes it
    assert a.get("/", headers=PAGE).status_code == b.get("/", headers=PAGE).status_code == 200
    opened = b.post("/rooms", data=entered("schafkopf"), follow_redirects=False)
    assert opened.status_code == 303, opened.text
    room = opened.headers["location"].removeprefix("/r/")
    assert room in _rooms(b)
    page = a.get(f"/r/{room}", headers=PAGE)
    assert page.status_code == 200 and room in _rooms(a) and room not in _rooms(b)

    # a match played to its end on a
    made = a.post("/api/rooms", json={"game": "mauscheln", "players": 3,
                                      "options": {"chips": 20}})
    assert made.status_code == 201, made.text
    old, host = made.json()["room"], made.json()["host_token"]
    anna = a.post(f"/api/rooms/{old}/join", json={"name": "Anna Shared"}).json()["token"]
    for _ in range(2):
        assert a.post(f"/api/rooms/{old}/bots", headers=_auth(host)).status_code == 200
    assert a.post(f"/api/rooms/{old}/start", headers=_auth(host)).status_code == 200
    ended = a.post(f"/api/rooms/{old}/end", headers=_auth(host))
    assert ended.status_code == 200 and ended.json()["status"] == "finished"

    # history and standings: the same on both servers
    for client in (a, b):
        assert old in client.get("/history", headers=PAGE).text
        record = client.get(f"/history/{old}", headers=PAGE)
        assert record.status_code == 200 and "Anna Shared" in record.text
        standings = client.get("/standings?game=mauscheln", headers=PAGE)
        assert standings.status_code == 200 and "Anna Shared" in standings.text

    # a finished room without a rematch stays with its server (its final table and
    # "Play again" are only there): the other refuses it for now, and a keeps it
    refused = b.post(f"/api/rooms/{old}/rematch", headers=_auth(host))
    assert refused.status_code == 503 and refused.headers["retry-after"] == "2"
    assert "served by another server" in refused.json()["error"]
    assert old in _rooms(a) and old not in _rooms(b)

    # the rematch, made on the old room's server, followed from the other
    again = a.post(f"/api/rooms/{old}/rematch", headers=_auth(host))
    assert again.status_code == 201, again.text
    new = again.json()["room"]
    assert new in _rooms(a)
    cookie = {"Cookie": f"stammtisch_seat={anna}", **PAGE}
    follow = b.get(f"/r/{old}/next", headers=cookie, follow_redirects=False)
    assert follow.status_code == 303 and follow.headers["location"] == f"/r/{new}"
    assert f"stammtisch_seat={anna}" in follow.headers["set-cookie"]
    assert f"Path=/r/{new}" in follow.headers["set-cookie"]
    assert new in _rooms(b) and new not in _rooms(a), "handed over to b"
    view = b.get(f"/api/rooms/{new}/view", headers=_auth(anna))
    assert view.status_code == 200 and view.json()["view"]["seat"] == 0
    # the old room (a's, finished) sends visitors of b's after its rematch too
    moved = b.get(f"/r/{old}", headers=PAGE, follow_redirects=False)
    assert moved.status_code == 303 and moved.headers["location"] == f"/r/{old}/next"

    # a room's chat lives with its server; the other takes the room to post in it
    said = b.post(f"/api/rooms/{new}/chat", headers=_auth(anna), json={"text": "hallo"})
    assert said.status_code == 201, said.text
    heard = a.get(f"/api/rooms/{new}/chat", headers=_auth(anna))
    assert heard.status_code == 200 and [m["text"] for m in heard.json()["messages"]] == [
        "hallo"]
    assert new in _rooms(a) and new not in _rooms(b)


def test_a_join_refused_by_the_fence_is_a_503_page_not_a_closed_table(
        two: tuple[TestClient, TestClient], pg_url: str) -> None:
    """a's lease ran out (it missed its renewals) and b took the room: a's next write
    of it, a person joining by the form, is refused by the fence (app.rooms.writes),
    and the browser is told to try again, not that the table closed."""
    a, b = two
    made = a.post("/api/rooms", json={"game": "schafkopf"})
    room = made.json()["room"]
    db = Database(pg_url)
    try:
        db.run_sync(lambda session: session.execute(
            update(MatchRow).where(MatchRow.id == room)
            .values(lease_until=func.now() - timedelta(seconds=1))))
    finally:
        db.close()
    assert b.get(f"/api/rooms/{room}/view").status_code == 200  # b takes it
    assert room in _rooms(a) and room in _rooms(b)  # a does not know yet
    page = a.post(f"/r/{room}/join", data={"name": "Anna"}, headers=PAGE)
    assert page.status_code == 503 and page.headers["retry-after"] == "2"
    assert "another server" in page.text
    assert room not in _rooms(a)
    view = b.get(f"/api/rooms/{room}/view").json()
    assert view["seats"] == [None, None, None, None], "nothing was written"

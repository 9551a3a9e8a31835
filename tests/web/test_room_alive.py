"""What keeps a room alive, over real table sockets (issue 25 item 4): before the
start the host's own page does, seated or not; a visitor's page does not; after the
start only a seated person's page does (``app.rooms.quotas``)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.main import create_app
from app.rooms import presence
from app.web.deps import HOST_COOKIE
from tests.conftest import migrate


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    url = f"sqlite:///{tmp_path / 'alive.db'}"
    migrate(url)
    with TestClient(create_app(url), headers={"Origin": "http://testserver"}) as c:
        yield c


def test_the_hosts_page_keeps_a_waiting_table_and_a_visitors_does_not(
        client: TestClient) -> None:
    app: Any = client.app
    made = client.post("/api/rooms", json={"game": "schafkopf"}).json()
    room = app.state.rooms.get(made["room"])
    with client.websocket_connect(f"/r/{room.id}/ws") as ws:  # no cookie: a visitor
        ws.receive_text()
        assert not presence.pages_open(room), "somebody looking keeps nothing"
    assert room.last_left == room.created
    client.cookies.set(HOST_COOKIE, made["host_token"], path=f"/r/{room.id}")
    with client.websocket_connect(f"/r/{room.id}/ws") as ws:
        ws.receive_text()
        assert room.host_pages == 1 and presence.pages_open(room)
    assert room.host_pages == 0 and not presence.pages_open(room)
    left = room.last_left
    assert left > room.created, "the page's closing is when the idle limit counts from"
    joined = client.post(f"/r/{room.id}/join", data={"name": "Anna"}, follow_redirects=False)
    assert joined.status_code == 303
    with client.websocket_connect(f"/r/{room.id}/ws") as ws:  # the host, seated now
        ws.receive_text()
        assert room.host_pages == 0 and presence.is_connected(room, 0)
        assert presence.pages_open(room)
    assert not presence.pages_open(room) and room.last_left > left

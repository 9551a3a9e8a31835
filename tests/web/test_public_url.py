"""Links are made from PUBLIC_URL, or from a request's Host only when it is a valid
host name; a room's QR code is drawn once per link and language, and the drawings of
one client are limited (issue 25 item 3: a 2,000-character Host cost 120-160 ms of
the event loop per QR code, 2,300 gave a 500)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from pydantic import ValidationError

from app.config import Settings
from app.hosts import public_origin, valid_host
from app.web.share import qr_svg
from tests.conftest import Server, migrate
from tests.web.apiclient import Table

PUBLIC = "https://cards.example.org"
TITLE = "QR code of the room link"


def _server(tmp_path: Path, **env: str) -> Server:
    url = f"sqlite:///{tmp_path / 'links.db'}"
    migrate(url)
    return Server(url, tmp_path / "server.log", env=env).start()


@pytest.fixture
def public_server(tmp_path: Path) -> Iterator[Server]:
    srv = _server(tmp_path, PUBLIC_URL=PUBLIC + "/")
    yield srv
    srv.stop()


def test_host_names() -> None:
    for good in ("localhost", "localhost:8000", "192.168.178.20:8000", "cards.example.org",
                 "Cards.Example.Org.", "stammtisch_app_1:8000", "[::1]:8000", "[fe80::1]",
                 ".".join(["a" * 63] * 3) + "." + "b" * 61):
        assert valid_host(good), good
    for bad in ("", "a" * 254, ".".join(["a" * 64, "org"]), "a..b", "-a.org", "a b",
                "cards.example.org:0", "cards.example.org:65536", "host:port",
                "[::1", "[not:an:address]", "[127.0.0.1]", "user@host", "a/b", "a.org:80:80",
                "x" * 2000):
        assert not valid_host(bad), bad
    assert public_origin("HTTPS://Cards.Example.org/") == PUBLIC
    assert public_origin("http://192.168.178.20:8000") == "http://192.168.178.20:8000"
    for bad in ("cards.example.org", "ftp://cards.example.org", "https://cards.example.org/x",
                "https://cards.example.org/?a=1", "https://u:p@cards.example.org",
                "https://" + "a" * 300):
        with pytest.raises(ValueError):
            public_origin(bad)
    with pytest.raises(ValidationError):
        Settings(public_url="cards.example.org")
    assert Settings(public_url="").public_url == ""
    assert Settings(public_url="https://cards.example.org/").public_url == PUBLIC


def test_a_made_up_host_gets_a_clear_400_and_nothing_is_drawn(sqlite_server: Server) -> None:
    table = Table(sqlite_server.base, "schafkopf")
    with httpx.Client(base_url=sqlite_server.base, timeout=30) as http:
        for length in (2_000, 2_300, 254):
            host = {"Host": "a" * length}
            r = http.get(f"/r/{table.room}/qr.svg", headers=host)
            assert r.status_code == 400, (length, r.status_code)
            assert "not a valid host name" in r.json()["error"]
            assert http.get(f"/r/{table.room}", headers={
                **host, "Accept": "text/html"}).status_code == 400
            created = http.post("/api/rooms", json={"game": "schafkopf"}, headers=host)
            assert created.status_code == 400 and "Host" in created.json()["error"]
        # the longest real name is a link like any other
        longest = ".".join(["a" * 63] * 3) + "." + "b" * 61
        r = http.get(f"/r/{table.room}/qr.svg", headers={"Host": longest})
        assert r.status_code == 200
        assert r.text == qr_svg(f"http://{longest}/r/{table.room}", TITLE)
        # in German: the same refusal in German
        r = http.get(f"/r/{table.room}/qr.svg?lang=de", headers={"Host": "a b"})
        assert r.status_code == 400 and "Host" in r.json()["error"]
        assert "not a valid" not in r.json()["error"]


def test_every_link_is_made_from_public_url(public_server: Server) -> None:
    base = public_server.base
    table = Table(base, "mauscheln", players=3, seed=2)
    assert table.url == f"{PUBLIC}/r/{table.room}"  # the API's url, whatever the Host
    http = table.http
    page = http.get(f"/r/{table.room}").text
    assert f'id="room-link" readonly value="{PUBLIC}/r/{table.room}"' in page
    for host in (None, "evil.example", "a" * 2000):  # the Host plays no part
        r = http.get(f"/r/{table.room}/qr.svg", headers={"Host": host} if host else {})
        assert r.status_code == 200, host
        assert r.text == qr_svg(f"{PUBLIC}/r/{table.room}", TITLE)
    # the rematch's url
    auth = {"Authorization": f"Bearer {table.host_token}"}
    for name in ("Anna", "Bert", "Cilli"):
        table.join(name)
    assert table.start().status_code == 200
    assert http.post(f"/api/rooms/{table.room}/end", headers=auth).status_code == 200
    r = http.post(f"/api/rooms/{table.room}/rematch", headers=auth)
    assert r.status_code == 201 and r.json()["url"] == f"{PUBLIC}/r/{r.json()['room']}"
    # forms from the public origin are this server's own, whatever Host the proxy sent
    with httpx.Client(base_url=base, timeout=10, headers={"Origin": PUBLIC}) as browser:
        r = browser.post("/rooms", data={"game": "mauscheln", "mauscheln.players": "3"})
        assert r.status_code == 303, r.text
        room = r.headers["location"].rsplit("/", 1)[1]
        assert browser.post(f"/r/{room}/join", data={"name": "Anna"}).status_code == 303
        # "link another browser": its link and QR code on the public address too
        r = browser.post("/players/link")
        assert r.status_code == 200, r.text
        link = re.search(r'id="player-link" readonly value="([^"]+)"', r.text)
        assert link is not None and link[1].startswith(f"{PUBLIC}/players/link/")
        assert qr_svg(link[1], "QR code of the link for your other browser") in r.text
        refused = browser.post("/rooms", data={"game": "mauscheln"},
                               headers={"Origin": "https://evil.example"})
        assert refused.status_code == 403


def test_a_rooms_code_is_drawn_once_and_drawings_are_limited(tmp_path: Path) -> None:
    server = _server(tmp_path, RATE_QR="2/minute")
    try:
        table = Table(server.base, "schafkopf")
        other = Table(server.base, "schafkopf")
        http = table.http
        first = http.get(f"/r/{table.room}/qr.svg")
        assert first.status_code == 200
        for _ in range(5):  # the same link again: the code drawn before, not counted
            again = http.get(f"/r/{table.room}/qr.svg")
            assert again.status_code == 200 and again.text == first.text
        assert http.get(f"/r/{other.room}/qr.svg").status_code == 200  # drawing 2
        r = http.get(f"/r/{table.room}/qr.svg", headers={"Host": "cards.example.org"})
        assert r.status_code == 429, "a third code drawn within the minute"
        assert int(r.headers["retry-after"]) > 0 and "QR codes" in r.json()["error"]
        # what was drawn is still there; the other room's page still loads
        assert http.get(f"/r/{table.room}/qr.svg").text == first.text
        assert http.get(f"/r/{other.room}").status_code == 200
        # "link another browser" draws a code for each link: it counts too
        with httpx.Client(base_url=server.base, timeout=10,
                          headers={"Origin": server.base}) as browser:
            assert browser.post(f"/r/{table.room}/join",
                                data={"name": "Anna"}).status_code == 303
            r = browser.post("/players/link", headers={"Accept": "text/html"})
            assert r.status_code == 429, r.text
    finally:
        server.stop()

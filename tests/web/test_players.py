"""A person is their browser (issue 24): the long-lived player cookie, shown by name.
Three browsers named Anna are three rows of the standings; one browser that plays
twice is one; API clients carry their player token. The player token and its hash
never reach another browser: not in pages, frames or other people's API answers."""

from __future__ import annotations

import re
from collections.abc import Iterator

import httpx
import pytest
from websockets.sync.client import connect

from app.db.repo import token_hash
from tests.conftest import Server
from tests.web.apiclient import Table

PLAYER_COOKIE = "stammtisch_player"


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _browser(server: Server) -> httpx.Client:
    return httpx.Client(base_url=server.base, headers={"Origin": server.base}, timeout=10)


def _form_join(browser: httpx.Client, room: str, name: str) -> httpx.Response:
    r = browser.post(f"/r/{room}/join", data={"name": name})
    assert r.status_code == 303, r.text
    return r


def _mauscheln_with_bots(server: Server) -> Table:
    """A Mauscheln table for three (the host is an API client, not seated)."""
    return Table(server.base, "mauscheln", players=3, options={"chips": 20})


def _fill_start_end(table: Table) -> None:
    while table.view()["seats"].count(None):
        r = table.http.post(f"/api/rooms/{table.room}/bots", headers=_auth(table.host_token))
        assert r.status_code == 200, r.text
    assert table.start().status_code == 200
    assert table.http.post(f"/api/rooms/{table.room}/end",
                           headers=_auth(table.host_token)).status_code == 200


def _people(page: str) -> list[tuple[str, str, bool]]:
    """The ranked people of a standings page: (name, played, marked as you)."""
    ranked = page.partition("<h2>Bots</h2>")[0]
    return [(name, played, bool(you)) for name, you, played in re.findall(
        r"<tr[^>]*><td>\d+</td><td>([^<]+)(<span class=\"you\">[^<]*</span>)?</td>"
        r"<td>(\d+)</td>", ranked)]


@pytest.fixture
def annas(sqlite_server: Server) -> Iterator[list[httpx.Client]]:
    browsers = [_browser(sqlite_server) for _ in range(3)]
    yield browsers
    for b in browsers:
        b.close()


def test_three_browsers_named_anna_are_three_people(sqlite_server: Server,
                                                    annas: list[httpx.Client]) -> None:
    for browser in [*annas, annas[0]]:  # the first Anna plays twice
        table = _mauscheln_with_bots(sqlite_server)
        _form_join(browser, table.room, "Anna")
        _fill_start_end(table)
        table.close()
    first = annas[0].get("/standings?game=mauscheln").text
    assert sorted(_people(first)) == [("Anna", "1", False), ("Anna", "1", False),
                                      ("Anna", "2", True)]
    second = annas[1].get("/standings?game=mauscheln").text
    assert sorted(_people(second)) == [("Anna", "1", False), ("Anna", "1", True),
                                       ("Anna", "2", False)]
    with httpx.Client(base_url=sqlite_server.base) as stranger:  # no cookie: nobody's "you"
        assert not any(you for *_, you in _people(stranger.get("/standings?game=mauscheln")
                                                  .text))


def test_the_player_cookie_is_long_lived_http_only_and_secure_over_https(
        sqlite_server: Server) -> None:
    table = _mauscheln_with_bots(sqlite_server)
    with _browser(sqlite_server) as plain:
        r = _form_join(plain, table.room, "Anna")
        cookie = next(c for c in r.headers.get_list("set-cookie")
                      if c.startswith(PLAYER_COOKIE + "="))
        attributes = cookie.lower()
        assert "httponly" in attributes and "path=/;" in attributes + ";"
        assert "samesite=lax" in attributes and "secure" not in attributes
        assert f"max-age={400 * 24 * 3600}" in attributes
        token = plain.cookies[PLAYER_COOKIE]
        # the same browser at the next table keeps its player token
        other = _mauscheln_with_bots(sqlite_server)
        _form_join(plain, other.room, "Anna")
        assert plain.cookies[PLAYER_COOKIE] == token
        other.close()
    # behind the trusted proxy (127.0.0.1) that says the browser came over HTTPS
    with httpx.Client(base_url=sqlite_server.base, timeout=10, headers={
            "Origin": "https://cards.example.org", "Host": "cards.example.org",
            "X-Forwarded-Proto": "https"}) as secure:
        r = secure.post(f"/r/{table.room}/join", data={"name": "Bert"})
        assert r.status_code == 303, r.text
        cookies = [c.lower() for c in r.headers.get_list("set-cookie")]
        assert len(cookies) == 2 and all("; secure" in c for c in cookies)
    table.close()


def test_api_clients_are_the_player_token_they_bring(sqlite_server: Server) -> None:
    first = _mauscheln_with_bots(sqlite_server)
    first.join("Vroni")
    player = first.players[0]
    assert len(player) >= 20
    _fill_start_end(first)
    second = _mauscheln_with_bots(sqlite_server)
    second.join("Vroni", player)  # the same script again: the same person
    assert second.players == [player]
    third = _mauscheln_with_bots(sqlite_server)
    third.join("Vroni")  # another script that calls itself Vroni: somebody else
    assert third.players[0] != player
    for table in (second, third):
        _fill_start_end(table)
    page = first.http.get("/standings?game=mauscheln").text
    assert sorted(_people(page)) == [("Vroni", "1", False), ("Vroni", "2", False)]
    bad = first.http.post(f"/api/rooms/{_mauscheln_with_bots(sqlite_server).room}/join",
                          json={"name": "Eve", "player": "<script>"})
    assert bad.status_code == 400 and "player token" in bad.json()["error"]
    for table in (first, second, third):
        table.close()


def test_the_player_token_never_reaches_anybody_else(sqlite_server: Server) -> None:
    """Anna's browser and an API client share a table: neither Anna's player token nor
    its hash is in what the others get (pages, frames, API answers), nor in any page."""
    table = _mauscheln_with_bots(sqlite_server)
    with _browser(sqlite_server) as anna:
        _form_join(anna, table.room, "Anna")
        token = anna.cookies[PLAYER_COOKIE]
        secrets = (token, token_hash(token), token_hash(token)[:16])
        table.join("Bert")
        bert_player = table.players[0]
        seen: list[str] = []
        with connect(f"{sqlite_server.ws_base}/r/{table.room}/ws",
                     additional_headers=_auth(table.tokens[0]), proxy=None) as bert, \
                connect(f"{sqlite_server.ws_base}/r/{table.room}/ws", proxy=None) as watcher:
            seen += [str(bert.recv(timeout=10)), str(watcher.recv(timeout=10))]
            _fill_start_end(table)
            for ws in (bert, watcher):
                while True:
                    try:
                        seen.append(str(ws.recv(timeout=1)))
                    except TimeoutError:
                        break
        seen += [table.http.get(f"/api/rooms/{table.room}/view",
                                headers=_auth(table.tokens[0])).text,
                 str(table.view())]
        with httpx.Client(base_url=sqlite_server.base) as stranger:
            for path in (f"/r/{table.room}", f"/history/{table.room}",
                         f"/history/{table.room}/replay", "/standings?game=mauscheln",
                         "/history", f"/r/{table.room}/ledger",
                         f"/api/rooms/{table.room}/chat"):
                seen.append(stranger.get(path, follow_redirects=True).text)
        # Anna's own pages carry it only in the cookie, never in the page
        seen += [anna.get(path).text for path in (
            f"/history/{table.room}", "/standings?game=mauscheln")]
        assert len(seen) > 8
        for text in seen:
            for secret in secrets:
                assert secret not in text
            assert bert_player not in text
    table.close()


def test_that_was_me_links_two_browsers_into_one_player(sqlite_server: Server,
                                                        annas: list[httpx.Client]) -> None:
    phone, laptop, stranger = annas
    for browser in (phone, laptop):
        table = _mauscheln_with_bots(sqlite_server)
        _form_join(browser, table.room, "Anna")
        _fill_start_end(table)
        table.close()
    assert sorted(_people(phone.get("/standings?game=mauscheln").text)) == [
        ("Anna", "1", False), ("Anna", "1", True)]
    assert "/players/link" in phone.get("/standings?game=mauscheln").text
    assert "/players/link" not in stranger.get("/standings?game=mauscheln").text
    assert stranger.post("/players/link").status_code == 400  # never played: nothing to link

    made = phone.post("/players/link")
    assert made.status_code == 200
    link = re.search(r'id="player-link" readonly value="([^"]+)"', made.text).group(1)  # type: ignore[union-attr]
    path = httpx.URL(link).path
    assert phone.get(path).status_code == 200 and "made the link" in phone.get(path).text
    assert "Yes, that was me" in laptop.get(path).text
    with httpx.Client(base_url=sqlite_server.base, cookies=laptop.cookies,
                      headers={"Origin": "https://evil.example"}) as forged:
        assert forged.post(path).status_code == 403  # and the link still works
    done = laptop.post(path)
    assert done.status_code == 303 and done.headers["location"] == "/standings?linked=1"
    assert laptop.cookies[PLAYER_COOKIE] == phone.cookies[PLAYER_COOKIE]
    for browser in (phone, laptop):
        assert _people(browser.get("/standings?game=mauscheln").text) == [("Anna", "2", True)]
    assert laptop.post(path).status_code == 404, "a link works once"
    # what the laptop plays from now on counts for the same person
    table = _mauscheln_with_bots(sqlite_server)
    _form_join(laptop, table.room, "Anna")
    _fill_start_end(table)
    table.close()
    assert _people(phone.get("/standings?game=mauscheln").text) == [("Anna", "3", True)]


def test_the_api_never_answers_with_a_browsers_player_cookie(sqlite_server: Server) -> None:
    """The player cookie is HttpOnly: a join over the API from that browser (a page's
    script) is a player of its own and does not get the cookie's value back."""
    table = _mauscheln_with_bots(sqlite_server)
    with _browser(sqlite_server) as anna:
        _form_join(anna, table.room, "Anna")
        cookie = anna.cookies[PLAYER_COOKIE]
        other = _mauscheln_with_bots(sqlite_server)
        r = anna.post(f"/api/rooms/{other.room}/join", json={"name": "Anna"})
        assert r.status_code == 200
        assert r.json()["player"] != cookie and cookie not in r.text
        other.close()
    table.close()

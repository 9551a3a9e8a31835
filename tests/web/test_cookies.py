"""Every cookie the app sets goes through the one helper (``app.web.deps.set_cookie``):
HttpOnly, SameSite=Lax, and ``Secure`` whenever the request came over HTTPS (here: the
trusted proxy on 127.0.0.1 says so with ``X-Forwarded-Proto``). Issue 25 item 6: the
rematch's ``/r/{old}/next`` carried the seat and host cookies without ``Secure``, and
the language cookie was ``Secure`` only with ``SECURE_COOKIES``."""

from __future__ import annotations

import re
from pathlib import Path

import httpx

from tests.conftest import ROOT, Server

HTTPS = {"Host": "cards.example.org", "Origin": "https://cards.example.org",
         "X-Forwarded-Proto": "https"}


def _cookies(r: httpx.Response) -> dict[str, str]:
    """The cookies an answer sets: name -> the whole Set-Cookie header."""
    return {h.split("=", 1)[0]: h for h in r.headers.get_list("set-cookie")}


def _value(header: str) -> str:
    return header.split(";", 1)[0].split("=", 1)[1]


def _assert_safe(header: str) -> None:
    attributes = [a.strip().lower() for a in header.split(";")[1:]]
    assert "secure" in attributes, header
    assert "httponly" in attributes, header
    assert "samesite=lax" in attributes, header


def _finished_with_rematch(http: httpx.Client) -> tuple[str, str, dict[str, str]]:
    """A Mauscheln table opened and joined by forms (Anna and two bots), ended by the
    host, and its rematch: the old room, the new one, and the cookies of the forms."""
    r = http.post("/rooms", data={"game": "mauscheln", "mauscheln.players": "3"})
    assert r.status_code == 303, r.text
    room = r.headers["location"].rsplit("/", 1)[1]
    cookies = _cookies(r)
    r = http.post(f"/r/{room}/join", data={"name": "Anna"})
    assert r.status_code == 303, r.text
    cookies.update(_cookies(r))
    auth = {"Authorization": f"Bearer {_value(cookies['stammtisch_host'])}"}
    for _ in range(2):
        assert http.post(f"/api/rooms/{room}/bots", headers=auth).status_code == 200
    assert http.post(f"/api/rooms/{room}/start", headers=auth).status_code == 200
    assert http.post(f"/api/rooms/{room}/end", headers=auth).status_code == 200
    r = http.post(f"/api/rooms/{room}/rematch", headers=auth)
    assert r.status_code == 201, r.text
    return room, r.json()["room"], cookies


def test_the_rematch_carries_the_room_cookies_secure_over_https(
        sqlite_server: Server) -> None:
    with httpx.Client(base_url=sqlite_server.base, headers=HTTPS, timeout=10) as http:
        room, new_room, cookies = _finished_with_rematch(http)
        seat, host = _value(cookies["stammtisch_seat"]), _value(cookies["stammtisch_host"])
        # the old table's page follows the rematch with its cookies
        r = http.get(f"/r/{room}/next", headers={
            "Cookie": f"stammtisch_seat={seat}; stammtisch_host={host}"})
        assert r.status_code == 303 and r.headers["location"] == f"/r/{new_room}"
        carried = _cookies(r)
    assert set(carried) == {"stammtisch_seat", "stammtisch_host"}
    assert _value(carried["stammtisch_seat"]) == seat
    for header in [cookies["stammtisch_seat"], cookies["stammtisch_host"],
                   *carried.values()]:
        _assert_safe(header)
        assert "path=/r/" in header.lower()


def test_the_player_and_language_cookies_are_secure_over_https(
        sqlite_server: Server) -> None:
    seen: list[str] = []
    with httpx.Client(base_url=sqlite_server.base, headers=HTTPS, timeout=10) as http:
        _room, _new, cookies = _finished_with_rematch(http)
        player = _value(cookies["stammtisch_player"])
        seen.append(cookies["stammtisch_player"])
        # the language, by the switch and by ?lang=
        for path in ("/lang/de?next=/", "/history?lang=en"):
            got = _cookies(http.get(path))
            assert set(got) == {"stammtisch_lang"}, path
            seen.append(got["stammtisch_lang"])
        # "that was me": the other browser gets the first one's player cookie
        r = http.post("/players/link", headers={"Cookie": f"stammtisch_player={player}"})
        assert r.status_code == 200, r.text
        code = re.search(r'/players/link/([\w-]+)"', r.text)
        assert code is not None
        r = http.post(f"/players/link/{code[1]}")
        assert r.status_code == 303, r.text
        got = _cookies(r)
        assert _value(got["stammtisch_player"]) == player
        seen.append(got["stammtisch_player"])
    for header in seen:
        _assert_safe(header)


def test_no_cookie_is_set_outside_the_helper() -> None:
    """Only app/web/deps.py calls Starlette's ``set_cookie``; a middleware that writes
    a Set-Cookie header itself takes it from ``deps.cookie_header``."""
    for path in sorted((ROOT / "app").rglob("*.py")):
        text = path.read_text()
        where = path.relative_to(ROOT)
        if where == Path("app/web/deps.py"):
            assert ".set_cookie(" in text
            continue
        assert ".set_cookie(" not in text, where
        if re.search(r"[\"']set-cookie[\"']", text, re.I):
            assert "cookie_header(" in text, where

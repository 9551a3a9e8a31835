"""Every page and answer carries the security headers (CSP without inline script,
nosniff, no framing, a referrer policy), and no page holds inline script, inline
event handlers, ``javascript:`` links or ``<style>`` elements the CSP would block.
Cookies are Secure by themselves when the request came over HTTPS."""

from __future__ import annotations

import re

import httpx
import pytest
from fastapi.testclient import TestClient

from app.main import create_app
from app.web.security import CSP
from tests.conftest import Server
from tests.web.apiclient import Table

INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)[^>]*>", re.I)
INLINE_HANDLER = re.compile(r"<[^>]+\son[a-z]+\s*=", re.I)
STYLE_ELEMENT = re.compile(r"<style[\s>]", re.I)


def _finished_and_open_rooms(base: str) -> tuple[str, str, str]:
    """A finished Mauscheln match (host ended it), an open one and a waiting one."""
    done = Table(base, "mauscheln", players=3, seed=4)
    for name in ("Anna", "Bert", "Cilli"):
        done.join(name)
    assert done.start().status_code == 200
    auth = {"Authorization": f"Bearer {done.host_token}"}
    assert done.http.post(f"/api/rooms/{done.room}/end", headers=auth).status_code == 200
    playing = Table(base, "mauscheln", players=3, seed=5)
    for name in ("Anna", "Bert", "Cilli"):
        playing.join(name)
    assert playing.start().status_code == 200
    waiting = Table(base, "schafkopf")
    return done.room, playing.room, waiting.room


def test_every_page_has_the_headers_and_no_inline_script(sqlite_server: Server) -> None:
    done, playing, waiting = _finished_and_open_rooms(sqlite_server.base)
    pages = ["/", "/history", "/history?game=mauscheln", "/standings",
             f"/history/{done}", f"/history/{done}/replay", f"/history/{done}/replay?step=2",
             f"/r/{done}/ledger", f"/r/{playing}", f"/r/{playing}/ledger", f"/r/{waiting}",
             "/r/no-such-room", "/history/no-such-match", "/docs"]
    other = ["/openapi.json", "/api/games", "/healthz", "/readyz", "/static/js/table.js",
             "/static/css/app.css", "/api/rooms/nope/view", "/no-such-page"]
    with httpx.Client(base_url=sqlite_server.base) as http:
        for path in pages + other:
            r = http.get(path)
            assert r.status_code < 500, path
            h = r.headers
            assert h["content-security-policy"] == CSP, path
            assert h["x-content-type-options"] == "nosniff", path
            assert h["x-frame-options"] == "DENY", path
            assert h["referrer-policy"] == "same-origin", path
            if path in pages:
                assert "text/html" in h["content-type"], path
                assert not INLINE_SCRIPT.search(r.text), (path, INLINE_SCRIPT.search(r.text))
                assert not INLINE_HANDLER.search(r.text), (path,
                                                           INLINE_HANDLER.search(r.text))
                assert "javascript:" not in r.text, path
                assert not STYLE_ELEMENT.search(r.text), path
        # the table pages and the API are never cached
        assert http.get(f"/r/{playing}").headers["cache-control"] == "no-store"
        assert http.get("/api/games").headers["cache-control"] == "no-store"
        # a form refused for its size gets them too
        big = http.post("/rooms", data={"game": "x" * 70_000},
                        headers={"Origin": sqlite_server.base})
        assert big.status_code == 413 and big.headers["x-frame-options"] == "DENY"
    assert "frame-ancestors 'none'" in CSP and "script-src 'self'" in CSP
    assert "unsafe-eval" not in CSP and "'unsafe-inline'" not in CSP.split(
        "style-src-attr")[0], "inline script and eval stay forbidden"


def test_docs_are_served_from_this_server(sqlite_server: Server) -> None:
    page = httpx.get(sqlite_server.base + "/docs").text
    assert "cdn" not in page.lower() and "https://" not in page
    for asset in re.findall(r'(?:src|href)="(/static/[^"]+)"', page):
        assert httpx.get(sqlite_server.base + asset).status_code == 200, asset
    assert re.search(r'"/static/vendor/swagger-ui/swagger-ui-bundle\.[0-9a-f]{10}\.js"', page)
    assert re.search(r'"/static/js/docs\.[0-9a-f]{10}\.js"', page)
    assert httpx.get(sqlite_server.base + "/redoc").status_code == 404


@pytest.mark.parametrize(("headers", "client", "secure"), [
    ({}, "127.0.0.1", False),
    ({"X-Forwarded-Proto": "https"}, "127.0.0.1", True),  # a trusted proxy said HTTPS
    ({"X-Forwarded-Proto": "https"}, "203.0.113.9", False),  # anybody else: ignored
])
def test_cookies_are_secure_when_the_request_came_over_https(
        headers: dict[str, str], client: str, secure: bool, tmp_path) -> None:  # noqa: ANN001
    """uvicorn's proxy-headers middleware (what --proxy-headers installs) trusts
    FORWARDED_ALLOW_IPS only; the seat cookie follows the scheme it reports."""
    from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

    from tests.conftest import migrate

    url = f"sqlite:///{tmp_path / 'cookies.db'}"
    migrate(url)
    app = create_app(url)
    proxied = ProxyHeadersMiddleware(app, trusted_hosts="127.0.0.1")
    with TestClient(proxied, client=(client, 50000), base_url="http://table.example") as http:
        r = http.post("/rooms", data={"game": "schafkopf"}, follow_redirects=False,
                      headers={**headers, "Origin": "http://table.example"})
        assert r.status_code == 303, r.text
        cookie = r.headers["set-cookie"]
        assert ("; secure" in cookie.lower()) is secure, cookie
        assert "httponly" in cookie.lower()
        hsts = r.headers.get("strict-transport-security")
        assert (hsts is not None) is secure

"""Static files: content-hashed names cached for a year, plain names revalidated
(ETag, 304), gzip for text, an old hash sent on to the current file, and the pages
gzip-compressed, the JSON API never."""

from __future__ import annotations

import gzip
import os
import re
import zlib
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from app.main import create_app
from app.web.assets import IMMUTABLE, STATIC, Assets, assets, static_url
from app.web.presentation import presentation

HASHED_LINK = re.compile(r'(?:src|href)="(/static/[^"#]+)')


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(create_app())


def test_every_asset_of_a_page_is_linked_by_its_hash_and_cached_for_a_year(
        client: TestClient) -> None:
    page = client.get("/")
    links = HASHED_LINK.findall(page.text)
    assert {"/static/css/app.css", "/static/vendor/htmx.min.js", "/static/vendor/ws.js",
            "/static/img/favicon.svg"} <= {re.sub(r"\.[0-9a-f]{10}\.", ".", u) for u in links}
    for url in links:
        assert re.search(r"\.[0-9a-f]{10}\.\w+$", url), url
        r = client.get(url, headers={"Accept-Encoding": "identity"})
        assert r.status_code == 200, url
        assert r.headers["cache-control"] == IMMUTABLE
        plain = re.sub(r"\.[0-9a-f]{10}(\.\w+)$", r"\1", url)
        assert r.content == (STATIC / plain.removeprefix("/static/")).read_bytes()
        assert "content-security-policy" in r.headers
        assert "vary" not in r.headers or "cookie" not in r.headers["vary"].lower(), \
            "a static file is the same in every language: caches may share it"


def test_text_is_gzipped_for_clients_that_accept_it(client: TestClient) -> None:
    url = static_url("vendor/htmx.min.js")
    raw = client.get(url, headers={"Accept-Encoding": "identity"})
    assert "content-encoding" not in raw.headers
    with client.stream("GET", url, headers={"Accept-Encoding": "gzip"}) as r:
        body = b"".join(r.iter_raw())
        assert r.headers["content-encoding"] == "gzip"
        assert r.headers["vary"].lower().startswith("accept-encoding")
        assert r.headers["cache-control"] == IMMUTABLE
    assert len(body) < len(raw.content) / 2
    assert gzip.decompress(body) == raw.content
    # a picture that does not shrink is sent as it is
    wav = client.get(static_url("sound/turn.wav"), headers={"Accept-Encoding": "gzip"})
    assert wav.status_code == 200 and "content-encoding" not in wav.headers


def test_plain_names_are_revalidated_with_an_etag(client: TestClient) -> None:
    first = client.get("/static/css/app.css", headers={"Accept-Encoding": "identity"})
    assert first.status_code == 200 and first.headers["cache-control"] == "no-cache"
    etag = first.headers["etag"]
    again = client.get("/static/css/app.css",
                       headers={"If-None-Match": etag, "Accept-Encoding": "identity"})
    assert again.status_code == 304 and again.content == b""
    assert again.headers["etag"] == etag
    # the gzip body has an ETag of its own
    zipped = client.get("/static/css/app.css", headers={"Accept-Encoding": "gzip"})
    assert zipped.headers["etag"] != etag
    assert client.get("/static/css/app.css", headers={
        "If-None-Match": zipped.headers["etag"], "Accept-Encoding": "gzip"}).status_code == 304
    assert client.get("/static/css/app.css", headers={
        "If-None-Match": '"0000000000"', "Accept-Encoding": "gzip"}).status_code == 200
    head = client.head(static_url("css/app.css"), headers={"Accept-Encoding": "identity"})
    assert head.status_code == 200 and head.content == b""
    assert int(head.headers["content-length"]) == len(first.content)


def test_an_old_hash_is_sent_on_and_unknown_files_are_404(client: TestClient) -> None:
    old = client.get("/static/css/app.0123456789.css", follow_redirects=False)
    assert old.status_code == 307
    assert old.headers["location"] == static_url("css/app.css")
    assert old.headers["cache-control"] == "no-cache"
    for missing in ("/static/css/nope.css", "/static/css/nope.0123456789.css",
                    "/static/../app/main.py", "/static/%2e%2e/app/config.py",
                    "/static/css/", "/static/.gitignore"):
        assert client.get(missing, follow_redirects=False).status_code == 404, missing


def test_card_pictures_point_at_the_hashed_sprite(client: TestClient) -> None:
    face = presentation("schafkopf").face("EO")
    assert face.picture.startswith(static_url("cards/schafkopf.svg") + "#")
    url = face.picture.split("#")[0]
    assert client.get(url).headers["cache-control"] == IMMUTABLE


def test_pages_are_gzipped_and_the_api_never(client: TestClient) -> None:
    page = client.get("/", headers={"Accept-Encoding": "gzip"})
    assert page.headers["content-encoding"] == "gzip"
    api = client.get("/api/games", headers={"Accept-Encoding": "gzip"})
    assert api.status_code == 200 and "content-encoding" not in api.headers
    assert client.get("/", headers={"Accept-Encoding": "identity"}).headers.get(
        "content-encoding") is None


def test_files_are_read_once_unless_in_development(tmp_path: Path) -> None:
    (tmp_path / "css").mkdir()
    sheet = tmp_path / "css" / "a.css"
    sheet.write_text("body { color: red }\n" * 40)
    kept, dev = Assets(tmp_path), Assets(tmp_path, dev=True)
    before = kept.url("css/a.css")
    assert dev.url("css/a.css") == before
    gz = kept.files["css/a.css"].gzipped
    assert gz is not None and zlib.decompress(gz, 31) == sheet.read_bytes()
    sheet.write_text("body { color: blue }\n" * 40)
    os.utime(sheet, ns=(1, 1))  # a different mtime, whatever the file system's resolution
    assert kept.url("css/a.css") == before
    assert dev.url("css/a.css") != before
    assert re.fullmatch(r"/static/css/a\.[0-9a-f]{10}\.css", dev.url("css/a.css"))
    with pytest.raises(LookupError):
        kept.url("css/missing.css")
    assert assets().get("../pyproject.toml") is None

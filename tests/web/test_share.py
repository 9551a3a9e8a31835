"""Sharing the room link: a copy button and a QR code of the link (segno, SVG)."""

from __future__ import annotations

import re

from app.web.share import qr_svg
from tests.conftest import Server
from tests.web.apiclient import Table


def test_qr_code_of_the_room_link(sqlite_server: Server) -> None:
    table = Table(sqlite_server.base, "schafkopf")
    r = table.http.get(f"/r/{table.room}/qr.svg")
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("image/svg+xml")
    assert r.text.startswith("<svg") and "<path" in r.text
    assert r.text == qr_svg(table.url, "QR code of the room link")  # the link itself
    assert table.http.get("/r/nope/qr.svg").status_code == 404
    page = table.http.get(f"/r/{table.room}").text
    qr = re.search(r'<details class="qr"( open data-auto)?>.*?</details>', page, re.S)
    assert qr and qr.group(1), "shown on the waiting table"
    assert f'<img src="/r/{table.room}/qr.svg" alt="QR code of the room link"' in qr.group(0)
    assert 'data-copy="room-link"' in page and "onclick" not in page
    for name in ("Anna", "Bert", "Cilli", "Done"):
        table.join(name)
    assert table.start().status_code == 200
    page = table.http.get(f"/r/{table.room}").text
    assert '<details class="qr">' in page, "folded away, still at hand, while playing"


def test_qr_svg_differs_per_link() -> None:
    assert qr_svg("http://a/r/1", "t") != qr_svg("http://a/r/2", "t")

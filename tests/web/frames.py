"""Reading the HTML fragments a table WebSocket pushes, as a test client.

A push carries only the fragments that changed for that socket (of a fragment that
changed only inside elements with an id, those elements). :func:`open_socket`
returns a socket that keeps, like the browser's page, the latest HTML of every
fragment: ``recv()`` gives the whole table as it stands after a push (the fragments in
page order, then whatever else the push carried: a flash, chat lines), and the push
as it came in is ``last_raw``. A push without any table fragment (a chat line alone)
is given as it came.
"""

from __future__ import annotations

import json
import re
from typing import Any

from websockets.sync.client import ClientConnection, connect

from app.web.cards import face
from app.web.fragments import FRAGMENT_IDS

VERSION_RE = re.compile(r'id="version"[^>]*data-version="(\d+)"')
ACTION_RE = re.compile(r'<button[^>]*data-action="([^"]+)"')
FLASH_RE = re.compile(r'id="flash"[^>]*>(?:<span>(.*?)</span>)?</div>', re.S)
TAG_RE = re.compile(r'<(/?)([a-zA-Z][\w-]*)((?:[^>"\']|"[^"]*"|\'[^\']*\')*?)(/?)>')
ID_RE = re.compile(r'^<[a-zA-Z][\w-]*(?:\s+[\w-]+="[^"]*")*?\s+id="([^"]+)"')
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta",
        "source", "track", "wbr"}
TABLE_IDS = list(FRAGMENT_IDS)


def element_span(html: str, key: str) -> tuple[int, int] | None:
    """Where the element with id ``key`` starts and ends in ``html`` (None: absent)."""
    depth, start = 0, -1
    for m in TAG_RE.finditer(html):
        closing, name, self_closing = m[1], m[2].lower(), m[4]
        if start < 0:
            if not closing and re.search(rf'\sid="{re.escape(key)}"', m[3]):
                if self_closing or name in VOID:
                    return m.start(), m.end()
                start, depth = m.start(), 1
            continue
        if closing:
            depth -= 1
            if depth == 0:
                return start, m.end()
        elif not self_closing and name not in VOID:
            depth += 1
    return None


def top_level(frame: str) -> list[tuple[str | None, str]]:
    """The top-level elements of a push as (id or None, HTML)."""
    out: list[tuple[str | None, str]] = []
    depth, start = 0, 0
    for m in TAG_RE.finditer(frame):
        closing, name, self_closing = m[1], m[2].lower(), m[4]
        if closing:
            depth -= 1
        elif not self_closing and name not in VOID:
            if depth == 0:
                start = m.start()
            depth += 1
            continue
        elif depth == 0:  # a void element on its own
            start = m.start()
        if depth == 0:
            html = frame[start:m.end()]
            found = ID_RE.match(html)
            out.append((found[1] if found else None, html))
    return out


class TableSocket:
    """A table socket that keeps the latest HTML of every fragment it was sent."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.table: dict[str, str] = {}
        self.last_raw = ""

    def swap_inner(self, key: str, html: str) -> bool:
        """Put an element pushed alone in its place inside a fragment (by its id)."""
        for name, fragment in self.table.items():
            span = element_span(fragment, key)
            if span is not None:
                self.table[name] = str(fragment)[:span[0]] + html + str(fragment)[span[1]:]
                return True
        return False

    def recv(self, timeout: float | None = None) -> str:
        raw = str(self.ws.recv(timeout=timeout))
        self.last_raw = raw
        rest, swapped = [], False
        for key, html in top_level(raw):
            if key in TABLE_IDS:
                self.table[key] = html
                swapped = True
            elif key is not None and self.swap_inner(key, html):
                swapped = True
            else:
                rest.append(html)
        if not swapped:
            return raw
        return "".join(self.table.get(k, "") for k in TABLE_IDS) + "".join(rest)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.ws, name)

    def __enter__(self) -> TableSocket:
        return self

    def __exit__(self, *exc: object) -> None:
        self.ws.close()


def open_socket(ws_base: str, room: str, token: str | None = None,
                origin: str | None = None) -> TableSocket:
    headers = {}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    if origin:
        headers["Origin"] = origin
    return TableSocket(connect(f"{ws_base}/r/{room}/ws", additional_headers=headers,
                               open_timeout=5, max_size=2**22, legacy=True))


def frame_version(frame: str) -> int:
    m = VERSION_RE.search(frame)
    assert m, "every frame carries the table version"
    return int(m.group(1))


def frame_actions(frame: str) -> list[str]:
    return ACTION_RE.findall(frame)


def frame_flash(frame: str) -> str | None:
    m = FLASH_RE.search(frame)
    return m.group(1) if m and m.group(1) else None


def recv_until(ws: TableSocket | ClientConnection, pred: Any, timeout: float = 5) -> str:
    """Receive frames until one satisfies ``pred`` (a TableSocket gives whole tables,
    so skipping intermediate ones loses nothing)."""
    while True:
        frame = str(ws.recv(timeout=timeout))
        if pred(frame):
            return frame


def send_action(ws: TableSocket | ClientConnection, action: Any, version: Any) -> None:
    ws.send(json.dumps({"action": action, "version": version, "HEADERS": {}}))


def hidden_titles(game: str, cards: list[str]) -> list[str]:
    return [face(game, c).title for c in cards]

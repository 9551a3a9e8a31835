"""Reading the HTML fragments a table WebSocket pushes, as a test client."""

from __future__ import annotations

import json
import re
from typing import Any

from websockets.sync.client import ClientConnection, connect

from app.web.cards import face

VERSION_RE = re.compile(r'id="version"[^>]*data-version="(\d+)"')
ACTION_RE = re.compile(r'<button[^>]*data-action="([^"]+)"')
FLASH_RE = re.compile(r'id="flash"[^>]*>(?:<span>(.*?)</span>)?</div>', re.S)


def open_socket(ws_base: str, room: str, token: str | None = None,
                origin: str | None = None) -> ClientConnection:
    headers = {}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    if origin:
        headers["Origin"] = origin
    return connect(f"{ws_base}/r/{room}/ws", additional_headers=headers, open_timeout=5,
                   max_size=2**22, legacy=True)


def frame_version(frame: str) -> int:
    m = VERSION_RE.search(frame)
    assert m, "every frame carries the table version"
    return int(m.group(1))


def frame_actions(frame: str) -> list[str]:
    return ACTION_RE.findall(frame)


def frame_flash(frame: str) -> str | None:
    m = FLASH_RE.search(frame)
    return m.group(1) if m and m.group(1) else None


def recv_until(ws: ClientConnection, pred: Any, timeout: float = 5) -> str:
    """Receive frames until one satisfies ``pred`` (frames are full tables, so
    skipping intermediate ones loses nothing)."""
    while True:
        frame = str(ws.recv(timeout=timeout))
        if pred(frame):
            return frame


def send_action(ws: ClientConnection, action: Any, version: Any) -> None:
    ws.send(json.dumps({"action": action, "version": version, "HEADERS": {}}))


def hidden_titles(game: str, cards: list[str]) -> list[str]:
    return [face(game, c).title for c in cards]

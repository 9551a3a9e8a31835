"""What a client can make the server log stays quiet: LOG_LEVEL=debug is the server's
own debugging (no third party's: markdown-it wrote 4,600 lines for the rules pages),
and a push to a table socket that the server closed meanwhile (uvicorn closes one by
itself after a bad frame or a missed ping, and tells the handler only through the
socket's receive queue) is a socket going away, not an error with a traceback."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.main import create_app
from tests.conftest import Server, migrate
from tests.loops import run


def test_debug_is_the_servers_own(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'debug.db'}"
    migrate(url)
    srv = Server(url, tmp_path / "server.log", env={"LOG_LEVEL": "debug"}).start()
    try:
        for path in ("/rules/schafkopf", "/rules/mauscheln?lang=de", "/"):
            assert httpx.get(srv.base + path).status_code == 200
        room = httpx.post(srv.base + "/api/rooms", json={"game": "schafkopf"}).json()
        assert room["room"]
    finally:
        srv.stop()
    lines = srv.log_path.read_text().splitlines()
    assert not [line for line in lines if "markdown_it" in line]
    assert len(lines) < 100, f"{len(lines)} lines for four requests"
    assert any(" stammtisch." in line for line in lines), "the server's own lines stay"


class ClosingServer:
    """What uvicorn does with a table socket, as far as the app sees it, with one
    turn: it can close the socket by itself and then refuse a send the way uvicorn
    does, before the handler has read the disconnect it queued."""

    def __init__(self) -> None:
        self.incoming: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.incoming.put_nowait({"type": "websocket.connect"})
        self.frames: list[str] = []
        self.refused = 0
        self.closed = False
        self.first = asyncio.Event()

    async def receive(self) -> dict[str, Any]:
        return await self.incoming.get()

    async def send(self, message: dict[str, Any]) -> None:
        if message["type"] != "websocket.send":
            return
        if self.closed:
            self.refused += 1
            raise RuntimeError("Unexpected ASGI message 'websocket.send', after sending "
                               "'websocket.close'.")
        self.frames.append(message["text"])
        self.first.set()

    def close_by_itself(self) -> None:
        """A frame the protocol refuses came in: uvicorn closes the socket and queues
        the disconnect (its handle_parser_exception)."""
        self.closed = True
        self.incoming.put_nowait({"type": "websocket.disconnect", "code": 1002})


async def _push_while_closing(app: Any) -> ClosingServer:
    from app.web import ws

    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://t") as http:
            room_id = (await http.post("/api/rooms", json={"game": "schafkopf"})).json()["room"]
        server = ClosingServer()
        scope = {"type": "websocket", "path": f"/r/{room_id}/ws", "raw_path": b"",
                 "query_string": b"", "headers": [(b"host", b"t")], "scheme": "ws",
                 "client": ("127.0.0.1", 5000), "server": ("t", 80), "subprotocols": [],
                 "app": app, "state": {}, "root_path": "", "asgi": {"version": "3.0"}}
        handler = asyncio.create_task(ws.serve(scope, server.receive, server.send, room_id))
        await asyncio.wait_for(server.first.wait(), 20)  # the table is on the page
        room = app.state.rooms.get(room_id)
        for notify in list(room.listeners):  # the table changes: a push is under way
            notify(room)
        server.close_by_itself()  # and the server closes the socket in the same turn
        await asyncio.wait_for(handler, 20)
        return server


def test_a_push_to_a_socket_the_server_closed_is_not_an_error(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    url = f"sqlite:///{tmp_path / 'closing.db'}"
    migrate(url)
    app = create_app(url)
    caplog.set_level(logging.DEBUG, logger="stammtisch")  # after the app set LOG_LEVEL
    server = run(_push_while_closing(app))  # the browser tests keep the main thread's loop
    assert server.refused == 1, "the push came after the server closed the socket"
    noisy = [r for r in caplog.records if r.name.startswith("stammtisch.ws")
             and (r.levelno >= logging.WARNING or r.exc_info)]
    assert not noisy, [r.getMessage() for r in noisy]
    assert any("went away" in r.getMessage() for r in caplog.records)

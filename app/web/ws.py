"""The table WebSocket: ``/r/{room}/ws``.

A browser authenticates with its seat cookie, any other client with
``Authorization: Bearer <seat token>``; with neither the socket is a spectator's.
Incoming frames are JSON from htmx ``ws-send``: ``{"action", "version"}``, a
seat's ``{"cmd": "next_deal" | "back"}`` or a host command ``{"cmd": "start" |
"add_bot" | "end_game"}``, ``{"cmd": "kick" | "remove_bot", "seat": n}``,
``{"cmd": "swap", "a": n, "b": m}``. Outgoing frames are HTML fragments with
``hx-swap-oob``.

A socket whose seat the host released (or somebody took over) becomes a
spectator's at once: it never sees that seat's cards again.

Each connection has one sender task. A room change only marks the connection
dirty; the sender renders the *latest* state when it gets to it, so a slow
client never makes the room wait and never receives a backlog of stale tables.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from app.config import get_settings
from app.i18n import _
from app.rooms.errors import RoomError
from app.rooms.room import Room
from app.rooms.service import RoomService
from app.web.deps import HOST_COOKIE, SEAT_COOKIE, bearer_token, origin_allowed
from app.web.presentation import FormError, presentation
from app.web.render import render_flash, render_frame

router = APIRouter()
log = logging.getLogger("stammtisch.ws")

# Close codes (4000-4999 are the application's own)
POLICY = 1008
NOT_FOUND = 4404
FORBIDDEN = 4403


class Connection:
    def __init__(self, ws: WebSocket, service: RoomService, room: Room, seat: int | None,
                 host_token: str | None) -> None:
        self.ws = ws
        self.service = service
        self.room = room
        self.seat = seat
        player = room.seats[seat] if seat is not None else None
        self.token_hash = player.token_hash if player is not None else None
        self.host_token = host_token if room.is_host(host_token) else None
        self.is_host = self.host_token is not None
        self.dirty = asyncio.Event()
        self.flashes: list[str] = []
        self.closed = False

    def notify(self, _room: Room) -> None:
        self.dirty.set()

    def check_seat(self) -> None:
        """Still this seat's holder? A released or taken-over seat's socket becomes a
        spectator's (it no longer counts as the seat's open page either)."""
        if self.seat is None:
            return
        player = self.room.seats[self.seat]
        if player is None or player.token_hash != self.token_hash:
            self.seat = None
            self.flashes.append(render_flash(
                _("The host released your seat; you are watching now. Open the room "
                  "link to take a seat again.")))

    def flash(self, message: str, kind: str = "error") -> None:
        self.flashes.append(render_flash(message, kind))
        self.dirty.set()

    async def sender(self) -> None:
        try:
            while not self.closed:
                await self.dirty.wait()
                self.dirty.clear()
                flashes, self.flashes = self.flashes, []
                async with self.room.lock:  # render only state that is already durable
                    self.check_seat()
                    flashes, self.flashes = flashes + self.flashes, []
                    try:
                        frame = render_frame(self.room, self.seat, self.is_host)
                    except Exception:  # keep the socket alive; the next state may draw
                        log.exception("drawing the table failed game=%s", self.room.game)
                        frame = render_flash("The table could not be drawn; "
                                             "reload the page if it stays like this.")
                await self.ws.send_text(frame + "".join(flashes))
        except asyncio.CancelledError:
            raise
        except Exception:
            if not self.closed:
                log.exception("sending a table frame failed")


def _parse(raw: str, limit: int) -> dict[str, Any]:
    if len(raw.encode()) > limit:
        raise RoomError(f"That message is too large (at most {limit} bytes).")
    try:
        data = json.loads(raw)
    except ValueError:
        raise RoomError("That message was not understood.") from None
    if not isinstance(data, dict):
        raise RoomError("That message was not understood.")
    return data


@router.websocket("/r/{room_id}/ws")
async def table_socket(websocket: WebSocket, room_id: str) -> None:
    service: RoomService = websocket.app.state.rooms
    if not origin_allowed(websocket):
        await websocket.close(code=POLICY, reason="origin not allowed")
        return
    try:
        room = service.get(room_id)
        token = bearer_token(websocket) or websocket.cookies.get(SEAT_COOKIE)
        seat = room.seat_of(token) if token else None
        if token and seat is None and bearer_token(websocket):
            raise RoomError("This seat token does not belong to this table.")
    except RoomError as exc:
        await websocket.close(code=NOT_FOUND if exc.status == 404 else FORBIDDEN,
                              reason=exc.message[:120])
        return
    await websocket.accept()
    conn = Connection(websocket, service, room, seat, websocket.cookies.get(HOST_COOKIE))
    room.listeners.add(conn.notify)
    service.connected(room, seat)
    conn.dirty.set()  # the first frame: the table as it is now
    sender = asyncio.create_task(conn.sender())
    limit = get_settings().max_message_bytes
    try:
        while True:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                break
            raw = message.get("text")
            if raw is None:
                conn.flash("Send text frames only.")
                continue
            try:
                await _handle(conn, _parse(raw, limit))
            except RoomError as exc:
                conn.flash(exc.message)
            except Exception:  # never let one odd message end the connection
                log.exception("a table message failed")
                conn.flash("That did not work; nothing was changed.")
    except WebSocketDisconnect:
        pass
    finally:
        conn.closed = True
        room.listeners.discard(conn.notify)
        conn.check_seat()
        service.disconnected(room, conn.seat)
        sender.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await sender


HostCommand = Callable[[RoomService, str, str | None, dict[str, Any]], Awaitable[Any]]

HOST_COMMANDS: dict[str, HostCommand] = {
    "start": lambda s, room, host, data: s.start(room, host),
    "add_bot": lambda s, room, host, data: s.add_bot(room, host),
    "end_game": lambda s, room, host, data: s.end_match(room, host),
    "kick": lambda s, room, host, data: s.release(room, host, data.get("seat")),
    "remove_bot": lambda s, room, host, data: s.remove_bot(room, host, data.get("seat")),
    "swap": lambda s, room, host, data: s.swap(room, host, data.get("a"), data.get("b")),
}
SEAT_COMMANDS = {
    "next_deal": RoomService.next_deal,
    "back": RoomService.back,
}


async def _handle(conn: Connection, data: dict[str, Any]) -> None:
    room, service = conn.room, conn.service
    cmd = data.get("cmd")
    if cmd is not None and not isinstance(cmd, str):
        raise RoomError("That message was not understood.")
    conn.check_seat()
    if cmd in HOST_COMMANDS:
        if not conn.is_host:
            raise RoomError(_("Only the host can do that."))
        await HOST_COMMANDS[cmd](service, room.id, conn.host_token, data)
        return
    if cmd in SEAT_COMMANDS:
        if conn.seat is None:
            raise RoomError(_("You are watching; take a seat to play."))
        await SEAT_COMMANDS[cmd](service, room.id, conn.seat)
        return
    if "action" not in data:
        raise RoomError("That message was not understood.")
    if conn.seat is None:
        raise RoomError(_("You are watching; take a seat to play."))
    action = data.get("action")
    form = presentation(room.game).forms.get(action) if isinstance(action, str) else None
    if form is not None:
        view = room.match.view(conn.seat) if room.match is not None else {}
        try:
            action = form(data, view)
        except FormError as exc:
            raise RoomError(str(exc)) from None
    await service.act(room.id, conn.seat, action, data.get("version"))

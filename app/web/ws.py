"""The table WebSocket: ``/r/{room}/ws``.

A browser authenticates with its seat cookie, any other client with
``Authorization: Bearer <seat token>``; with neither the socket is a spectator's.
Incoming frames are JSON from htmx ``ws-send``: ``{"action", "version"}``,
``{"cmd": "start"}``, ``{"chat": "text"}`` or ``{"react": "👍"}``. Outgoing frames
are HTML fragments with ``hx-swap-oob``.

Each connection has one sender task. A room change only marks the connection
dirty; the sender renders the *latest* state when it gets to it, so a slow
client never makes the room wait and never receives a backlog of stale tables.
A chat message is not a change of the table: it is appended to the chat log
alone (nothing else is drawn again, the version stays).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from app.config import get_settings
from app.i18n import _
from app.rooms.chat import ChatEvent
from app.rooms.errors import RoomError
from app.rooms.room import Room
from app.rooms.service import RoomService
from app.web.chat_view import chat_context, render_chat_line, render_chat_state
from app.web.deps import HOST_COOKIE, SEAT_COOKIE, bearer_token, origin_allowed
from app.web.presentation import FormError, presentation
from app.web.render import env, render_flash, render_frame
from app.web.share import rematch_changes

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
        self.host_token = host_token if room.is_host(host_token) else None
        self.is_host = self.host_token is not None
        self.dirty = asyncio.Event()
        self.stale = True  # the table must be drawn again
        self.flashes: list[str] = []
        self.outbox: list[str] = []  # fragments to send as they are (chat lines)
        self.closed = False
        self.writer = secrets.token_hex(8)  # tells spectators apart for the chat's limit

    def notify(self, _room: Room) -> None:
        self.stale = True
        self.dirty.set()

    def flash(self, message: str, kind: str = "error") -> None:
        self.flashes.append(render_flash(message, kind))
        self.stale = True
        self.dirty.set()

    def on_chat(self, event: ChatEvent) -> None:
        try:
            if event.message is not None:
                self.outbox.append(render_chat_line(event.message, self.seat))
            else:  # who may write changed: this seat's controls are drawn again
                self.outbox.append(env.get_template("table/chat_controls.html").render(
                    _chat_ctx(self), oob=True))
        except Exception:
            log.exception("drawing a chat line failed")
            return
        self.dirty.set()

    async def sender(self) -> None:
        try:
            while not self.closed:
                await self.dirty.wait()
                self.dirty.clear()
                flashes, self.flashes = self.flashes, []
                extras, self.outbox = self.outbox, []
                frame = ""
                if self.stale:
                    self.stale = False
                    async with self.room.lock:  # render only state that is already durable
                        try:
                            frame = render_frame(self.room, self.seat, self.is_host)
                        except Exception:  # keep the socket alive; the next state may draw
                            log.exception("drawing the table failed game=%s", self.room.game)
                            frame = render_flash("The table could not be drawn; "
                                                 "reload the page if it stays like this.")
                await self.ws.send_text(frame + "".join(extras) + "".join(flashes))
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
    service.chat.subscribe(room.id, conn.on_chat)
    room.arrive(seat)
    # the first frame: the table as it is now, and the chat (a reconnecting page may
    # have missed messages)
    try:
        messages = await service.chat.messages(room)
        conn.outbox.append(render_chat_state(room, seat, conn.is_host, messages))
    except Exception:
        log.exception("reading the chat failed")
    conn.dirty.set()
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
        service.chat.unsubscribe(room.id, conn.on_chat)
        room.leave(seat)
        sender.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await sender


HOST_COMMANDS = {
    "start": RoomService.start,
    "add_bot": RoomService.add_bot,
    "end_game": RoomService.end_match,
}


def _chat_ctx(conn: Connection) -> dict[str, Any]:
    return chat_context(conn.room, conn.seat, conn.is_host, [])


async def _handle(conn: Connection, data: dict[str, Any]) -> None:
    room, service = conn.room, conn.service
    cmd = data.get("cmd")
    if cmd is not None and not isinstance(cmd, str):
        raise RoomError("That message was not understood.")
    if cmd is None and ("chat" in data or "react" in data):
        await service.chat.post(room, conn.seat, text=data.get("chat"),
                                reaction=data.get("react"), name=data.get("name"),
                                writer=conn.writer)
        return
    if cmd == "spectator_chat":
        await service.chat.set_spectator_chat(room, conn.host_token, data.get("on"))
        return
    if cmd == "rematch":
        if not conn.is_host:
            raise RoomError(_("Only the host can start a rematch."))
        await service.rematch(room.id, conn.host_token, rematch_changes(room.game, data))
        return
    if cmd in HOST_COMMANDS:
        if not conn.is_host:
            raise RoomError("Only the host can do that.")
        await HOST_COMMANDS[cmd](service, room.id, conn.host_token)
        return
    if "action" not in data:
        raise RoomError("That message was not understood.")
    if conn.seat is None:
        raise RoomError("You are watching; take a seat to play.")
    action = data.get("action")
    form = presentation(room.game).forms.get(action) if isinstance(action, str) else None
    if form is not None:
        view = room.match.view(conn.seat) if room.match is not None else {}
        try:
            action = form(data, view)
        except FormError as exc:
            raise RoomError(str(exc)) from None
    await service.act(room.id, conn.seat, action, data.get("version"))

"""The table WebSocket: ``/r/{room}/ws``.

A browser authenticates with its seat cookie, any other client with
``Authorization: Bearer <seat token>``; with neither the socket is a spectator's.
Incoming frames are JSON from htmx ``ws-send``: ``{"action", "version"}``, a
seat's ``{"cmd": "next_deal" | "back"}``, ``{"chat": "text"}`` or ``{"react": "👍"}``,
or a host command ``{"cmd": "start" | "add_bot" | "end_game" | "rematch" |
"spectator_chat"}`` (``add_bot`` takes a ``"level"``: ``"easy"`` or ``"strong"``),
``{"cmd": "kick" | "remove_bot", "seat": n}``,
``{"cmd": "swap", "a": n, "b": m}``; a seat's ``{"why": "play:EO"}``: why that
card of its hand cannot be played now (the engine's reason, to that socket alone);
and at a practice table (table option ``hints``) a seat's ``{"hint": N}``: the strong
bot's choice for its seat at version N with its estimates, to that socket alone (a
panel while it thinks, then the answer; refused in one line when hints are off, for
a spectator, when the seat has nothing to decide, for another version, while a hint
for the seat is being worked out, or on a server without a bot pool; not shown when
the table moved on meanwhile).
Outgoing frames are HTML fragments with ``hx-swap-oob``.

A socket belongs to its seat token, not to a seat number: when the host swaps
seats, the socket moves with its person at once (the cards, the turns, the chat
name and the presence count go with them); a socket whose seat the host released
(or somebody took over) becomes a spectator's at once: it never sees that seat's
cards again, and no move it sent for that seat is made.

Each connection has one sender task. A room change only marks the connection
dirty; the sender renders the *latest* state when it gets to it, so a slow
client never makes the room wait and never receives a backlog of stale tables.
The connection remembers the HTML it sent of each fragment and sends only the
fragments that changed (the first frame after connecting is the whole table; the
``version`` marker goes with every push); fragments that come out the same for
several seats are rendered once (:mod:`app.web.fragments`).
A chat message is not a change of the table: it is appended to the chat log
alone (nothing else is drawn again, the version stays).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import secrets
from collections.abc import Awaitable, Callable
from typing import Any

import orjson
from fastapi import WebSocket, WebSocketDisconnect
from starlette.types import Receive, Scope, Send
from websockets.http11 import Request, Response

from app import cycles, i18n
from app.config import get_settings
from app.db.retry import DatabaseUnavailable
from app.games import IllegalAction
from app.i18n import _
from app.loop_watch import LoopWatch
from app.rooms.chat import ChatEvent
from app.rooms.errors import RoomError, ServedElsewhere, Stale
from app.rooms.hints import HINT_BUSY
from app.rooms.room import Room
from app.rooms.service import RoomService
from app.web.chat_view import chat_context, render_chat_line, render_chat_state
from app.web.deps import HOST_COOKIE, SEAT_COOKIE, bearer_token, origin_allowed
from app.web.fragments import Drawn, changes, render_frame, render_notice, shared
from app.web.hints import render_cleared, render_hint, render_thinking
from app.web.language import choose as choose_language
from app.web.limits import TooMany, client_key, json_too_deep
from app.web.messages import error_text
from app.web.presentation import FormError, presentation
from app.web.render import env, render_flash
from app.web.share import rematch_changes

log = logging.getLogger("stammtisch.ws")

# Close codes (4000-4999 are the application's own)
POLICY = 1008
NOT_FOUND = 4404
FORBIDDEN = 4403
GONE = 4410  # the table closed (idle); htmx does not reconnect on 4xxx codes
# another server process serves the table (app.rooms.leases): the page reconnects
SERVICE_RESTART = 1012
MAX_DEPTH = 8  # our frames are flat objects; a form adds one level
WHY_MAX = 64  # the longest action a "why" frame may ask about (a card: "play:EO")
# uvicorn closed the socket for a frame the protocol refuses (1002 protocol error,
# 1007 not UTF-8, 1009 too large): the parser's error stays in a reference cycle
PROTOCOL_ERRORS = (1002, 1007, 1009)
PROTOCOL_ERROR_OBJECTS = 80  # 73 measured with compression (tests/test_cycles.py)
# Every push the whole table, rendered for each seat on its own: how pushes were
# before they sent only changes (bench/push_bytes.py --full measures against it).
FULL_FRAMES = False


def is_disconnect(error: BaseException) -> bool:
    """The client went away (closed tab, lost network): expected, not a fault."""
    return isinstance(error, WebSocketDisconnect | OSError) or any(
        k.__name__ in ("ConnectionClosed", "ClientDisconnected") for k in type(error).__mro__)


class Connection:
    def __init__(self, ws: WebSocket, service: RoomService, room: Room, seat: int | None,
                 host_token: str | None, watch: LoopWatch) -> None:
        self.ws = ws
        self.watch = watch  # the loop's probe: a push gives way while the loop is behind
        self.service = service
        self.room = room
        self.seat = seat
        player = room.seats[seat] if seat is not None else None
        self.token_hash = player.token_hash if player is not None else None
        self.host_token = host_token if room.is_host(host_token) else None
        self.is_host = self.host_token is not None
        self.dirty = asyncio.Event()
        self.stale = True  # the table must be drawn again
        self.flashes: list[str] = []
        self.outbox: list[str] = []  # fragments to send as they are (chat lines)
        # the answer to this socket's last question (why a card is refused), sent as it is;
        # a newer one replaces one not sent yet
        self.reply = ""
        self.sent: dict[str, Drawn] = {}  # fragment id -> what this socket got last
        self.closed = False
        self.writer = secrets.token_hex(8)  # tells spectators apart for the chat's limit
        # the seat changed hands since the last push ("moved", "released"): said in a
        # flash, and the chat is drawn again for the new seat
        self.seat_news: str | None = None
        self.hinting: asyncio.Task[None] | None = None  # a hint being worked out

    def notify(self, _room: Room) -> None:
        self.check_seat()
        self.stale = True
        self.dirty.set()

    def check_seat(self) -> None:
        """Still this seat's holder? The socket follows its token: a seat the host
        swapped is followed to its new place at once, and a released or taken-over
        seat's socket becomes a spectator's. Presence moves with the seat (the host's
        swap moves the count), so a seat never counts a socket that is not its own.
        Runs (under the room's lock) whenever the room announces a change, and before
        anything the socket does; nothing here is drawn (that happens in the socket's
        own task and language)."""
        if self.seat is None:
            return
        player = self.room.seats[self.seat]
        if player is not None and player.token_hash == self.token_hash:
            return
        self.seat = self.room.seat_held_by(self.token_hash)
        self.seat_news = "released" if self.seat is None else "moved"
        self.stale = True
        self.dirty.set()

    def seat_flash(self) -> str:
        """The flash that says how this socket's seat changed hands (``seat_news``)."""
        news, self.seat_news = self.seat_news, None
        if news is None:
            return ""
        if news == "moved":
            return render_flash(_("The host moved you to another seat."), "info")
        return render_flash(_("The host released your seat; you are watching now. Open "
                              "the room link to take a seat again."))

    def my_name(self) -> str | None:
        """The name of this socket's seat (None: a spectator)."""
        player = self.room.seats[self.seat] if self.seat is not None else None
        return player.name if player is not None else None

    def flash(self, message: str, kind: str = "error") -> None:
        self.flashes.append(render_flash(message, kind))
        self.stale = True
        self.dirty.set()

    def answer(self, html: str) -> None:
        """Send ``html`` to this socket alone with the next push, drawing nothing of
        the table again (an answer that changes nothing: why a card is refused); a
        newer answer replaces one that was not sent yet."""
        self.reply = html
        self.dirty.set()

    def on_chat(self, event: ChatEvent) -> None:
        try:
            if event.message is not None:
                self.outbox.append(render_chat_line(event.message, self.my_name()))
            else:  # who may write changed: this seat's controls are drawn again
                self.outbox.append(env.get_template("table/chat_controls.html").render(
                    _chat_ctx(self), oob=True))
        except Exception:
            log.exception("drawing a chat line failed")
            return
        self.dirty.set()

    def changes(self, parts: dict[str, Drawn]) -> str:
        """The fragments this socket does not have yet (of the ring whose plates
        alone changed, those plates), and the version; what it has from now on is
        ``parts``."""
        out = changes(self.sent, parts)
        self.sent = parts
        return out

    async def sender(self) -> None:
        try:
            while not self.closed:
                await self.dirty.wait()
                self.dirty.clear()
                flashes, self.flashes = self.flashes, []
                if self.room.handed_over:  # another process serves it: reconnect there
                    with contextlib.suppress(RuntimeError, WebSocketDisconnect, OSError):
                        await self.ws.close(code=SERVICE_RESTART,
                                            reason="served by another server")
                    return
                if self.room.closed:  # idle sweep: say so and end the socket
                    if await self.send(render_flash(_(
                            "This table was closed because nobody played at it; "
                            "reload the page."))):
                        with contextlib.suppress(RuntimeError, WebSocketDisconnect, OSError):
                            await self.ws.close(code=GONE, reason="table closed")
                    return
                extras, self.outbox = self.outbox, []
                if self.reply:
                    extras.append(self.reply)
                    self.reply = ""
                frame = ""
                if self.stale:
                    if self.room.error and self.room.lock.locked():
                        # a write waits for the database (app.rooms.recovery.watch): its
                        # notice goes now, the table once the lock is free
                        if not await self.send(render_notice(self.room.error)):
                            return
                        self.sent.pop("notice", None)  # drawn again with the table
                    self.stale = False
                    await self.watch.give_way()
                    async with self.room.lock:  # render only state that is already durable
                        self.check_seat()
                        redraw_chat = self.seat_news is not None
                        flashes, self.flashes = [*flashes, *self.flashes, self.seat_flash()], []
                        try:
                            frame = (render_frame(self.room, self.seat, self.is_host)
                                     if FULL_FRAMES else self.changes(shared(
                                         self.room).parts(self.room, self.seat,
                                                          self.is_host, self.sent)))
                        except Exception:  # keep the socket alive; the next state may draw
                            log.exception("drawing the table failed game=%s", self.room.game)
                            frame = render_flash(_("The table could not be drawn; "
                                                   "reload the page if it stays like this."))
                    if redraw_chat:  # who writes, and which lines are "mine", changed
                        extras.append(await self.chat_state())
                if not await self.send(frame + "".join(extras) + "".join(flashes)):
                    return
                # nothing of this push stays with the socket while it waits for the
                # next one (the first frame is the whole table)
                del frame, extras, flashes
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            if self.closed or is_disconnect(exc):
                log.debug("table socket went away while sending: %r", exc)
            else:
                log.exception("sending a table frame failed")

    async def send(self, text: str) -> bool:
        """Send ``text``; False once the socket is gone. uvicorn closes a socket by
        itself when the client sends a bad frame or misses its pings, and tells the
        handler only through the socket's receive queue: a push that comes first is
        refused (RuntimeError, "websocket.send after websocket.close"), as one to a
        socket the client closed is (a disconnect). Neither is a fault; the handler
        reads the disconnect next and ends the connection."""
        try:
            await self.ws.send_text(text)
        except Exception as exc:
            if not (isinstance(exc, RuntimeError) or is_disconnect(exc)):
                raise
            log.debug("table socket went away while sending: %r", exc)
            return False
        return True

    async def chat_state(self) -> str:
        """The chat's log and controls as this socket's seat sees them now."""
        try:
            messages = await self.service.chat.messages(self.room)
            return render_chat_state(self.room, self.seat, self.is_host, messages)
        except Exception:
            log.exception("reading the chat failed")
            return ""


def _parse(raw: str, limit: int) -> dict[str, Any]:
    if len(raw.encode()) > limit:
        raise RoomError("That message is too large (at most {limit} bytes).", limit=limit)
    if json_too_deep(raw, MAX_DEPTH):  # before parsing, whose recursion it would try
        raise RoomError("That message was not understood.")
    try:  # orjson: json's parser leaves its failure in a reference cycle (app/cycles.py)
        data = orjson.loads(raw)
    except orjson.JSONDecodeError:
        raise RoomError("That message was not understood.") from None
    if not isinstance(data, dict):
        raise RoomError("That message was not understood.")
    return data


SOCKET_PATH = re.compile(r"/r/([^/]+)/ws")


def socket_room(scope: Scope) -> str | None:
    """The room of a table socket's handshake (``/r/{room}/ws``), else None."""
    if scope["type"] != "websocket":
        return None
    found = SOCKET_PATH.fullmatch(scope.get("path", ""))
    return found[1] if found else None


async def serve(scope: Scope, receive: Receive, send: Send, room_id: str) -> None:
    """The table socket, straight from the application's entry (``app.main``): a
    socket lives as long as the page is open, and each layer of routing and
    middleware it passed would stay with it for that long, in memory and on every
    frame sent (none of them does anything for a socket). What they would give, it
    does itself: the language of the handshake (:func:`app.web.language.choose`,
    for the handler and the sender task it starts) and the log of an error."""
    token = i18n.set_language(choose_language(scope)[0])
    websocket = WebSocket(scope, receive, send)
    try:
        await table_socket(websocket, room_id)
    except Exception:
        log.exception("the table socket failed")
        with contextlib.suppress(Exception):
            await websocket.close(code=1011)
    finally:
        i18n.reset_language(token)


async def table_socket(websocket: WebSocket, room_id: str) -> None:
    service: RoomService = websocket.app.state.rooms
    if not origin_allowed(websocket):
        await websocket.close(code=POLICY, reason="origin not allowed")
        return
    try:
        await service.load(room_id)
    except ServedElsewhere:  # accepted first: a refused handshake carries no code
        await websocket.accept()
        await websocket.close(code=SERVICE_RESTART, reason="served by another server")
        return
    try:
        room = service.get(room_id)
        token = bearer_token(websocket) or websocket.cookies.get(SEAT_COOKIE)
        seat = room.seat_of(token) if token else None
        if token and seat is None and bearer_token(websocket):
            raise RoomError("This seat token does not belong to this table.")
    except RoomError as exc:  # the close reason stays English (clients log it)
        await websocket.close(code=NOT_FOUND if exc.status == 404 else FORBIDDEN,
                              reason=exc.message[:120])
        return
    limits = websocket.app.state.limits
    client = client_key(websocket)
    try:
        limits.open_socket(client, room.id)
    except TooMany as exc:  # the page shows why; 1008 is not reconnected by htmx
        await websocket.accept()
        with contextlib.suppress(Exception):
            await websocket.send_text(render_flash(exc.message))
            await websocket.close(code=POLICY, reason="too many connections")
        return
    try:
        await _serve(websocket, service, room, seat)
    finally:
        limits.close_socket(client, room.id)


def drop_handshake(websocket: WebSocket) -> None:
    """Let go of the handshake once the socket is accepted and what the table needs
    of it was read (the origin, the seat token, the host's cookie, the language).

    - uvicorn's protocol (``websockets-sansio``, the default) keeps the HTTP request
      and the 101 response (their headers parsed) for as long as the socket lives,
      about 1 KiB each, and never reads them again after the accept. Only those two
      objects of that protocol are dropped; any other server is left as it is.
    - The scope keeps the request's headers, and Starlette the headers and cookies
      it parsed from them: about 2.7 KB for a phone's browser (its user agent,
      languages, cookies). Nothing reads them after this (the server logs the
      client's address and the path, which stay): the scope's headers become empty.

    With four sockets a table that is a good part of what a table's sockets cost."""
    protocol = getattr(getattr(websocket, "_send", None), "__self__", None)
    for name in ("request", "response"):
        if isinstance(getattr(protocol, name, None), Request | Response):
            setattr(protocol, name, None)
    websocket.scope["headers"] = []
    for parsed in ("_headers", "_cookies"):  # Starlette's copies, made when first read
        websocket.__dict__.pop(parsed, None)


async def _serve(websocket: WebSocket, service: RoomService, room: Room,
                 seat: int | None) -> None:
    await websocket.accept()
    host_token = websocket.cookies.get(HOST_COOKIE)
    drop_handshake(websocket)
    conn = Connection(websocket, service, room, seat, host_token,
                      watch=websocket.app.state.loop_watch)
    conn.check_seat()  # the host may have swapped or released the seat meanwhile
    room.listeners.add(conn.notify)
    service.chat.subscribe(room.id, conn.on_chat)
    host_page = conn.seat is None and conn.is_host  # keeps a table that has not started
    service.connected(room, conn.seat, host=host_page)
    service.bots.wake(room)  # a person at the table again: paused bots carry on
    # the first frame: the table as it is now, and the chat (a reconnecting page may
    # have missed messages)
    conn.outbox.append(await conn.chat_state())
    conn.dirty.set()
    sender = asyncio.create_task(conn.sender())
    limit = get_settings().max_message_bytes
    try:
        while True:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                if message.get("code") in PROTOCOL_ERRORS:  # left in a cycle (app.cycles)
                    cycles.owe(PROTOCOL_ERROR_OBJECTS)
                break
            raw = message.get("text")
            if raw is None:
                conn.flash(_("Send text frames only."))
                continue
            try:
                await _handle(conn, _parse(raw, limit))
            except RoomError as exc:
                conn.flash(error_text(exc, room.game))
            except DatabaseUnavailable:
                conn.flash(_("The database is not answering just now; nothing was "
                             "changed. Please try again in a moment."))
            except Exception:  # never let one odd message end the connection
                log.exception("a table message failed")
                conn.flash(_("That did not work; nothing was changed."))
    except Exception as exc:
        if not is_disconnect(exc):
            raise
        log.debug("table socket went away: %r", exc)
    finally:
        conn.closed = True
        room.listeners.discard(conn.notify)
        service.chat.unsubscribe(room.id, conn.on_chat)
        conn.check_seat()
        service.disconnected(room, conn.seat, host=host_page)
        sender.cancel()
        # a hint still being thought out is dropped; the socket lets go of its task
        # first (a cancelled task keeps its error, whose frames hold the socket)
        hinting, conn.hinting = conn.hinting, None
        if hinting is not None:
            hinting.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await sender


HostCommand = Callable[[RoomService, str, str | None, dict[str, Any]], Awaitable[Any]]

HOST_COMMANDS: dict[str, HostCommand] = {
    "start": lambda s, room, host, data: s.start(room, host),
    "add_bot": lambda s, room, host, data: s.add_bot(room, host, data.get("level")),
    "end_game": lambda s, room, host, data: s.end_match(room, host),
    "kick": lambda s, room, host, data: s.release(room, host, data.get("seat")),
    "remove_bot": lambda s, room, host, data: s.remove_bot(room, host, data.get("seat")),
    "swap": lambda s, room, host, data: s.swap(room, host, data.get("a"), data.get("b")),
}
SEAT_COMMANDS = {
    "next_deal": RoomService.next_deal,
    "back": RoomService.back,
}


def _chat_ctx(conn: Connection) -> dict[str, Any]:
    return chat_context(conn.room, conn.seat, conn.is_host, [])


async def _handle(conn: Connection, data: dict[str, Any]) -> None:
    room, service = conn.room, conn.service
    cmd = data.get("cmd")
    if cmd is not None and not isinstance(cmd, str):
        raise RoomError("That message was not understood.")
    conn.check_seat()
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
            raise RoomError(_("Only the host can do that."))
        await HOST_COMMANDS[cmd](service, room.id, conn.host_token, data)
        return
    if cmd in SEAT_COMMANDS:
        if conn.seat is None:
            raise RoomError(_("You are watching; take a seat to play."))
        await SEAT_COMMANDS[cmd](service, room.id, conn.seat)
        return
    if cmd is None and "why" in data:
        _why(conn, data.get("why"))
        return
    if cmd is None and "hint" in data:
        _hint(conn, data.get("hint"))
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
    await service.act(room.id, conn.seat, action, data.get("version"), conn.token_hash)


def _why(conn: Connection, action: Any) -> None:
    """Why the socket's seat may not take ``action`` now (a card of its hand it
    tapped: ``play:EO``), in the engine's own words (:meth:`app.games.Match.verify`)
    and the socket's language, to this socket alone: nothing changes and nothing of
    the table is drawn again. An action the seat may take answers nothing. The
    room's match is always the durable one (a move is applied to a copy, which
    replaces it once written), so no lock is waited for."""
    if not isinstance(action, str) or not action or len(action) > WHY_MAX:
        raise RoomError("That message was not understood.")
    if conn.seat is None:
        raise RoomError(_("You are watching; take a seat to play."))
    match = conn.room.match
    if match is None:
        raise RoomError("The match has not started yet.")
    try:
        match.verify(conn.seat, action)
    except IllegalAction as exc:
        reason = error_text(exc, conn.room.game)
        conn.answer(render_flash(reason[:1].upper() + reason[1:], "why"))


def _hint(conn: Connection, version: Any) -> None:
    """A practice table's hint for the socket's seat at ``version``: refused at once
    when it cannot be had (a flash), else the panel says the bot thinks and the
    answer follows to this socket alone, worked out in the bot pool while the socket
    goes on reading (a move sent meanwhile is made at once)."""
    conn.service.hints.check(conn.room, conn.seat, version)
    if conn.hinting is not None and not conn.hinting.done():
        raise RoomError(HINT_BUSY)
    conn.answer(render_thinking(version))
    conn.hinting = asyncio.create_task(_hint_answer(conn, version))


async def _hint_answer(conn: Connection, version: int) -> None:
    try:
        found = await conn.service.hints.ask(conn.room, conn.seat, version, conn.token_hash)
        html = render_hint(found)
    except RoomError as exc:  # the table moved on meanwhile: said, not as an error
        html = render_cleared() + render_flash(error_text(exc, conn.room.game),
                                               "info" if isinstance(exc, Stale) else "error")
    except Exception:  # never let a hint end the connection
        log.exception("a hint failed")
        html = render_cleared() + render_flash(_("That did not work; nothing was changed."))
    conn.answer(html)

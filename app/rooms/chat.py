"""The table's chat: short messages and quick reactions, kept with the room.

Who may write: everybody seated (people; bots do not chat) and, while the table
option ``spectator_chat`` is on, spectators under a name they type (shown as
watching). Everybody at the table, spectators too, reads. The host switches
spectators' writing on and off while playing.

A message is checked (at most ``CHAT_MAX`` characters, no control characters, no
bidirectional controls (``app.rooms.names.BIDI_CONTROLS``);
a reaction is one of ``REACTIONS``), rate limited per writer with the ``limits``
library (``CHAT_RATE``: 429 over the API, a flash on the socket), written to the
database and only then appended to the room's log and announced to the room's
connections. It never touches the match or its version. The last ``CHAT_KEEP``
messages stay in memory; they are read back from the database the first time a
room's chat is needed (after a restart too), a rematch continuing the
conversation of the match before it.
"""

from __future__ import annotations

import asyncio
import unicodedata
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from limits import parse
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter

from app.db import Database, repo
from app.i18n import _
from app.rooms.errors import BadRequest, Forbidden, NotFound, TooMany, Unauthorized
from app.rooms.names import clean_name, has_bidi_control, same_name
from app.rooms.room import Room
from app.rooms.table_options import TABLE_DEFAULTS
from app.rooms.writes import RoomWrites

CHAT_MAX = 200
CHAT_KEEP = 100
REACTIONS: tuple[str, ...] = ("👍", "😂", "😮", "🍺")
CHAT_RATE = "5/10 seconds"  # per writer (a seat, or one spectator's connection)
SPECTATORS_RATE = "20/minute"  # all spectators of a room together

ChatMessage = repo.ChatMessage


@dataclass(frozen=True)
class ChatEvent:
    """What a room's connections hear: a new ``message``, or (None) that the
    spectators' permission changed and the chat form must be drawn again."""

    message: ChatMessage | None


ChatListener = Callable[[ChatEvent], None]


def clean_text(raw: Any) -> str:
    """One line of at most ``CHAT_MAX`` characters. HTML is kept as typed (it is
    always escaped when shown); control characters are refused."""
    if not isinstance(raw, str):
        raise BadRequest(_("A chat message is a text."))
    text = " ".join(raw.split())
    if not text:
        raise BadRequest(_("Type a message first."))
    if len(text) > CHAT_MAX:
        raise BadRequest(_("A chat message has at most {n} characters.").format(n=CHAT_MAX))
    if has_bidi_control(text):
        raise BadRequest(_("A chat message cannot contain characters that change the "
                           "writing direction."))
    if any(unicodedata.category(ch) in ("Cc", "Cs", "Co", "Cn") for ch in text):
        raise BadRequest(_("A chat message cannot contain control characters."))
    return text


def clean_reaction(raw: Any) -> str:
    if not isinstance(raw, str) or raw not in REACTIONS:
        raise BadRequest(_("Pick one of the reactions {list}.").format(list=" ".join(REACTIONS)))
    return raw


class TableChat:
    def __init__(self, db: Database, rate: str = CHAT_RATE,
                 spectators_rate: str = SPECTATORS_RATE,
                 writes: RoomWrites | None = None) -> None:
        """Messages and the spectators' switch are written through ``writes``
        (fenced with room leases; None: unfenced)."""
        self.db = db
        self._writes = writes or RoomWrites(db)
        self.limiter = MovingWindowRateLimiter(MemoryStorage())
        self.rate = parse(rate)
        self.spectators_rate = parse(spectators_rate)
        self.rate_text = rate
        self._logs: dict[str, deque[ChatMessage]] = {}
        self._loading: dict[str, asyncio.Lock] = {}
        self._listeners: dict[str, set[ChatListener]] = {}

    # ----- reading ---------------------------------------------------------------
    async def messages(self, room: Room) -> list[ChatMessage]:
        """The room's last ``CHAT_KEEP`` messages, oldest first."""
        log = self._logs.get(room.id)
        if log is None:
            lock = self._loading.setdefault(room.id, asyncio.Lock())
            async with lock:
                log = self._logs.get(room.id)
                if log is None:
                    rows = await self.db.read(repo.recent_chat, match_id=room.id,
                                              limit=CHAT_KEEP)
                    log = self._logs.setdefault(room.id, deque(rows, maxlen=CHAT_KEEP))
            self._loading.pop(room.id, None)
        return list(log)

    @staticmethod
    def spectators_may_write(room: Room) -> bool:
        return bool(room.table.get("spectator_chat", TABLE_DEFAULTS["spectator_chat"]))

    def may_write(self, room: Room, seat: int | None) -> bool:
        if seat is None:
            return self.spectators_may_write(room)
        player = room.seats[seat]
        return player is not None and not player.is_bot

    # ----- listeners (the room's open connections) --------------------------------
    def subscribe(self, room_id: str, listener: ChatListener) -> None:
        self._listeners.setdefault(room_id, set()).add(listener)

    def unsubscribe(self, room_id: str, listener: ChatListener) -> None:
        listeners = self._listeners.get(room_id)
        if listeners is not None:
            listeners.discard(listener)
            if not listeners:
                del self._listeners[room_id]

    def _tell(self, room_id: str, event: ChatEvent) -> None:
        for listener in list(self._listeners.get(room_id, ())):
            listener(event)

    # ----- writing ------------------------------------------------------------------
    async def post(self, room: Room, seat: int | None, *, text: Any = None,
                   reaction: Any = None, name: Any = None,
                   writer: str | None = None) -> ChatMessage:
        """Post a message (``text``) or a quick reaction for ``seat`` (None: a
        spectator called ``name``; ``writer`` tells spectators apart for the rate
        limit). Refusals raise a RoomError and change nothing."""
        if room.closed:
            raise NotFound(_("This table was closed."))
        if reaction is not None:
            kind, body = "reaction", clean_reaction(reaction)
        else:
            kind, body = "text", clean_text(text)
        if seat is None:
            if not self.spectators_may_write(room):
                raise Forbidden(_("The host has closed the chat for spectators."))
            author = clean_name(name) if name not in (None, "") else _("Guest")
            if any(s is not None and same_name(s.name, author) for s in room.seats):
                raise BadRequest(_("Somebody at this table is called that; "
                                   "please pick another name."))
        else:
            player = room.seats[seat]
            if player is None or player.is_bot:
                raise Forbidden(_("Only the people at this table can write here."))
            author = player.name
        self._limit(room, seat, writer)
        await self.messages(room)  # the log is loaded (from before this message)
        message = await self._writes.run(room.id, repo.add_chat, match_id=room.id, seat=seat,
                                         name=author, kind=kind, text=body)
        self._logs[room.id].append(message)
        self._tell(room.id, ChatEvent(message))
        return message

    def _limit(self, room: Room, seat: int | None, writer: str | None) -> None:
        who = f"seat:{seat}" if seat is not None else f"spectator:{writer or '?'}"
        ok = self.limiter.test(self.rate, room.id, who)
        if ok and seat is None:
            ok = self.limiter.test(self.spectators_rate, room.id, "spectators")
        if not ok:
            raise TooMany(_("Not so fast: at most {rate} per writer. Try again in a "
                            "moment.").format(rate=self._rate_words()))
        self.limiter.hit(self.rate, room.id, who)
        if seat is None:
            self.limiter.hit(self.spectators_rate, room.id, "spectators")

    def _rate_words(self) -> str:
        return _("{n} messages in {s} seconds").format(
            n=self.rate.amount, s=self.rate.get_expiry())

    # ----- the host's switch -------------------------------------------------------
    async def set_spectator_chat(self, room: Room, host_token: str | None, on: Any) -> None:
        """The host lets spectators write, or stops them (they still read)."""
        if not host_token:
            raise Unauthorized(_("Only the host can change who may chat."))
        if not room.is_host(host_token):
            raise Forbidden(_("Only the host can change who may chat."))
        if not isinstance(on, bool):
            raise BadRequest(_("Say on (true) or off (false)."))
        if room.closed:
            raise NotFound(_("This table was closed."))
        table = {**room.table, "spectator_chat": on}
        await self._writes.run(room.id, repo.save_table_options, match_id=room.id,
                               table_options=table)
        room.table = table
        self._tell(room.id, ChatEvent(None))

    def forget(self, room_id: str) -> None:
        """The room left memory: its log goes too (it stays in the database)."""
        self._logs.pop(room_id, None)
        self._listeners.pop(room_id, None)
        self._loading.pop(room_id, None)

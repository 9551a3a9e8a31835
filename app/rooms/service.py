"""The room service: the one place that decides who may do what in a room.

The JSON API, the table WebSocket and the bots all go through it. It keeps the
open rooms and composes the parts that do the work:

- :mod:`app.rooms.pipeline`: check, apply on a copy, write, then show;
- :mod:`app.rooms.windows`: challenge windows and the silent accept;
- :mod:`app.rooms.bot_driver`: bots move when it is their turn;
- :mod:`app.rooms.upkeep`: restore at start-up, idle rooms leave memory;
- :mod:`app.rooms.chat`: the table's chat and reactions (never the match);
- :mod:`app.rooms.rematch`: play again with the same people.

Seating and the host's commands (create, join, add a bot, start, end) are here.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import unicodedata
from collections.abc import Awaitable
from datetime import timedelta
from typing import Any

from app.bots import BOT_NAMES
from app.config import get_settings
from app.db import Database, repo
from app.games import GAMES, N_, IllegalAction, new_match
from app.rooms.bot_driver import BotDriver
from app.rooms.chat import TableChat
from app.rooms.clock import Clock, MonotonicClock
from app.rooms.errors import BadRequest, Forbidden, NotFound, Unauthorized
from app.rooms.pipeline import ActionPipeline
from app.rooms.quotas import RoomQuota, check_someone_plays
from app.rooms.recovery import DatabaseRecovery
from app.rooms.rematch import open_rematch
from app.rooms.room import Room, Seat, token_hash
from app.rooms.table_options import split_options
from app.rooms.upkeep import load_open_rooms
from app.rooms.windows import ChallengeWindows

log = logging.getLogger("stammtisch.rooms")

NAME_MAX = 24
# the host's commands refuse everybody else with these (translated where shown)
ONLY_HOST_BOTS = N_("Only the host can add bots.")
ONLY_HOST_START = N_("Only the host can start the match.")
ONLY_HOST_END = N_("Only the host can end the game.")
SWEEP_MIN_S, SWEEP_MAX_S = 0.5, 60.0


def clean_name(raw: Any) -> str:
    """A display name: NFKC-normalised (so a fullwidth "Ａnna" becomes "Anna"),
    trimmed, 1..24 printable characters. HTML is not stripped (names are always
    escaped when shown) but control and formatting characters (zero-width ones
    included) are refused. Names are compared case-folded."""
    if not isinstance(raw, str):
        raise BadRequest("Please type a name.")
    name = " ".join(unicodedata.normalize("NFKC", raw).split())
    if not name:
        raise BadRequest("Please type a name.")
    if len(name) > NAME_MAX:
        raise BadRequest("A name has at most {limit} characters.", limit=NAME_MAX)
    if any(unicodedata.category(ch).startswith("C") for ch in name):
        raise BadRequest("A name cannot contain control characters.")
    return name


def same_name(a: str, b: str) -> bool:
    """Two display names that people would take for the same one."""
    return unicodedata.normalize("NFKC", a).casefold() == unicodedata.normalize(
        "NFKC", b).casefold()


def new_room_id() -> str:
    return secrets.token_urlsafe(16)  # 128 bits


def new_token() -> str:
    return secrets.token_urlsafe(32)


class RoomService:
    def __init__(self, db: Database, bot_delay_ms: int | None = None,
                 clock: Clock | None = None) -> None:
        self.db = db
        self.clock: Clock = clock or MonotonicClock()
        self.rooms: dict[str, Room] = {}
        settings = get_settings()
        delay = settings.bot_delay_ms if bot_delay_ms is None else bot_delay_ms
        self.idle_seconds = settings.room_idle_minutes * 60
        self.quota = RoomQuota(max_open_rooms=settings.max_open_rooms,
                               idle_seconds=self.idle_seconds,
                               unstarted_idle_seconds=settings.unstarted_room_idle_minutes * 60)
        self._tasks: set[asyncio.Task[None]] = set()
        self.windows = ChallengeWindows(self._spawn)
        self.pipeline = ActionPipeline(db, self.windows)
        self.bots = BotDriver(self.pipeline, max(0, delay) / 1000)
        self.windows.attach(self.pipeline.apply_locked, self.bots.wake)
        self.recovery = DatabaseRecovery(db, self._spawn, self._resumed)
        self.pipeline.on_unavailable = self.recovery.wait_for_database
        self.chat = TableChat(db)

    def _spawn(self, coro: Awaitable[None]) -> None:
        task: asyncio.Task[None] = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # ----- lookups -----------------------------------------------------------
    def get(self, room_id: str) -> Room:
        room = self.rooms.get(room_id)
        if room is None:
            raise NotFound("There is no open table at this link.")
        return room

    def seat_for(self, room: Room, token: str | None) -> int | None:
        """The seat of ``token``; a token that is given but unknown is refused."""
        if token is None:
            return None
        seat = room.seat_of(token)
        if seat is None:
            raise Forbidden("This seat token does not belong to this table.")
        return seat

    # ----- seating and the host's commands -------------------------------------
    async def create(self, *, game: str, players: int | None = None,
                     options: dict[str, Any] | None = None,
                     seed: int | None = None) -> tuple[Room, str]:
        info = GAMES.get(game)
        if info is None:
            raise BadRequest("Unknown game {game!r}.", game=game)
        count = info.min_players if players is None else players
        cls = info.match_class
        try:
            cls.check_players(count)
            game_options, table = split_options(dict(options or {}))
            checked = cls.check_options(count, game_options)
        except ValueError as exc:
            raise BadRequest.of(exc) from None
        self.quota.check_room_can_open(len(self.rooms))
        host_token = new_token()
        room = Room(id=new_room_id(), game=game, players=count, options=checked,
                    host_token_hash=token_hash(host_token), seed=seed, clock=self.clock,
                    table=table)
        await self.db.run(repo.create_match, match_id=room.id, game=game, players=count,
                          options=checked, host_token=host_token, seed=seed,
                          table_options=table)
        self.rooms[room.id] = room
        log.info("room created game=%s players=%d", game, count)
        return room, host_token

    async def join(self, room_id: str, name: Any, *, is_bot: bool = False) -> tuple[int, str]:
        """Seat ``name`` in the next free seat; a bot (``name`` None) gets a free
        bot name."""
        room = self.get(room_id)
        if not is_bot:
            name = clean_name(name)
        async with room.lock:
            if name is None:
                name = self._bot_name(room)
            if room.match is not None:
                raise Forbidden("The match has already started; you can watch.")
            free = room.free_seats
            if not free:
                raise Forbidden("Every seat at this table is taken.")
            if any(s is not None and same_name(s.name, name) for s in room.seats):
                raise BadRequest("Somebody at this table already has that name.")
            token = new_token()
            seat = Seat(index=free[0], name=name, token_hash=token_hash(token), is_bot=is_bot)
            await self.db.run(repo.add_seat, match_id=room.id, seat=seat.index, name=name,
                              token=token, is_bot=is_bot, version=room.version + 1)
            room.seats[seat.index] = seat
            room.changed()
        return seat.index, token

    @staticmethod
    def _bot_name(room: Room) -> str:
        taken = {s.name.casefold() for s in room.seats if s is not None}
        return next((n for n in BOT_NAMES if n.casefold() not in taken), None) or next(
            f"Bot {i}" for i in range(1, 99) if f"bot {i}" not in taken)

    @staticmethod
    def _check_host(room: Room, host_token: str | None, message: str) -> None:
        """``message`` (one of the ``ONLY_HOST`` sentences) unless ``host_token`` is the
        host's."""
        if not host_token:
            raise Unauthorized(message)
        if not room.is_host(host_token):
            raise Forbidden(message)

    async def add_bot(self, room_id: str, host_token: str | None) -> int:
        """The host seats a bot in the next free seat."""
        room = self.get(room_id)
        self._check_host(room, host_token, ONLY_HOST_BOTS)
        seat, _token = await self.join(room_id, None, is_bot=True)
        return seat

    async def start(self, room_id: str, host_token: str | None) -> None:
        room = self.get(room_id)
        self._check_host(room, host_token, ONLY_HOST_START)
        async with room.lock:
            if room.match is not None:
                raise BadRequest("The match has already started.")
            if room.free_seats:
                raise BadRequest("Waiting for {count} more player(s) before the start.",
                                 count=len(room.free_seats))
            check_someone_plays(room)
            match = new_match(room.game, room.players, room.options, seed=room.seed)
            chips = match.chips_at_start() if GAMES[room.game].keeps_chip_ledger else None
            await self.pipeline.commit(room, match, None, "start", [], started=True,
                                       start_chips=chips)
        log.info("room started game=%s", room.game)
        self.bots.wake(room)

    async def end_match(self, room_id: str, host_token: str | None) -> None:
        """The host ends a game that has no natural end (``GameInfo.host_can_end``)."""
        room = self.get(room_id)
        self._check_host(room, host_token, ONLY_HOST_END)
        async with room.lock:
            if room.match is None or room.match.is_over:
                raise BadRequest("There is no game running to end.")
            if not GAMES[room.game].host_can_end:
                raise BadRequest("This game ends by itself; the host cannot end it early.")
            work = room.match.copy()
            try:
                events = work.end_by_host()
            except IllegalAction as exc:
                raise BadRequest.of(exc) from None
            await self.pipeline.commit(room, work, None, "end_game", events)

    async def rematch(self, room_id: str, host_token: str | None,
                      options: dict[str, Any] | None = None) -> tuple[Room, bool]:
        """The host of a finished match plays again with the same people and seats
        (see :mod:`app.rooms.rematch`): ``(new room, opened just now)``."""
        return await open_rematch(self, room_id, host_token, options)

    # ----- play ----------------------------------------------------------------
    async def act(self, room_id: str, seat: int, action: Any, version: Any) -> list[dict[str, Any]]:
        room = self.get(room_id)
        events = await self.pipeline.act(room, seat, action, version)
        self.bots.wake(room)
        return events

    # ----- restart and idle rooms ------------------------------------------------
    async def restore_open_rooms(self) -> int:
        """Bring back every unfinished room exactly as it was saved; restart the
        timers and the bots. Never-started rooms idle for longer than
        ``UNSTARTED_ROOM_IDLE_MINUTES`` are deleted instead."""
        before = repo.now() - timedelta(seconds=self.quota.unstarted_idle_seconds)
        deleted = await self.db.run(repo.delete_stale_unstarted, idle_before=before)
        if deleted:
            log.info("deleted %d never-started idle rooms", deleted)
        return await load_open_rooms(self.db, self.clock, self._admit)

    def _admit(self, room: Room) -> None:
        self.windows.restored(room)
        self.rooms[room.id] = room
        self.bots.wake(room)

    def _resumed(self, room: Room) -> None:
        """The database answers again and ``room`` was reloaded from its last save."""
        self.windows.restored(room)
        self.bots.wake(room)

    async def sweep_idle(self) -> int:
        """Rooms with no seated person present and nothing done for
        ``ROOM_IDLE_MINUTES`` leave memory; an unfinished one is closed (its finished
        deals stay in the history). A room whose match never started is deleted
        after ``UNSTARTED_ROOM_IDLE_MINUTES``. Spectators' sockets keep nothing
        alive; they are told the table closed."""
        gone = self.quota.idle_rooms(self.rooms, self.clock.now())
        for room in gone:
            async with room.lock:
                if room.match is None:
                    await self.db.run(repo.delete_unstarted, match_id=room.id)
                elif room.status != "finished":
                    await self.db.run(repo.close_match, match_id=room.id)
                room.closed = True
                self.rooms.pop(room.id, None)
                self.bots.stop(room.id)
                room._tell()  # open sockets (spectators) learn that the table closed
                self.chat.forget(room.id)
        if gone:
            log.info("%d idle rooms left memory", len(gone))
        return len(gone)

    async def run_sweeper(self) -> None:
        interval = max(SWEEP_MIN_S, min(SWEEP_MAX_S, self.idle_seconds / 4))
        while True:
            await self.clock.sleep(interval)
            try:
                await self.sweep_idle()
            except Exception:
                log.exception("idle sweep failed")

    async def close(self) -> None:
        for task in self._tasks:
            task.cancel()
        self.bots.close()

"""The room service: the one place that decides who may do what in a room.

The JSON API, the table WebSocket and the bots all go through it. It keeps the
open rooms and composes the parts that do the work:

- :mod:`app.rooms.pipeline`: check, apply on a copy, write, then show;
- :mod:`app.rooms.windows`: challenge windows and the silent accept;
- :mod:`app.rooms.bot_driver`: bots move when it is their turn;
- :mod:`app.rooms.turns`: the turn clock, and a bot plays for a person who is away,
  out of time or whose seat the host released;
- :mod:`app.rooms.pacing`: a finished trick and a deal's result stay on show, moves
  made meanwhile are queued;
- :mod:`app.rooms.upkeep`: restore at start-up, idle rooms leave memory;
- :mod:`app.rooms.leases`: with ``ROOM_LEASES``, a room is served by the process
  holding its lease, loaded when it is first asked for;
- :mod:`app.rooms.chat`: the table's chat and reactions (never the match);
- :mod:`app.rooms.rematch`: play again with the same people.

Each part is built whole, with what it works with; what one part's work leads to in
another part (a pause is over: the turn clock starts and the bots move on) the part
reports as one of the room's events (:mod:`app.rooms.events`), and the service
answers them all in one place (the section "what happens to a room" below).

Seating and the host's commands (create, a practice table, join or take over a
seat, add or remove a bot, swap seats, start, release a seat, end) are here.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Awaitable
from datetime import timedelta
from typing import Any

from app.bots import BOT_NAMES, DEFAULT_LEVEL, LEVELS
from app.bots.pool import BotPool
from app.config import get_settings
from app.db import Database, repo
from app.games import GAMES, N_, NOBODY_PLAYS_ON, IllegalAction, new_match
from app.i18n import _
from app.rooms import presence
from app.rooms.bot_driver import BotDriver
from app.rooms.chat import TableChat
from app.rooms.clock import Clock, MonotonicClock
from app.rooms.errors import (
    BadRequest,
    Conflict,
    Forbidden,
    Illegal,
    NotFound,
    RoomError,
    ServedElsewhere,
    Unauthorized,
)
from app.rooms.hints import Hints
from app.rooms.leases import (
    HANDBACK_POLL_S,
    HANDBACK_WAIT_S,
    RETRY_AFTER_S,
    SERVED_ELSEWHERE,
    Leases,
    enabled,
)
from app.rooms.names import clean_name, same_name
from app.rooms.pacing import Pacing, pause_left
from app.rooms.pipeline import ActionPipeline
from app.rooms.quotas import (
    NOBODY_PLAYS_ON_ACTION,
    RoomQuota,
    check_someone_plays,
    nobody_plays_on,
)
from app.rooms.recovery import DatabaseRecovery
from app.rooms.rematch import check_host as check_rematch_host
from app.rooms.rematch import next_room, save_rematch
from app.rooms.reviews import Reviews
from app.rooms.room import Room, Seat, new_room_id, new_token, token_hash
from app.rooms.seating import next_free_seat
from app.rooms.table_options import split_options
from app.rooms.turns import RELEASED, Turns
from app.rooms.upkeep import load_open_rooms
from app.rooms.windows import ChallengeWindows
from app.rooms.writes import RoomWrites

log = logging.getLogger("stammtisch.rooms")

# the host's commands refuse everybody else with these (translated where shown)
ONLY_HOST_BOTS = N_("Only the host can add bots.")
ONLY_HOST_REMOVE_BOTS = N_("Only the host can remove bots.")
ONLY_HOST_SWAP = N_("Only the host can swap seats.")
ONLY_HOST_RELEASE = N_("Only the host can release a seat.")
ONLY_HOST_START = N_("Only the host can start the match.")
ONLY_HOST_END = N_("Only the host can end the game.")
SWEEP_MIN_S, SWEEP_MAX_S = 0.5, 60.0
PRACTICE_LEVEL = "strong"  # the bots of a practice table (app.bots.LEVELS)
LOADS_AT_ONCE = 4  # rooms taken and loaded at the same time (RoomService.load)


def _swap_keys(book: dict[int, Any], a: int, b: int) -> None:
    moved = {b: book[a]} if a in book else {}
    moved.update({a: book[b]} if b in book else {})
    book.pop(a, None)
    book.pop(b, None)
    book.update(moved)


def released_seats(room: Room) -> list[int]:
    """Seats the host released in a running match: anybody may take them over."""
    return sorted(s for s, why in room.stand_ins.items() if why == RELEASED)


class RoomService:
    def __init__(self, db: Database, bot_delay_ms: int | None = None,
                 clock: Clock | None = None, pool: BotPool | None = None,
                 room_leases: bool | None = None,
                 lease_seconds: float | None = None) -> None:
        """``room_leases`` and ``lease_seconds``: the settings ``ROOM_LEASES`` and
        ``LEASE_SECONDS`` unless given (``ROOM_LEASES=auto``: leases on with
        PostgreSQL, :func:`app.rooms.leases.enabled`)."""
        self.db = db
        self.clock: Clock = clock or MonotonicClock()
        self.rooms: dict[str, Room] = {}
        settings = get_settings()
        delay = settings.bot_delay_ms if bot_delay_ms is None else bot_delay_ms
        self.idle_seconds = settings.room_idle_minutes * 60
        self.quota = RoomQuota(max_open_rooms=settings.max_open_rooms,
                               idle_seconds=self.idle_seconds,
                               unstarted_idle_seconds=settings.unstarted_room_idle_minutes * 60,
                               max_rooms_per_client=settings.max_rooms_per_client)
        self._tasks: set[asyncio.Task[None]] = set()
        leasing = enabled(settings.room_leases if room_leases is None else room_leases,
                          db.url)
        # with leases this process serves only the rooms it holds (app.rooms.leases)
        self.leases = Leases(db, lease_seconds or settings.lease_seconds, self.clock,
                             self) if leasing else None
        # rooms taken and loaded at the same time: a few, so that one waiting for the
        # database overlaps another's replay, and after a failover the rooms of a dead
        # process become ready one after another rather than all of them at the end
        self._loading = asyncio.Semaphore(LOADS_AT_ONCE)
        # the rooms being taken from another process: requests for one wait together
        self._handbacks: dict[str, asyncio.Future[None]] = {}
        # every part reports what happened to a room to this service (RoomEvents)
        self.recovery = DatabaseRecovery(db, self._spawn, self)
        self.windows = ChallengeWindows(self._spawn, self)
        self.pacing = Pacing(self._spawn, self)
        # every write of a room besides its steps, fenced with leases (app.rooms.writes)
        self.writes = RoomWrites(db, self.leases.me if self.leases else None, self)
        self.turns = Turns(db, self._spawn, self, self.writes)
        self.pipeline = ActionPipeline(db, self.windows, self.pacing, self.recovery, self,
                                       owner=self.leases.me if self.leases else None)
        # strong bots think in ``pool`` (app.bots.pool); without one they play the
        # house rules like easy ones
        self.bots = BotDriver(self.pipeline, max(0, delay) / 1000, pool)
        self.chat = TableChat(db, writes=self.writes)
        # hints on a practice table think in the pool too, like a bot's move
        self.hints = Hints(pool)
        # reviews of a person's deal think in the pool too, behind the bots' moves
        self.reviews = Reviews(db, pool, settings.review_budget_ms, self._spawn,
                               rooms=self.rooms, now=self.clock.now, writes=self.writes)

    def _spawn(self, coro: Awaitable[None]) -> asyncio.Task[None]:
        task: asyncio.Task[None] = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    # ----- what happens to a room (app.rooms.events.RoomEvents) ---------------------
    async def apply_locked(self, room: Room, seat: int, action: str,
                           note: dict[str, Any] | None = None,
                           decided: bool = False) -> list[dict[str, Any]]:
        """A move that waited (queued during a pause, a silent seat's accept) goes
        through the pipeline like any other (the caller holds ``room.lock``)."""
        return await self.pipeline.apply_locked(room, seat, action, note, decided)

    def step_shown(self, room: Room) -> None:
        """A move was saved: the turn clock looks at the new turn, and the strong bot
        that may have to play a person's seat later remembers what that seat saw."""
        self.turns.refresh(room)
        self.bots.observe(room)
        self._end_if_nobody_plays_on(room)

    def pause_over(self, room: Room) -> None:
        """A finished trick or deal was shown long enough: the turn clock starts and
        the bots move on."""
        had = room.turn_deadline
        self.turns.refresh(room)
        if room.turn_deadline != had:
            room.tell()
        self._end_if_nobody_plays_on(room)
        self.bots.wake(room)

    def window_closed(self, room: Room) -> None:
        """The silent seats accepted: the bots move on."""
        self.bots.wake(room)

    def stand_in_due(self, room: Room) -> None:
        """Somebody is away or out of time: a bot plays for them."""
        self.bots.wake(room)

    def database_back(self, room: Room) -> None:
        """The database answers again and ``room`` was reloaded from its last save."""
        self.windows.restored(room)
        self.turns.refresh(room)
        self._end_if_nobody_plays_on(room)
        self.bots.wake(room)

    def rooms_lost(self, room_ids: set[str]) -> None:
        """Another server process took these rooms over (this one missed renewing
        their leases, or a step of theirs was refused): they leave memory at once,
        nothing of theirs is written again, and their pages reconnect (close 1012),
        to the process that serves them now."""
        for room_id in room_ids:
            if self.leases is not None:
                self.leases.forget(room_id)
            room = self.rooms.pop(room_id, None)
            if room is None:
                continue
            self.bots.forget(room)
            self.chat.forget(room.id)
            room.close(handed_over=True)
            log.warning("room %s left memory: another server process serves it", room_id)

    def room_wanted(self, room_id: str) -> None:
        """The proxy sends this room's requests to another server process now (the
        room was opened here, or the process it prefers is back): the room is handed
        over (:meth:`_hand_over`)."""
        if room_id in self.rooms:
            self._spawn(self._hand_over(room_id))

    async def _hand_over(self, room_id: str) -> None:
        """The step being written is finished first (the room's lock); then the room
        leaves memory as on a graceful stop (its pages reconnect, close 1012, to the
        process that asked) and its lease is given up. Not a finished room: only an
        open room is taken and loaded, so the other answers 503 for it (its final
        table and "Play again" are here) until it leaves memory."""
        room = self.rooms.get(room_id)
        if room is None or self.leases is None:
            return
        async with room.lock:
            if self.rooms.get(room_id) is not room or room.status == "finished":
                return
            self.rooms.pop(room_id)
            self.bots.forget(room)
            self.chat.forget(room_id)
            room.close(handed_over=True)
            try:
                await self.leases.release(room_id)
            except Exception as exc:  # it runs out by itself within LEASE_SECONDS
                log.warning("room %s: the lease could not be given up: %s", room_id, exc)
        log.info("room %s handed over to the server process that asked for it", room_id)

    def _end_if_nobody_plays_on(self, room: Room) -> None:
        """No person at the table can play on any more (every person's seat is out:
        :func:`app.rooms.quotas.nobody_plays_on`): once the result on show has been
        seen (the held deal's result, a finished trick), the room ends the match, as
        the host could (``GameInfo.host_can_end``), instead of the bots playing on
        alone. The bots wait meanwhile."""
        if nobody_plays_on(room) and pause_left(room) <= 0:
            self._spawn(self._end_for_nobody(room))

    async def _end_for_nobody(self, room: Room) -> None:
        try:
            async with room.lock:
                if not nobody_plays_on(room) or pause_left(room) > 0 or room.match is None:
                    return  # somebody was quicker (the host ended it, a pause began)
                work = room.match.copy()
                events = work.end_by_host(NOBODY_PLAYS_ON)
                await self.pipeline.commit(room, work, None, NOBODY_PLAYS_ON_ACTION, events)
            log.info("room ended: nobody plays on game=%s", room.game)
        except RoomError as exc:  # stopped, or the database is away: it says so itself
            log.warning("room %s: could not end the match: %s", room.id, exc.message)

    # ----- lookups -----------------------------------------------------------
    async def load(self, room_id: str) -> None:
        """With room leases: a room asked for that is not in memory is taken (its
        lease) and loaded from the database, as at start-up; one that another live
        process serves is refused (:class:`ServedElsewhere`, 503). A room id that is
        no open room is left to :meth:`get` and the pages (404, a finished match).
        Without leases every open room is in memory from the start: nothing to do."""
        if self.leases is None or room_id in self.rooms:
            return
        waiting = self._handbacks.get(room_id)
        if waiting is None:  # one wait per room, however many requests ask for it
            waiting = asyncio.ensure_future(self._take_and_load(room_id))
            self._handbacks[room_id] = waiting
            waiting.add_done_callback(lambda done: self._waited(room_id, done))
        await asyncio.shield(waiting)

    def _waited(self, room_id: str, done: asyncio.Future[None]) -> None:
        self._handbacks.pop(room_id, None)
        if not done.cancelled():
            done.exception()  # told to the requests that waited (none: nobody to tell)

    async def _take_and_load(self, room_id: str) -> None:
        """Take the room's lease and load it; while another process holds it, ask
        that one to let go (the handback, :mod:`app.rooms.leases`) and try again
        for up to ``HANDBACK_WAIT_S``, then refuse (503)."""
        assert self.leases is not None
        loop = asyncio.get_running_loop()
        until = loop.time() + HANDBACK_WAIT_S
        asked = False
        while True:
            async with self._loading:
                if room_id in self.rooms:
                    return
                taken = await self.leases.take(room_id)
                if taken is None:
                    return
                if taken:
                    try:
                        await load_open_rooms(self.db, self.clock, self._admit, only=room_id)
                    finally:
                        if room_id not in self.rooms:  # finished meanwhile, or unreadable
                            await self.leases.release(room_id)
                    log.info("room %s taken and loaded", room_id)
                    return
            if loop.time() >= until:
                raise ServedElsewhere(SERVED_ELSEWHERE, RETRY_AFTER_S)
            if not asked:
                await self.leases.ask(room_id)
                asked = True
            await asyncio.sleep(HANDBACK_POLL_S)

    async def _hold(self, room: Room) -> None:
        """A room made here (opened, a rematch) is served here: with room leases its
        lease is taken before it enters memory."""
        if self.leases is not None and not await self.leases.take(room.id):
            log.warning("room %s: could not take the lease of a room made here", room.id)
        self.rooms[room.id] = room

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
                     seed: int | None = None, client: str | None = None
                     ) -> tuple[Room, str]:
        """Open a room; ``client`` (its address, ``app.web.limits.client_key``) is
        who opened it, for the cap on rooms open per client."""
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
        await self._check_client(client)
        host_token = new_token()
        room = Room(id=new_room_id(), game=game, players=count, options=checked,
                    host_token_hash=token_hash(host_token), seed=seed, clock=self.clock,
                    table=table, opened_by=client)
        await self.db.run(repo.create_match, match_id=room.id, game=game, players=count,
                          options=checked, host_token=host_token, seed=seed,
                          table_options=table,
                          opened_by=client if self.leases is not None else None)
        await self._hold(room)
        log.info("room created game=%s players=%d", game, count)
        return room, host_token

    async def _check_client(self, client: str | None) -> None:
        """429 once ``client`` has ``MAX_ROOMS_PER_CLIENT`` rooms open: in this
        process's memory, or with room leases in every process's (the database,
        ``repo.rooms_opened_by``): behind a proxy a client's rooms are spread over
        the processes, and move between them."""
        if self.leases is None:
            self.quota.check_client_can_open(self.rooms, client)
        elif self.quota.caps_clients(client):
            assert client is not None
            self.quota.check_client_opened(
                await self.db.read(repo.rooms_opened_by, client=client))

    async def join(self, room_id: str, name: Any, *, is_bot: bool = False,
                   seat: Any = None, level: str = DEFAULT_LEVEL,
                   player_key: str | None = None) -> tuple[int, str]:
        """Seat ``name`` in ``seat`` (None: the next free one, partners first:
        :mod:`app.rooms.seating`); a bot (``name``
        None) gets a free bot name. Once the match runs, a person may take over a seat
        the host released (:meth:`take_over`). ``player_key``: who the person is across
        tables (kept with the seat in the database only, for the standings)."""
        room = self.get(room_id)
        if not is_bot:
            name = clean_name(name)
        wanted = self._seat_number(room, seat) if seat is not None else None
        if room.match is not None and not is_bot:
            return await self.take_over(room_id, name, wanted, player_key=player_key)
        async with room.lock:
            if name is None:
                name = self._bot_name(room)
            if room.match is not None:
                raise Forbidden("The match has already started; you can watch.")
            free = room.free_seats
            if not free:
                raise Forbidden("Every seat at this table is taken.")
            if wanted is not None and wanted not in free:
                raise Conflict(_("That seat is taken; pick a free one."))
            self._check_name(room, name)
            token = new_token()
            index = next_free_seat(room, is_bot) if wanted is None else wanted
            new = Seat(index=index, name=name, token_hash=token_hash(token), is_bot=is_bot,
                       level=level)
            await self.writes.run(room.id, repo.add_seat, match_id=room.id, seat=index,
                                  name=name, token=token, is_bot=is_bot,
                                  version=room.version + 1, level=level,
                                  player_key=None if is_bot else player_key)
            room.seats[index] = new
            if not is_bot:
                presence.seen(room, index)
            room.changed()
        return index, token

    async def take_over(self, room_id: str, name: str, seat: int | None,
                        player_key: str | None = None) -> tuple[int, str]:
        """Somebody opens the link of a running match and takes over a seat the host
        released (``seat``, or the first such seat): a new name and seat token; the
        old token stops working."""
        room = self.get(room_id)
        async with room.lock:
            released = released_seats(room)
            if room.match is None or room.match.is_over or not released:
                raise Forbidden("The match has already started; you can watch.")
            if seat is not None and seat not in released:
                raise Conflict(_("That seat is not free; a seat the host released can "
                                 "be taken over."))
            index = released[0] if seat is None else seat
            self._check_name(room, name, but=index)
            token = new_token()
            await self.writes.run(room.id, repo.replace_seat, match_id=room.id, seat=index,
                                  name=name, token=token, player_key=player_key)
            room.seats[index] = Seat(index=index, name=name, token_hash=token_hash(token))
            self.turns.taken_over(room, index)
            presence.seen(room, index)
            room.tell()
        self.turns.refresh(room)
        self.pacing.check(room)
        log.info("seat taken over game=%s", room.game)
        return index, token

    @staticmethod
    def _seat_number(room: Room, seat: Any) -> int:
        if isinstance(seat, str) and seat.isascii() and seat.isdigit():
            seat = int(seat)
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < room.players:
            raise BadRequest(_("A seat is a number from 0 to {last}.").format(
                last=room.players - 1))
        return seat

    @staticmethod
    def _check_name(room: Room, name: str, but: int | None = None) -> None:
        if any(s is not None and s.index != but and same_name(s.name, name)
               for s in room.seats):
            raise BadRequest("Somebody at this table already has that name.")

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

    async def add_bot(self, room_id: str, host_token: str | None,
                      level: Any = None) -> int:
        """The host seats a bot of ``level`` ("easy" or "strong"; None: strong) in the
        next free seat."""
        room = self.get(room_id)
        self._check_host(room, host_token, ONLY_HOST_BOTS)
        if level is None:
            level = DEFAULT_LEVEL
        if not isinstance(level, str) or level not in LEVELS:
            raise Illegal(_("A bot's level is “easy” or “strong”."))
        seat, _token = await self.join(room_id, None, is_bot=True, level=level)
        return seat

    async def open_practice(self, *, game: str, players: int | None = None,
                            options: dict[str, Any] | None = None,
                            client: str | None = None) -> tuple[Room, str]:
        """A practice table (issue 28): a room with hints on (the table option
        ``hints``) and a strong bot in every seat but one, which the opener takes, so
        that a newcomer can start at once. Opened and seated as the host would."""
        room, host_token = await self.create(game=game, players=players,
                                             options={**(options or {}), "hints": True},
                                             client=client)
        for _seat in range(room.players - 1):
            await self.add_bot(room.id, host_token, PRACTICE_LEVEL)
        log.info("practice table opened game=%s", game)
        return room, host_token

    async def remove_bot(self, room_id: str, host_token: str | None, seat: Any) -> None:
        """The host frees a bot's seat before the start."""
        room = self.get(room_id)
        self._check_host(room, host_token, ONLY_HOST_REMOVE_BOTS)
        index = self._seat_number(room, seat)
        async with room.lock:
            if room.match is not None:
                raise BadRequest(_("The match has started; a bot stays until it ends."))
            player = room.seats[index]
            if player is None or not player.is_bot:
                raise BadRequest(_("There is no bot in that seat."))
            await self.writes.run(room.id, repo.remove_seat, match_id=room.id, seat=index,
                                  version=room.version + 1)
            room.seats[index] = None
            self.bots.forget(room, index)
            room.changed()

    async def swap(self, room_id: str, host_token: str | None, a: Any, b: Any) -> None:
        """The host lets two seats (or a seat and a free place) change places before
        the start, say so that partners sit together."""
        room = self.get(room_id)
        self._check_host(room, host_token, ONLY_HOST_SWAP)
        first, second = self._seat_number(room, a), self._seat_number(room, b)
        if first == second:
            raise BadRequest(_("Pick two different seats to swap."))
        async with room.lock:
            if room.match is not None:
                raise BadRequest(_("The match has started; seats cannot be swapped now."))
            one, two = room.seats[first], room.seats[second]
            if one is None and two is None:
                raise BadRequest(_("Both seats are free; there is nobody to move."))
            await self.writes.run(room.id, repo.swap_seats, match_id=room.id, a=first,
                                  b=second, version=room.version + 1)
            for player, to in ((one, second), (two, first)):
                room.seats[to] = player
                self.bots.forget(room, to)
                if player is not None:
                    player.index = to
            _swap_keys(room.present, first, second)
            _swap_keys(room.last_seen, first, second)
            room.changed()

    async def release(self, room_id: str, host_token: str | None, seat: Any) -> None:
        """The host releases a person's seat in a running match ("Kick"): a bot plays
        it until somebody opens the room link and takes it over; the seat's token
        (and the browser cookie holding it) stops working at once."""
        room = self.get(room_id)
        self._check_host(room, host_token, ONLY_HOST_RELEASE)
        index = self._seat_number(room, seat)
        async with room.lock:
            if room.match is None or room.match.is_over:
                raise BadRequest(_("Seats can be released while a match runs."))
            player = room.seats[index]
            if player is None or player.is_bot:
                raise BadRequest(_("A bot plays that seat already."))
            if room.stand_ins.get(index) == RELEASED:
                raise BadRequest(_("That seat is released already."))
            dead = "released:" + secrets.token_hex(24)  # no token hashes to this
            await self.writes.run(room.id, repo.release_seat, match_id=room.id, seat=index,
                                  dead_hash=dead)
            player.token_hash = dead
            room.present.pop(index, None)
            room.queued.pop(index, None)
            self.turns.release(room, index)
            room.tell()
        self.turns.refresh(room)
        self.pacing.check(room)
        self.bots.wake(room)
        log.info("seat released game=%s", room.game)

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
        (see :mod:`app.rooms.rematch`): ``(new room, opened just now)``; a second
        request gets the one already opened."""
        room = self.get(room_id)
        check_rematch_host(room, host_token)
        async with room.lock:
            if room.next_id is not None and room.next_id in self.rooms:
                return self.rooms[room.next_id], False
            new = next_room(room, options, self.clock)
            await save_rematch(self.writes, room, new)
            await self._hold(new)
            room.next_id = new.id
        log.info("rematch opened game=%s", room.game)
        try:
            await self.start(new.id, host_token)
        except RoomError as exc:  # the new table waits for the host's start instead
            log.warning("rematch %s did not start: %s", new.id, exc.message)
        room.moved_to(new.id)
        return new, True

    # ----- play ----------------------------------------------------------------
    async def act(self, room_id: str, seat: int, action: Any, version: Any,
                  holder: str | None = None) -> list[dict[str, Any]]:
        """A person's move (queued while a finished trick or deal is on show). A bot
        that played for them stops: they are back. ``holder``: the hash of the seat
        token it came with, refused if that token no longer holds ``seat``."""
        room = self.get(room_id)
        events = await self.pipeline.act(room, seat, action, version, holder)
        if self.turns.came_back(room, seat):
            room.tell()
        self.turns.refresh(room)
        self.bots.wake(room)
        return events

    async def next_deal(self, room_id: str, seat: int) -> None:
        """The person at ``seat`` has seen the deal's result ("Next deal")."""
        room = self.get(room_id)
        if room.hold is None:
            return
        self.pacing.ready(room, seat)
        room.tell()

    async def back(self, room_id: str, seat: int) -> None:
        """"I'm back": the person plays their seat again."""
        room = self.get(room_id)
        if self.turns.came_back(room, seat):
            room.tell()
        self.turns.refresh(room)

    # ----- presence -------------------------------------------------------------
    def seen(self, room: Room, seat: int | None) -> None:
        """A call over the JSON API with ``seat``'s token: they are at the table."""
        if seat is not None:
            presence.seen(room, seat)
            if self.turns.came_back(room, seat):
                room.tell()

    def connected(self, room: Room, seat: int | None, host: bool = False) -> None:
        """A page or socket of ``seat`` opened: they are back at the table. ``host``:
        the host's page without a seat (it keeps a room that has not started open)."""
        room.arrive(seat, host)
        if seat is not None:
            self.turns.came_back(room, seat)
            self.turns.refresh(room)

    def disconnected(self, room: Room, seat: int | None, host: bool = False) -> None:
        room.leave(seat, host)
        if seat is not None:
            self.turns.refresh(room)
            self.pacing.check(room)

    # ----- restart and idle rooms ------------------------------------------------
    async def restore_open_rooms(self) -> int:
        """Bring back every unfinished room exactly as it was saved; restart the
        timers and the bots (with room leases none: each comes back on its first
        request, :meth:`load`). Never-started rooms idle for longer than
        ``UNSTARTED_ROOM_IDLE_MINUTES`` are deleted instead."""
        before = repo.now() - timedelta(seconds=self.quota.unstarted_idle_seconds)
        deleted = await self.db.run(repo.delete_stale_unstarted, idle_before=before)
        if deleted:
            log.info("deleted %d never-started idle rooms", deleted)
        if self.leases is not None:  # each comes back when first asked for (load)
            return 0
        return await load_open_rooms(self.db, self.clock, self._admit)

    def _admit(self, room: Room, state: dict[str, Any] | None = None) -> None:
        self.windows.restored(room)
        self.turns.restored(room, state)
        if room.match is not None:
            # the decisions of the deal in play before the restart were in memory
            # only: its review misses them (a deal whose result was on show had none)
            room.decisions_from = room.match.deal_no + (room.hold is None)
        self.pacing.restored(room)
        self.rooms[room.id] = room
        self.turns.refresh(room)
        self._end_if_nobody_plays_on(room)
        self.bots.wake(room)

    async def sweep_idle(self) -> int:
        """Rooms nobody has open (no person's page) and nothing done for
        ``ROOM_IDLE_MINUTES`` leave memory; an unfinished one is closed (its finished
        deals stay in the history). A room whose match never started is deleted
        after ``UNSTARTED_ROOM_IDLE_MINUTES`` (see :mod:`app.rooms.quotas`).
        Spectators' sockets keep nothing alive; they are told the table closed."""
        gone = self.quota.idle_rooms(self.rooms, self.clock.now())
        for room in gone:
            async with room.lock:
                if self.rooms.get(room.id) is not room:  # left meanwhile (leases)
                    continue
                try:
                    if room.match is None:
                        await self.writes.run(room.id, repo.delete_unstarted,
                                              match_id=room.id)
                    elif room.status != "finished":
                        await self.writes.run(room.id, repo.close_match, match_id=room.id)
                except ServedElsewhere:  # another process serves it: it left memory
                    continue
                self.rooms.pop(room.id, None)
                self.bots.forget(room)
                # its timers and bots stop; open sockets (spectators) learn that the
                # table closed
                room.close()
                self.chat.forget(room.id)
                if self.leases is not None:
                    await self.leases.release(room.id)
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

    async def hand_over_all(self) -> None:
        """A graceful stop begins (SIGTERM, app.main): timers and bots end, and with
        room leases every lease is given up at once. The pages stay connected: the
        server's stop closes their sockets next (1012), after it stopped listening,
        and they reconnect to another process that finds their rooms free. A move
        sent meanwhile is refused (its write is fenced, app.rooms.leases)."""
        for task in self._tasks:
            task.cancel()
        for room in self.rooms.values():
            room.timers.end_all()
        if self.leases is None:
            return
        try:
            await self.leases.release_all()
        except Exception:  # they run out by themselves within LEASE_SECONDS
            log.exception("the room leases could not be given up")

    async def close(self) -> None:
        """The server stops (the lifespan's end): :meth:`hand_over_all`, and with room
        leases every room still open tells its pages to reconnect (close 1012)."""
        await self.hand_over_all()
        if self.leases is None:
            return
        for room in list(self.rooms.values()):
            if not room.closed:
                room.close(handed_over=True)

"""When the database stops answering, a table waits and then resumes by itself.

A step whose write waits longer than ``SLOW_WRITE_S`` (2 s on the room's clock: a
lock held elsewhere, a database that hangs) shows the same notice on every seat's
page while it waits (:meth:`DatabaseRecovery.watch`), if the database thread has
been on its writes for ``HELD_S`` by then (a write answered late by a busy event loop
is no database problem); it goes away when the write goes through.

A step whose write failed with a transient error even after the retries of
``app.db.retry`` was not kept, and it was not shown (the pipeline swaps the new
match in only after the write). The room then shows a notice on every seat's page
("Reconnecting to the database…"), refuses moves meanwhile, and this part checks
again with growing pauses (on the room's clock) whether the database takes writes
(``Database.check_write``: a read is no such check, it may work while every write
waits). As soon as it does, the room is reloaded from its last saved snapshot and
version (whatever the database holds is the truth, also when the lost answer was to
a write that did arrive), the notice goes away and the bots carry on.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator

from app.db import Database, repo
from app.games import restore
from app.i18n import N_
from app.rooms import hints
from app.rooms.events import RoomEvents, Spawn
from app.rooms.room import Room

log = logging.getLogger("stammtisch.rooms")

RECONNECTING = N_("Reconnecting to the database… The table waits where it was and "
                  "carries on by itself as soon as the database answers.")
MOVE_NOT_KEPT = N_("The database is not answering, so your move was not kept. "
                   "The table carries on by itself as soon as it answers again.")
FIRST_PAUSE_S, MAX_PAUSE_S = 0.5, 5.0
SLOW_WRITE_S = 2.0  # a step's write that waits longer shows RECONNECTING meanwhile,
HELD_S = 1.0  # once the database has been on the writes it holds this long


class DatabaseRecovery:
    def __init__(self, db: Database, spawn: Spawn, events: RoomEvents) -> None:
        """``events`` hears when a room was reloaded and carries on."""
        self.db = db
        self._spawn = spawn
        self._events = events
        self.waiting: set[str] = set()

    def is_waiting(self, room: Room) -> bool:
        return room.id in self.waiting

    def wait_for_database(self, room: Room) -> None:
        """The caller holds ``room.lock``: mark the room as waiting, tell every seat,
        and start asking the database again (once per room)."""
        room.show_error(RECONNECTING)
        if room.id in self.waiting:
            return
        self.waiting.add(room.id)
        log.warning("room %s waits for the database", room.id)
        self._spawn(self._resume(room))

    @contextlib.asynccontextmanager
    async def watch(self, room: Room) -> AsyncIterator[None]:
        """Around a step's write (the caller holds ``room.lock``): once it has waited
        ``SLOW_WRITE_S`` every seat's page says the table is reconnecting, until the
        write is through (or has failed: then :meth:`wait_for_database` takes over)."""
        notice = asyncio.ensure_future(self._slow(room, self.db))
        try:
            yield
        finally:
            shown = notice.done() and not notice.cancelled()
            notice.cancel()
        if shown and room.error == RECONNECTING:  # through: the caller shows the step
            room.error = None
            log.info("room %s: the slow write went through", room.id)

    @staticmethod
    async def _slow(room: Room, db: Database) -> None:
        await room.clock.sleep(SLOW_WRITE_S)
        # the notice says the database holds the write: on a server so busy that the
        # answer to a write that went through waits for the event loop, it would be
        # wrong, and every seat's page would be sent it at the worst moment
        while db.write_held_s() < HELD_S:
            await room.clock.sleep(HELD_S / 4)
        if room.error is None and not room.closed:
            log.warning("room %s: a write waits for the database", room.id)
            room.show_error(RECONNECTING)

    async def _resume(self, room: Room) -> None:
        pause = FIRST_PAUSE_S
        try:
            while not room.closed:
                await room.clock.sleep(pause)
                try:
                    await self.db.check_write()  # writes go through, not only reads
                    saved = await self.db.run(repo.open_match, match_id=room.id)
                except asyncio.CancelledError:
                    raise
                except Exception as exc:  # still away: ask again later
                    log.debug("database still away for room %s: %s", room.id, exc)
                    pause = min(MAX_PAUSE_S, pause * 2)
                    continue
                async with room.lock:
                    if saved is not None:
                        match = restore(saved.snapshot) if saved.snapshot else None
                        if saved.version != room.version and match is not None:
                            # a step saved whose answer was lost: its decision was not
                            # kept, so this deal's review misses it
                            room.decisions_from = match.deal_no + 1
                        room.match = match
                        if saved.version != room.version:  # its hint note, its deal's end
                            await hints.rebuild(self.db, room)
                        room.version = saved.version
                    room.touch()
                    room.show_error(None)
                log.info("room %s resumed at version %d", room.id, room.version)
                self._events.database_back(room)
                return
        finally:
            self.waiting.discard(room.id)

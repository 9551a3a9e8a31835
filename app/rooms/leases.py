"""Room leases: several server processes on one PostgreSQL database, each room served
by exactly one of them (``ROOM_LEASES``, docs/scaling.md).

A room's state in memory is the authority for its next step, so only one process
may hold it. The matches row says which: ``owner`` (a process's id, made at its
start) and ``lease_until`` (by the database's clock, never a process's). A process
*takes* a room's lease in one UPDATE that succeeds only if the room is free, its own
already, or its lease ran out; it *renews* every lease it holds in one UPDATE every
``LEASE_SECONDS / 3`` (:meth:`Leases.run`), and the rooms missing from the answer
were taken over by another process after this one missed its renewals (a pause, a
lost database): the room service drops them at once (``RoomEvents.rooms_lost``).
It *releases* a room when the room leaves its memory, and every room on a graceful
stop. A process that dies simply stops renewing: its rooms are free after at most
``LEASE_SECONDS``.

Between a lease running out and the renewal that notices, the old process could
still try to write a step. Its writes are *fenced*: a step's UPDATE of the match
carries ``owner = <this process> AND version = <step> - 1`` (``repo.record_step``'s
``owner``), so it changes nothing once another process took the room, and the step
is refused (``repo.StepFenced``) with its log row. Every other write of a room (seats,
``room_state``, chat, options, a rematch, the idle close) is fenced likewise, by a
lock of its row that must name this process (``app.rooms.writes``, ``repo.fence``).

*Handback.* A proxy that routes by room id (docs/scaling.md) sends a room's requests
to one process, which need not be the one holding its lease: the room was opened or
rematched on whichever process got that request, or the process the proxy prefers
came back after a failover. A process asked for a room another live process holds
asks that one to let go (``NOTIFY stammtisch_release, '<room> <asker>'``,
:meth:`Leases.ask`; every process ``LISTEN``s, :meth:`Leases.listen`) and waits up
to ``HANDBACK_WAIT_S`` for the lease: the holder finishes the step it is writing,
closes the room's sockets with 1012 and releases it (``RoomEvents.room_wanted``). A
holder that is dead does not answer: its leases run out after ``LEASE_SECONDS``,
and meanwhile the request is refused (503 with Retry-After).
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from typing import Any

from sqlalchemy import text
from sqlalchemy.orm import Session

from app.db import Database, repo
from app.games import N_
from app.rooms.clock import Clock
from app.rooms.events import RoomEvents

log = logging.getLogger("stammtisch.rooms")

SERVED_ELSEWHERE = N_("This table is served by another server just now; try again in a "
                      "moment.")
RETRY_AFTER_S = 2  # the Retry-After of a request for a room another process serves
REFUSAL = ("ROOM_LEASES needs PostgreSQL (DATABASE_URL=postgresql://...); "
           "SQLite takes one server process, which needs no leases")
RELEASE_CHANNEL = "stammtisch_release"  # NOTIFY payload: "<room id> <asking process>"
HANDBACK_WAIT_S = 1.0  # how long a request waits for the holder to let a room go
HANDBACK_POLL_S = 0.1  # how often it tries the lease meanwhile
LISTEN_RETRY_S = 2.0  # a lost LISTEN connection is opened again after this pause


def _notify(session: Session, *, match_id: str, asker: str) -> None:
    session.execute(text("SELECT pg_notify(:channel, :payload)"),
                    {"channel": RELEASE_CHANNEL, "payload": f"{match_id} {asker}"})


def listen_conninfo(url: str) -> str:
    """libpq's form of the app's database URL (SQLAlchemy names the driver)."""
    scheme, sep, rest = url.partition("://")
    return "postgresql" + sep + rest if scheme.startswith("postgres") else url


def enabled(setting: bool | str, database_url: str) -> bool:
    """Whether a process on ``database_url`` serves rooms by lease: as ``setting``
    (``ROOM_LEASES``) says, and when it is ``"auto"``, on PostgreSQL (where several
    processes may share the database) and not on SQLite (one process per file,
    ``app.db.one_server``)."""
    if isinstance(setting, bool):
        return setting
    return refusal(database_url) is None


def refusal(database_url: str) -> str | None:
    """Why the server cannot start with leases on ``database_url`` (one line), or
    None: leases share rooms among processes through PostgreSQL."""
    if database_url.startswith(("postgres://", "postgresql")):
        return None
    return REFUSAL


class Leases:
    """The leases of one server process (``me``), owned by its room service."""

    def __init__(self, db: Database, seconds: float, clock: Clock,
                 events: RoomEvents) -> None:
        """``events`` hears of the rooms taken over by another process."""
        self.db = db
        self.seconds = seconds
        self.clock = clock
        self._events = events
        self.me = str(uuid.uuid4())
        self.held: set[str] = set()  # the rooms this process took and did not give up
        self.listening = asyncio.Event()  # set while :meth:`listen` hears the others

    async def take(self, room_id: str) -> bool | None:
        """Take ``room_id``'s lease: True (this process serves it now, renewed from
        now on), False (another live process holds it), None (no open room by that
        id)."""
        taken = await self.db.run(repo.take_lease, match_id=room_id, owner=self.me,
                                  seconds=self.seconds)
        if taken:
            self.held.add(room_id)
        return taken

    async def release(self, room_id: str) -> None:
        """The room left memory: another process may take it at once."""
        self.held.discard(room_id)
        await self.db.run(repo.release_leases, owner=self.me, match_id=room_id)

    async def release_all(self) -> None:
        """A graceful stop: every room is free at once."""
        self.held.clear()
        await self.db.run(repo.release_leases, owner=self.me)

    async def ask(self, room_id: str) -> None:
        """Ask the process holding ``room_id`` to let it go (it may be dead: then
        nobody answers, and the lease runs out by itself)."""
        await self.db.run(_notify, match_id=room_id, asker=self.me)

    def heard(self, payload: str) -> None:
        """Another process asked for a room (the payload: its id and the asker's):
        if this one holds it, it lets go. Its own asking is not for it: it may have
        taken the room by the time it hears itself."""
        room_id, _, asker = payload.partition(" ")
        if asker != self.me and room_id in self.held:
            self._events.room_wanted(room_id)

    async def listen(self) -> None:
        """Hear the other processes ask for rooms (:meth:`ask`), for ever, on a
        connection of its own; a lost connection is opened again."""
        import psycopg  # PostgreSQL only (leases refuse to start on SQLite)

        while True:
            try:
                conn: Any = await psycopg.AsyncConnection.connect(
                    listen_conninfo(self.db.url), autocommit=True)
                async with conn:
                    await conn.execute(f"LISTEN {RELEASE_CHANNEL}")
                    self.listening.set()
                    async for note in conn.notifies():
                        self.heard(note.payload)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.warning("listening for rooms asked for failed: %s",
                            str(exc).splitlines()[0][:200] if str(exc) else repr(exc))
            self.listening.clear()
            await asyncio.sleep(LISTEN_RETRY_S)

    def forget(self, room_id: str) -> None:
        """A room another process took over: nothing to give up, nothing to renew."""
        self.held.discard(room_id)

    async def renew(self) -> None:
        """Renew every lease held, in one UPDATE; report the rooms missing from its
        answer as lost."""
        if not self.held:
            return
        asked = set(self.held)
        kept = await self.db.run(repo.renew_leases, owner=self.me, match_ids=sorted(asked),
                                 seconds=self.seconds)
        lost = (asked - kept) & self.held  # a room given up meanwhile is no loss
        if lost:
            self.held -= lost
            log.warning("%d rooms were taken over by another server process", len(lost))
            self._events.rooms_lost(lost)

    async def run(self) -> None:
        """The heartbeat (:meth:`beat`) and the handback's listener (:meth:`listen`),
        for ever."""
        await asyncio.gather(self.beat(), self.listen())

    async def beat(self) -> None:
        """The heartbeat: :meth:`renew` every third of the lease, for ever. A renewal
        that fails (the database away) is tried again at the next beat; the leases
        run out meanwhile, and the fencing keeps a room taken over from being
        written here."""
        while True:
            await self.clock.sleep(self.seconds / 3)
            try:
                await self.renew()
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.warning("renewing the room leases failed: %s",
                            str(exc).splitlines()[0][:200] if str(exc) else repr(exc))

"""Every write a room makes while this process serves it, besides its steps: seats
(join, take over, release, a bot added or removed, a swap), ``room_state``, chat,
table options, a rematch, shared reviews and the idle close. A step goes through the
action pipeline (:mod:`app.rooms.pipeline`), fenced by its own UPDATE.

With room leases (:mod:`app.rooms.leases`) each such write carries this process's id
and is fenced in the database (``repo.fence``): in its transaction the room's row is
locked and must still name this process as its owner. A write refused there
(``repo.Fenced``) rolls back having written nothing; the caller changes nothing in
memory (every write here comes before the change it makes in memory), the room
leaves this process as when a renewal finds it taken over
(``RoomEvents.rooms_lost``: its pages reconnect with 1012), and the caller gets
:class:`ServedElsewhere` (503, ``Retry-After``). So a process that lost a room never
writes it again, whichever kind of write it tries. Without leases the writes are
exactly as before (nothing asked, no ``owner``).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any, TypeVar

from app.db import Database, repo
from app.rooms.errors import ServedElsewhere
from app.rooms.events import RoomEvents
from app.rooms.leases import RETRY_AFTER_S, SERVED_ELSEWHERE

T = TypeVar("T")
log = logging.getLogger("stammtisch.rooms")


class RoomWrites:
    def __init__(self, db: Database, owner: str | None = None,
                 events: RoomEvents | None = None) -> None:
        """``owner``: this process's id with room leases (None: no fence); ``events``
        hears of a room whose write was refused (needed with an ``owner``)."""
        assert owner is None or events is not None
        self.db = db
        self.owner = owner
        self._events = events

    async def run(self, room_id: str, fn: Callable[..., T], /, **kwargs: Any) -> T:
        """``fn(session, **kwargs)`` (a function of ``app.db.repo`` that takes
        ``owner``) on the database thread, for the room ``room_id``, fenced."""
        if self.owner is None:
            return await self.db.run(fn, **kwargs)
        try:
            return await self.db.run(fn, owner=self.owner, **kwargs)
        except repo.Fenced:
            log.warning("room %s: a write was refused, another server process serves it "
                        "now; it leaves memory", room_id)
            assert self._events is not None
            self._events.rooms_lost({room_id})
            raise ServedElsewhere(SERVED_ELSEWHERE, RETRY_AFTER_S) from None

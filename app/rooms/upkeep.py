"""Restore: rooms come back exactly as they were saved, every open room at start-up,
or with room leases one room when it is first asked for (``app.rooms.leases``);
which rooms are idle and leave memory is decided in ``app.rooms.quotas``."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from app.db import Database, repo
from app.games import restore
from app.rooms import hints
from app.rooms.clock import Clock
from app.rooms.room import Room, Seat
from app.rooms.table_options import table_options

log = logging.getLogger("stammtisch.rooms")


def restored_room(m: repo.OpenMatch, clock: Clock) -> Room:
    """A room as it was saved: seats, token hashes, names, bots, the match state and
    its version."""
    room = Room(id=m.id, game=m.game, players=m.players, options=m.options,
                host_token_hash=m.host_token_hash, seed=m.seed, version=m.version,
                clock=clock, table=table_options(m.table_options),
                deal_scores=list(m.deal_scores), prev_id=m.prev_match_id)
    for s in m.seats:
        room.seats[s.seat] = Seat(index=s.seat, name=s.name, token_hash=s.token_hash,
                                  is_bot=s.is_bot, level=s.level)
    if m.snapshot is not None:
        room.match = restore(m.snapshot)
    return room


async def load_open_rooms(db: Database, clock: Clock,
                          admit: Callable[[Room, dict[str, Any] | None], None],
                          only: str | None = None) -> int:
    """Bring back every unfinished room (``only``: that room, if it is unfinished);
    ``admit`` puts each into service with what ``room_state`` kept of it (rooms dict,
    fresh challenge windows, the turn clock, stand-ins, a deal's held result, bots)."""
    saved = await db.run(repo.open_matches, match_id=only)
    for m in saved:
        try:
            room = restored_room(m, clock)
            await hints.rebuild(db, room)  # who was shown a hint in the deal in play
            admit(room, m.room_state)
        except Exception:  # one unreadable room must not keep the others closed
            log.exception("room %s could not be restored", m.id)
    if saved and only is None:
        log.info("restored %d open rooms", len(saved))
    return len(saved)


"""What happens to a room, as its parts report it.

The parts of the room layer each do one kind of work: the action pipeline writes and
shows a step, pacing holds a finished trick or deal on show, a challenge window
waits for challenges, the turn clock waits for a move, recovery waits for the
database. When such work is done, what follows is another part's work: a queued move
goes through the pipeline, the turn clock starts, the bots move on. No part calls
another's callbacks for that; each reports to the :class:`RoomEvents` it was built
with, and the room service (:class:`app.rooms.service.RoomService`) answers every
event in one place. So every part is whole from its construction on, and what
leads to what in a room can be read in one class.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from app.rooms.room import Room

Spawn = Callable[[Awaitable[None]], "asyncio.Task[None]"]
"""Runs a coroutine as a task the room service keeps (and cancels when it closes)."""


class RoomEvents(Protocol):
    """What the parts of a room report, and ask for, while it runs."""

    async def apply_locked(self, room: Room, seat: int, action: str,
                           note: dict[str, Any] | None = None,
                           decided: bool = False) -> list[dict[str, Any]]:
        """Apply ``action`` for ``seat`` through the action pipeline (the caller
        holds ``room.lock``): a move that waited (queued during a pause, a silent
        seat's ``accept`` when a challenge window closes). ``decided``: a person's
        own choice (a queued move), kept for their review."""
        ...

    def step_shown(self, room: Room) -> None:
        """A step was written and shown (the turn clock looks at the new turn)."""
        ...

    def pause_over(self, room: Room) -> None:
        """A finished trick or deal was on show long enough."""
        ...

    def window_closed(self, room: Room) -> None:
        """A challenge window closed and the silent seats' accepts are written."""
        ...

    def stand_in_due(self, room: Room) -> None:
        """A bot may have to play for somebody now (away, or out of time)."""
        ...

    def database_back(self, room: Room) -> None:
        """The database answers again and ``room`` was reloaded from its last save."""
        ...

    def rooms_lost(self, room_ids: set[str]) -> None:
        """Another server process took these rooms over (``app.rooms.leases``): they
        leave memory at once and nothing of theirs is written here again."""
        ...

    def room_wanted(self, room_id: str) -> None:
        """Another server process was asked for this room, which this one holds
        (``app.rooms.leases``, the handback): it lets the room go."""
        ...

"""Pacing people can follow: a finished trick and a finished deal stay on show.

The engines finish a trick, and deal on after the last one, inside the same
``apply``. The room holds back what comes next instead:

- **Trick pause.** After a step that completed a trick, the next move takes effect
  no earlier than ``trick_pause_ms`` later, whoever makes it.
- **The result of a deal.** After a step that ended a deal (and not the match) the
  room shows that deal's result and its last trick (``room.hold``) until every
  seated person with an open page pressed "Next deal" or ``next_deal_s`` passed
  (0: no wait). Bots, seats a bot plays for and seats played over the JSON API
  (no open socket) are always ready.

A pause never refuses a move. A legal move that arrives during one is *queued*
(``room.queued``, one per seat: a later one replaces it) and takes effect when the
pause ends. It must carry the version the table shows during the pause (the
version of the step that finished the trick or deal: pressing "Next deal" and the
end of a pause change no version). When the pause ends the queued moves are applied
in seat order; one that no longer fits (the table changed meanwhile, say because
another queued move was applied first) is dropped and that seat sees the table as
it is.
"""

from __future__ import annotations

import logging
from typing import Any

from app.games import IllegalAction
from app.rooms.errors import RoomError
from app.rooms.events import RoomEvents, Spawn
from app.rooms.presence import is_connected
from app.rooms.room import DealHold, Room

log = logging.getLogger("stammtisch.rooms")


def pause_left(room: Room) -> float:
    """Seconds the room still holds moves back (0: none)."""
    now = room.clock.now()
    left = room.pause_until - now
    if room.hold is not None:
        left = max(left, room.hold.until - now)
    return max(0.0, left)


def waiting_for(room: Room) -> list[int]:
    """The seats whose "Next deal" the held result still waits for."""
    if room.hold is None:
        return []
    return [s for s, p in enumerate(room.seats)
            if p is not None and not p.is_bot and s not in room.stand_ins
            and is_connected(room, s) and s not in room.hold.ready]


class Pacing:
    def __init__(self, spawn: Spawn, events: RoomEvents) -> None:
        """``events`` applies a queued move (the caller holds the lock) and hears when
        a pause is over (turn clocks start, bots move on)."""
        self._spawn = spawn
        self._events = events

    # ----- a step starts a pause ------------------------------------------------------
    def after_step(self, room: Room, events: list[dict[str, Any]]) -> None:
        match = room.match
        kinds = {e.get("type") for e in events}
        if match is None or match.is_over:
            room.hold, room.pause_until = None, 0.0
            room.queued.clear()
            return
        now = room.clock.now()
        wait_s = int(room.table.get("next_deal_s") or 0)
        if "deal_end" in kinds and wait_s > 0:
            ended = max(int(e["deal_no"]) for e in events if e.get("type") == "deal_end")
            room.hold = DealHold(deal_no=ended, until=now + wait_s)
            if waiting_for(room):
                self._arm(room)
                return
            room.hold = None  # everybody is ready already (bots, API seats)
        if "trick" in kinds or "deal_end" in kinds:
            pause = int(room.table.get("trick_pause_ms") or 0) / 1000
            if pause > 0:
                room.pause_until = now + pause
                self._arm(room)

    def restored(self, room: Room) -> None:
        if room.hold is not None:
            self._arm(room)

    # ----- moves that arrive meanwhile -------------------------------------------------
    @staticmethod
    def queue(room: Room, seat: int, action: str, version: int) -> None:
        """Keep a seat's legal move until the pause ends (a later one replaces it);
        moving counts as "Next deal"."""
        room.queued[seat] = (action, version)
        if room.hold is not None:
            room.hold.ready.add(seat)

    async def flush_locked(self, room: Room) -> None:
        """Apply the queued moves (the pause is over; the caller holds the lock)."""
        for seat in sorted(room.queued):
            action, version = room.queued.pop(seat)  # shown as queued until applied
            match = room.match
            if match is None or match.is_over or version != room.version:
                continue  # the table changed: the seat sees it as it is now
            try:
                match.verify(seat, action)
                await self._events.apply_locked(room, seat, action, decided=True)
            except (IllegalAction, RoomError):
                continue

    # ----- "Next deal" ---------------------------------------------------------------
    def ready(self, room: Room, seat: int) -> None:
        if room.hold is None:
            return
        room.hold.ready.add(seat)
        self.check(room)

    def check(self, room: Room) -> None:
        """End a held result early once nobody is left to press "Next deal"."""
        if room.hold is not None and not waiting_for(room):
            room.hold.until = min(room.hold.until, room.clock.now())
            self._arm(room)

    # ----- the end of a pause ----------------------------------------------------------
    def _arm(self, room: Room) -> None:
        room.timers.start("pause", self._spawn(self._resume(room)))

    async def _resume(self, room: Room) -> None:
        while True:
            await room.clock.sleep(pause_left(room))
            async with room.lock:
                if room.closed:
                    return
                if pause_left(room) > 0:  # a new pause began meanwhile
                    continue
                ended_hold = room.hold is not None
                room.hold = None
                if room.queued:
                    await self.flush_locked(room)
                if ended_hold:
                    room.tell()
            self._events.pause_over(room)
            return

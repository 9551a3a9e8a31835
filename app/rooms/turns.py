"""Turns: nobody stalls a table.

A person whose move the match waits for (``Match.must_act``) is *stood in for* by a
bot when

- they are away (``presence.is_away``: no open page or socket and no API call for
  ``away_seconds``), or
- the turn clock ran out (``turn_clock`` seconds for each move, 0: none), or
- the host released their seat (``"released"``: until somebody takes it over).

A stand-in for ``"away"`` or ``"clock"`` lasts until the person acts again or comes
back (opens the page, presses "I'm back"). The bot driver asks :func:`movers` for
the seats it must move and applies the move through the same pipeline, under the
room lock and with the version check, so a person's own move for that seat and the
bot's can never both be applied.

The deadline is a clock time while the server runs and is saved in
``matches.room_state`` as a wall-clock time (with the stand-ins and a deal's held
result), so a restart brings back the same deadline.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Any

from app.db import Database, repo
from app.rooms.errors import ServedElsewhere
from app.rooms.events import RoomEvents, Spawn
from app.rooms.pacing import pause_left
from app.rooms.presence import away_at, is_away, is_connected
from app.rooms.room import DealHold, Room
from app.rooms.writes import RoomWrites

log = logging.getLogger("stammtisch.rooms")

AWAY, CLOCK, RELEASED = "away", "clock", "released"
REASONS = (AWAY, CLOCK, RELEASED)


def awaited(room: Room) -> list[int]:
    """Seated people (not bots) whose move the match waits for now."""
    match = room.match
    if match is None or match.is_over or room.error or room.closed:
        return []
    return [s for s in sorted(match.to_act())
            if (p := room.seats[s]) is not None and not p.is_bot and match.must_act(s)]


def away_due(room: Room) -> dict[int, float]:
    """Awaited seats nobody is at (no open page or socket) and no bot plays for yet:
    the clock time at which a bot will play for each."""
    return {s: away_at(room, s) for s in awaited(room)
            if s not in room.stand_ins and not is_connected(room, s)}


def clock_left(room: Room) -> float | None:
    """Seconds left on the turn clock of the move awaited now (None: no clock)."""
    if room.turn_deadline is None or room.turn_version != room.version:
        return None
    return max(0.0, room.turn_deadline - room.clock.now())


def stand_in_reason(room: Room, seat: int) -> str | None:
    """Why a bot must play for ``seat`` now (None: the person plays)."""
    if seat in room.stand_ins:
        return room.stand_ins[seat]
    if is_away(room, seat):
        return AWAY
    left = clock_left(room)
    if left is not None and left <= 0:
        return CLOCK
    return None


def movers(room: Room) -> dict[int, str]:
    """The people's seats a bot must move now, with the reason."""
    out = {}
    for seat in awaited(room):
        reason = stand_in_reason(room, seat)
        if reason is not None:
            out[seat] = reason
    return out


def wall_time(room: Room, at: float) -> float:
    """A clock time of the room as seconds since the epoch."""
    return time.time() + (at - room.clock.now())


def clock_time(room: Room, wall: float) -> float:
    return room.clock.now() + (wall - time.time())


def saved_state(room: Room) -> dict[str, Any]:
    """What ``matches.room_state`` keeps of the room besides the match."""
    state: dict[str, Any] = {}
    if room.stand_ins:
        state["stand_ins"] = {str(s): r for s, r in sorted(room.stand_ins.items())}
    if room.turn_deadline is not None and room.turn_version == room.version:
        state["turn"] = {"version": room.version,
                         "deadline_at": round(wall_time(room, room.turn_deadline), 3)}
    if room.hold is not None:
        state["hold"] = {"deal_no": room.hold.deal_no,
                         "until_at": round(wall_time(room, room.hold.until), 3)}
    return state


def load_state(room: Room, state: dict[str, Any] | None) -> None:
    """Bring back what :func:`saved_state` kept (after a restart)."""
    state = state or {}
    for key, reason in (state.get("stand_ins") or {}).items():
        seat = int(key)
        if 0 <= seat < room.players and reason in REASONS and room.seats[seat] is not None:
            room.stand_ins[seat] = reason
    turn = state.get("turn")
    if turn and turn.get("version") == room.version:
        room.turn_deadline = clock_time(room, float(turn["deadline_at"]))
        room.turn_version = room.version
    hold = state.get("hold")
    if hold and room.match is not None and not room.match.is_over:
        until = clock_time(room, float(hold["until_at"]))
        if until > room.clock.now():
            room.hold = DealHold(deal_no=int(hold["deal_no"]), until=until)


class Turns:
    """Deadlines, stand-in decisions and the timers that wake the bot driver."""

    def __init__(self, db: Database, spawn: Spawn, events: RoomEvents,
                 writes: RoomWrites | None = None) -> None:
        """``events`` hears when a bot may have to play for somebody; ``room_state``
        is written through ``writes`` (fenced with room leases; None: unfenced)."""
        self.db = db
        self._spawn = spawn
        self._events = events
        self._writes = writes or RoomWrites(db)

    # ----- the clock ----------------------------------------------------------------
    def refresh(self, room: Room) -> None:
        """After anything changed (a step, a pause ended, somebody came or went): start
        the turn clock of a newly awaited move, schedule the next moment a bot may have
        to step in, and save what a restart must bring back."""
        seconds = int(room.table.get("turn_clock") or 0)
        people = [s for s in awaited(room) if s not in room.stand_ins]
        if not seconds or not people:
            room.turn_deadline, room.turn_version = None, -1
        elif room.turn_version != room.version:
            if room.hold is not None:  # a deal's result is on show: starts after it
                room.turn_deadline, room.turn_version = None, -1
            else:  # after a finished trick the clock starts when the pause ends
                room.turn_deadline = room.clock.now() + pause_left(room) + seconds
                room.turn_version = room.version
        self._schedule(room)
        self.save(room)

    def _next_moment(self, room: Room) -> float | None:
        """The next clock time at which a bot may have to play for somebody."""
        times = list(away_due(room).values())
        if (room.turn_deadline is not None and room.turn_version == room.version
                and any(s not in room.stand_ins for s in awaited(room))):
            times.append(room.turn_deadline)
        return min(times) if times else None

    def _schedule(self, room: Room) -> None:
        when = self._next_moment(room)
        if when is not None:
            room.timers.start("turn", self._spawn(self._fire(room, when)))
        else:
            room.timers.stop("turn")

    async def _fire(self, room: Room, when: float) -> None:
        await room.clock.sleep(max(0.0, when - room.clock.now()))
        if room.closed:
            return
        if movers(room):
            self._events.stand_in_due(room)
        else:  # somebody came back or acted meanwhile: look again later
            self._schedule(room)

    # ----- people come and go ---------------------------------------------------------
    def came_back(self, room: Room, seat: int) -> bool:
        """The person at ``seat`` acted or opened the table: no bot plays for them any
        more (a released seat stays released until somebody takes it over)."""
        if room.stand_ins.get(seat) in (AWAY, CLOCK):
            del room.stand_ins[seat]
            return True
        return False

    def stood_in(self, room: Room, seat: int, reason: str) -> None:
        """A bot moved for ``seat``: it keeps playing for them (until they are back)."""
        room.stand_ins[seat] = reason

    def release(self, room: Room, seat: int) -> None:
        room.stand_ins[seat] = RELEASED

    def taken_over(self, room: Room, seat: int) -> None:
        room.stand_ins.pop(seat, None)

    # ----- what a restart brings back ------------------------------------------------
    def restored(self, room: Room, state: dict[str, Any] | None) -> None:
        load_state(room, state)
        room.state_written = saved_state(room)

    def save(self, room: Room) -> None:
        """Write ``room_state`` when it changed (in the background, in order: the
        database has one thread)."""
        if room.closed:
            return
        state = saved_state(room)
        if room.state_written == state:
            return
        room.state_written = state
        self._spawn(self._write(room.id, state))

    async def _write(self, room_id: str, state: dict[str, Any]) -> None:
        with contextlib.suppress(asyncio.CancelledError):
            try:
                await self._writes.run(room_id, repo.save_room_state, match_id=room_id,
                                       state=state)
            except ServedElsewhere:  # the room left memory: said and done there
                pass
            except Exception:  # the table goes on; only a restart would lose the clock
                log.exception("room %s: could not save the room state", room_id)

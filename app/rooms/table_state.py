"""What a table shows of its room at one moment, worked out by the room layer.

The room's policy (whose move is awaited, the turn clock, the pause after a deal,
who is away and when a bot plays for them, who is out, whether anybody can play on)
lives in the modules of this package; the web draws the table from the values this
module gives, never asking those modules itself. Everything here is a copy (tuples,
frozen records): it compares equal to another moment's exactly when the table would
show the same, which is how the web knows what to draw again.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from app.rooms.pacing import pause_left, waiting_for
from app.rooms.presence import is_connected
from app.rooms.quotas import nobody_plays_on
from app.rooms.room import DealHold, Room
from app.rooms.turns import RELEASED, awaited, away_due, clock_left, wall_time


@dataclass(frozen=True, slots=True)
class TableState:
    """The room's part of every seat's table at one moment."""

    status: str  # waiting, playing, finished
    version: int
    holding: bool  # a finished deal is shown; the engine has dealt the next one
    hold: DealHold | None  # a copy of the shown deal's hold
    waiting_for: tuple[int, ...]  # seats whose "Next deal" is awaited
    pause_ms: int  # until the shown deal gives way to the next
    window_ms: int  # left of a challenge window
    stand_ins: dict[int, str]  # seat -> why a bot plays it
    released: tuple[int, ...]  # seats the host released (a bot plays them)
    clock_ms: int | None  # left on the turn clock
    clock_at: int | None  # when it runs out (ms since the epoch)
    clock_seats: tuple[int, ...]  # the seats it runs for
    connected: frozenset[int]  # seats with a socket open
    seats_out: tuple[int, ...]  # seats out of the match (Match.seats_out)
    nobody_plays_on: bool  # the match ends once the shown result was seen
    away_ms: dict[int, int]  # seats awaited while nobody is at them: ms until a bot plays
    teams: tuple[tuple[int, ...], ...]
    public: dict[str, Any]  # what every seat sees of the match (the spectator's view)


def table_state(room: Room) -> TableState:
    holding = room.hold is not None
    clock = clock_left(room)
    public = room.view_and_legal(None, shared=True)[0]
    teams = tuple(tuple(t) for t in (public.get("teams") or [] if room.match is not None
                                     else room.teams()))
    now = room.clock.now()
    away = ({} if holding else
            {s: int(max(0.0, due - now) * 1000) for s, due in away_due(room).items()})
    return TableState(
        status=room.status, version=room.version, holding=holding,
        hold=replace(room.hold, ready=set(room.hold.ready)) if room.hold else None,
        waiting_for=tuple(waiting_for(room)), pause_ms=int(pause_left(room) * 1000),
        window_ms=int(room.window_left() * 1000),
        stand_ins=dict(room.stand_ins),
        released=tuple(sorted(s for s, why in room.stand_ins.items() if why == RELEASED)),
        clock_ms=int(clock * 1000) if clock is not None else None,
        clock_at=(int(wall_time(room, room.turn_deadline) * 1000)
                  if clock is not None and room.turn_deadline is not None else None),
        clock_seats=(tuple(s for s in awaited(room) if s not in room.stand_ins)
                     if clock is not None and not holding else ()),
        connected=frozenset(s for s in range(room.players) if is_connected(room, s)),
        seats_out=tuple(room.match.seats_out()) if room.match is not None else (),
        nobody_plays_on=nobody_plays_on(room),
        away_ms=away, teams=teams, public=public)


@dataclass(frozen=True, slots=True)
class SeatState:
    """One seat's own part of its table: its view and what it may do now."""

    view: dict[str, Any]
    legal: list[str]
    my_turn: bool  # the seat must act now and no bot acts for it
    stood_in: str | None  # why a bot plays for it
    queued: str | None  # its move that waits until the table has been shown


def seat_state(room: Room, seat: int | None, holding: bool, status: str) -> SeatState:
    """``holding``, ``status``: the room's, as its :class:`TableState` says."""
    view, legal = room.view_and_legal(seat, shared=True)
    if seat is not None:  # the view a decision made now was made from (the review)
        if legal:
            room.seen[seat] = (room.version, view, legal)
        elif seat in room.seen:
            del room.seen[seat]
    match = room.match
    my_turn = (seat is not None and status == "playing" and not holding
               and match is not None and bool(legal) and match.must_act(seat)
               and seat not in room.stand_ins)
    queued = room.queued.get(seat) if seat is not None else None
    return SeatState(view=view, legal=legal, my_turn=my_turn,
                     stood_in=room.stand_ins.get(seat) if seat is not None else None,
                     queued=queued[0] if queued else None)

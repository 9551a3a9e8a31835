"""A room owns its timers: the pause after a trick, the turn clock and the bot
driver run as the room's own tasks (``Room.timers``), one per name, a new one
replacing the one before, and all of them end when the room closes (an idle room
leaving memory), instead of each part keeping a table of every room's tasks."""

from __future__ import annotations

import asyncio
from pathlib import Path

from app.rooms.clock import ManualClock
from app.rooms.room import RoomTimers
from app.rooms.service import RoomService
from tests.loops import run
from tests.rooms.test_turns_and_pacing import scenario, seated


def test_a_timer_replaces_the_one_of_its_name_and_all_end_together() -> None:
    async def go() -> None:
        timers = RoomTimers()
        first = asyncio.ensure_future(asyncio.sleep(60))
        second = asyncio.ensure_future(asyncio.sleep(60))
        other = asyncio.ensure_future(asyncio.sleep(60))
        timers.start("turn", first)
        timers.start("turn", second)  # the turn clock set again
        timers.start("pause", other)
        await asyncio.sleep(0)
        assert first.cancelled()
        assert timers.running("turn") is second and timers.running("pause") is other
        timers.stop("pause")
        await asyncio.sleep(0)
        assert other.cancelled() and timers.running("pause") is None
        timers.end_all()
        await asyncio.sleep(0)
        assert second.cancelled() and timers.running("turn") is None

    run(go())


def test_a_timer_that_sets_itself_again_is_not_ended_by_that() -> None:
    async def go() -> None:
        timers = RoomTimers()
        again: list[asyncio.Task[None]] = []

        async def fire() -> None:
            again.append(asyncio.ensure_future(asyncio.sleep(60)))
            timers.start("turn", again[0])  # from inside the task it replaces
            await asyncio.sleep(0)

        task = asyncio.ensure_future(fire())
        timers.start("turn", task)
        await task  # finished, not cancelled
        assert not task.cancelled() and timers.running("turn") is again[0]
        timers.end_all()

    run(go())


def test_the_turn_clock_and_the_pause_are_the_rooms_and_end_when_it_closes(
        tmp_path: Path) -> None:
    async def body(service: RoomService, clock: ManualClock) -> None:
        room, _host, _tokens = await seated(service, {"turn_clock": 30,
                                                      "trick_pause_ms": 1500,
                                                      "next_deal_s": 0})
        await clock.advance(0)
        first = room.timers.running("turn")
        assert first is not None  # seat 0's move is awaited on the clock
        for seat in range(4):  # one trick: the pause begins
            assert room.match is not None
            await service.act(room.id, seat, room.match.legal_actions(seat)[0], room.version)
        await clock.advance(0)
        assert first.cancelled()  # the clock of the next move replaced it
        pause, turn = room.timers.running("pause"), room.timers.running("turn")
        assert pause is not None and turn is not None
        room.close()
        await clock.advance(0)
        assert pause.cancelled() and turn.cancelled()
        assert room.timers.running("turn") is None and room.timers.running("pause") is None

    scenario(tmp_path, body)

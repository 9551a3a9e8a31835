"""The bot driver: one task per room moves every bot whose turn it is, and every
person a bot must play for (:mod:`app.rooms.turns`: away, out of time, seat
released), one move at a time with a pause people can follow, through the same
pipeline as a person. It waits while a finished trick or deal is on show
(:mod:`app.rooms.pacing`)."""

from __future__ import annotations

import asyncio
import logging
import random

from app.bots import choose_action, choose_optional
from app.rooms.pacing import pause_left
from app.rooms.pipeline import ActionPipeline
from app.rooms.presence import humans_present
from app.rooms.room import Room
from app.rooms.turns import movers

log = logging.getLogger("stammtisch.rooms")


def bots_to_act(room: Room) -> list[int]:
    """Bot seats that may act now, and people's seats a bot must play for now
    (``app.rooms.turns``). Bots pause while no seated person is at the table
    (``app.rooms.presence``), so a table nobody watches costs nothing and becomes
    idle; a person who comes back wakes them (``BotDriver.wake``)."""
    match = room.match
    if match is None or match.is_over or room.error or not humans_present(room):
        return []
    standing_in = movers(room)
    return [s for s in sorted(match.to_act())
            if (seat := room.seats[s]) is not None and (seat.is_bot or s in standing_in)
            and s not in room.queued]


class BotDriver:
    def __init__(self, pipeline: ActionPipeline, delay_seconds: float) -> None:
        self.pipeline = pipeline
        self.delay = delay_seconds
        self._tasks: dict[str, asyncio.Task[None]] = {}
        self._rng = random.SystemRandom()

    def wake(self, room: Room) -> None:
        """Make sure a bot whose turn it is will move (one driver task per room)."""
        task = self._tasks.get(room.id)
        if task is not None and not task.done():
            return
        if bots_to_act(room):
            self._tasks[room.id] = asyncio.create_task(self._drive(room))

    def stop(self, room_id: str) -> None:
        task = self._tasks.pop(room_id, None)
        if task is not None:
            task.cancel()

    def close(self) -> None:
        for task in self._tasks.values():
            task.cancel()
        self._tasks.clear()

    async def _drive(self, room: Room) -> None:
        decided: dict[tuple[int, int], str | None] = {}  # (seat, version) -> choice
        delay = self.delay
        while True:
            await room.clock.sleep(delay)
            delay = self.delay
            async with room.lock:
                wait = pause_left(room)
                if wait > 0:
                    delay = 0.0  # the pause itself was the wait: move when it ends
                elif room.queued:  # a person's move waited for the pause: it goes first
                    before = room.version
                    await self.pipeline.pacing.flush_locked(room)
                    if room.version != before:
                        continue
                match = room.match
                bots = bots_to_act(room)
                if match is None or not bots:
                    return
                for seat in bots if wait <= 0 else ():
                    key = (seat, room.version)
                    if key not in decided:
                        pick = choose_action if match.must_act(seat) else choose_optional
                        decided[key] = pick(room.game, match.view(seat),
                                            match.legal_actions(seat), self._rng)
                    action = decided[key]
                    if action is None:
                        continue
                    wait = self.pipeline.windows.held_back(room, action)
                    if wait > 0:
                        continue
                    player = room.seats[seat]
                    note = None
                    if player is not None and not player.is_bot:  # playing for a person
                        reason = movers(room).get(seat, "away")
                        room.stand_ins[seat] = reason
                        note = {"type": "stand_in", "seat": seat, "reason": reason}
                    try:
                        await self.pipeline.apply_locked(room, seat, action, note)
                    except Exception:  # a bot must never take the room down
                        log.exception("bot move failed game=%s", room.game)
                        return
                    break
                else:
                    if wait <= 0 and all(decided.get((s, room.version)) is None
                                         for s in bots):
                        return  # every bot stays silent: wait for the people
            if wait > 0:
                await room.clock.sleep(wait)

"""Time for the rooms: a monotonic clock that can sleep.

Everything in ``app.rooms`` that waits (bot pacing, challenge windows, idle rooms)
asks a :class:`Clock` instead of ``time`` and ``asyncio.sleep`` directly, so tests
can run a :class:`ManualClock` and move time on instead of sleeping through it.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import time
from typing import Protocol


class Clock(Protocol):
    def now(self) -> float:
        """Seconds on a monotonic scale (only differences mean anything)."""

    async def sleep(self, seconds: float) -> None:
        """Return once ``seconds`` have passed on this clock."""


class MonotonicClock:
    """The real clock: ``time.monotonic`` and ``asyncio.sleep``."""

    def now(self) -> float:
        return time.monotonic()

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(max(0.0, seconds))


class ManualClock:
    """A clock that moves only when :meth:`advance` is called.

    A sleeper wakes when the clock reaches its wake-up time; ``sleep(0)`` (or less)
    only yields to the event loop, as ``asyncio.sleep(0)`` does.
    """

    def __init__(self, start: float = 1000.0) -> None:
        self._now = start
        self._order = itertools.count()
        self._sleepers: list[tuple[float, int, asyncio.Future[None]]] = []

    def now(self) -> float:
        return self._now

    async def sleep(self, seconds: float) -> None:
        if seconds <= 0:
            await asyncio.sleep(0)
            return
        wake: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._sleepers, (self._now + seconds, next(self._order), wake))
        await wake

    @property
    def sleeping(self) -> int:
        """How many sleepers wait for the clock (cancelled ones excluded)."""
        return sum(1 for *_, f in self._sleepers if not f.done())

    async def advance(self, seconds: float) -> None:
        """Move the clock on by ``seconds``, waking every sleeper due on the way in
        order of their wake-up times, and let the woken tasks run."""
        target = self._now + seconds
        while self._sleepers and self._sleepers[0][0] <= target:
            when, _, wake = heapq.heappop(self._sleepers)
            self._now = max(self._now, when)
            if not wake.done():
                wake.set_result(None)
                await _settle()
        self._now = target
        await _settle()


async def _settle(rounds: int = 20) -> None:
    for _ in range(rounds):
        await asyncio.sleep(0)

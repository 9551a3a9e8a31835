"""How long the event loop is held up: every table waits while it is.

A probe asks to be woken every :data:`TICK_S` and measures how late it wakes: the
lateness is the longest the loop went without turning to anything else (a pass of
the cycle collector, a long render, the process waiting for a core of a busy
machine). Each stall of :data:`WARN_MS` or more is logged as a warning (at most one
line every :data:`WARN_EVERY_S`, with the number of others), with the CPU time the
event loop's thread spent during it: near the stall, the server itself was busy;
far below it, the process was waiting for the machine.

``/healthz`` shows the longest stall of the last one to two minutes and since
start, and ``bench/load.py`` reports the longest during a run.

The probe's wake-ups also tell work that can wait a turn whether the loop is behind
(:meth:`LoopWatch.give_way`): a burst of actions wakes many table sockets at once,
each drawing and sending its push, and drawn in one go they would hold up the
loop's timers (turn clocks, bots' pacing) and every other socket until the last is
sent. A push about to be drawn while the probe is more than :data:`SLICE_S` late
lets the loop turn to those first. The pushes of the burst arrive no later in all:
the same work is done, in slices.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable

log = logging.getLogger("stammtisch.loop")

TICK_S = 0.025  # how often the probe asks to be woken
WARN_MS = 100.0  # a stall this long is logged
WARN_EVERY_S = 10.0  # at most one warning this often
WINDOW_S = 60.0  # "recent" is this window and the one before it
SLICE_S = 0.020  # past this much lateness of the probe, work that can wait gives way
GIVE_WAY_TURNS = 8  # at most this many turns of the loop given before working anyway


class LoopWatch:
    def __init__(self) -> None:
        self.since_start_ms = 0.0
        # the most CPU the loop's thread spent within one stall, since start: near
        # since_start_ms, the server held the loop itself; far below, the machine did
        self.busiest_ms = 0.0
        self._window_ms = 0.0  # the current window's longest stall
        self._previous_ms = 0.0  # the previous window's
        self._window_start = 0.0
        self._warned_at = -WARN_EVERY_S
        self._unwarned = 0  # stalls not logged since the last warning
        self.woke: float | None = None  # the probe's last wake-up, while it runs

    @property
    def recent_ms(self) -> float:
        """The longest stall of the last one to two minutes."""
        return max(self._window_ms, self._previous_ms)

    def stalled(self, ms: float, busy_ms: float, now: float) -> None:
        """Record a stall of ``ms`` (the loop's thread worked ``busy_ms`` of it)."""
        if now - self._window_start >= WINDOW_S:
            self._previous_ms = self._window_ms if now - self._window_start < 2 * WINDOW_S else 0.0
            self._window_ms = 0.0
            self._window_start = now
        self._window_ms = max(self._window_ms, ms)
        self.since_start_ms = max(self.since_start_ms, ms)
        self.busiest_ms = max(self.busiest_ms, min(busy_ms, ms))
        if ms < WARN_MS:
            return
        if now - self._warned_at < WARN_EVERY_S:
            self._unwarned += 1
            return
        log.warning("the event loop was held up %.0f ms (its thread worked %.0f ms of "
                    "them)%s", ms, busy_ms,
                    f"; {self._unwarned} more such stalls since the last warning"
                    if self._unwarned else "")
        self._warned_at = now
        self._unwarned = 0

    def behind(self) -> bool:
        """Whether the probe is more than :data:`SLICE_S` late: the loop's timers
        and sockets wait behind the work in hand. Never while the probe is not
        running."""
        return self.woke is not None and time.monotonic() - self.woke > TICK_S + SLICE_S

    async def give_way(self) -> None:
        """Before work that can wait a turn of the loop (drawing a push): while the
        loop is behind, let what waits go first (the probe among it, which then
        says the loop caught up), at most :data:`GIVE_WAY_TURNS` turns."""
        for _ in range(GIVE_WAY_TURNS):
            if not self.behind():
                return
            await asyncio.sleep(0)

    async def run(self, sleep: Callable[[float], Awaitable[object]] = asyncio.sleep) -> None:
        """Until cancelled: wake every :data:`TICK_S` and record how late."""
        self._window_start = self.woke = time.monotonic()
        try:
            while True:
                started, cpu = time.monotonic(), time.thread_time()
                await sleep(TICK_S)
                now = self.woke = time.monotonic()
                late_ms = max(0.0, (now - started - TICK_S) * 1000)
                self.stalled(late_ms, (time.thread_time() - cpu) * 1000, now)
        finally:
            self.woke = None

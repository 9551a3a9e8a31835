"""The event loop's stall probe (app.loop_watch): what it keeps and what it logs,
fed stalls by hand (no timing is asserted)."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from app.loop_watch import GIVE_WAY_TURNS, SLICE_S, TICK_S, WARN_EVERY_S, WINDOW_S, LoopWatch
from app.main import create_app
from tests.conftest import migrate


def test_recent_is_the_last_one_or_two_windows_and_since_start_everything() -> None:
    watch = LoopWatch()
    watch.stalled(30.0, 30.0, now=1000.0)
    watch.stalled(5.0, 5.0, now=1000.0 + WINDOW_S)  # the next window
    assert (watch.recent_ms, watch.since_start_ms) == (30.0, 30.0)
    watch.stalled(8.0, 8.0, now=1000.0 + 2 * WINDOW_S)  # the 30 ms is two windows back
    assert (watch.recent_ms, watch.since_start_ms) == (8.0, 30.0)
    watch.stalled(1.0, 1.0, now=1000.0 + 5 * WINDOW_S)  # nothing for minutes
    assert (watch.recent_ms, watch.since_start_ms) == (1.0, 30.0)


def test_a_long_stall_is_a_warning_and_a_run_of_them_one_line(
        caplog: pytest.LogCaptureFixture) -> None:
    watch = LoopWatch()
    caplog.set_level(logging.INFO, logger="stammtisch.loop")
    watch.stalled(99.0, 90.0, now=10.0)
    assert not caplog.records, "below 100 ms: no line"
    watch.stalled(250.0, 240.0, now=11.0)
    for second in range(12, 12 + int(WARN_EVERY_S) - 2):
        watch.stalled(150.0, 1.0, now=float(second))
    watch.stalled(120.0, 100.0, now=11.0 + WARN_EVERY_S)
    lines = [r.getMessage() for r in caplog.records]
    assert len(lines) == 2 and all(r.levelno == logging.WARNING for r in caplog.records)
    assert "250 ms" in lines[0] and "240 ms" in lines[0]
    assert (watch.since_start_ms, watch.busiest_ms) == (250.0, 240.0)
    assert f"{int(WARN_EVERY_S) - 2} more" in lines[1]


def test_healthz_says_how_long_the_loop_was_held_up(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'watch.db'}"
    migrate(url)
    with TestClient(create_app(url)) as client:
        answer = client.get("/healthz").json()
    assert answer["status"] == "ok"
    assert set(answer["loop_stall_ms"]) == {"recent", "since_start", "busiest"}
    assert answer["loop_stall_ms"]["since_start"] >= answer["loop_stall_ms"]["recent"] >= 0


async def _turns_before(watch: LoopWatch, on_turn: Callable[[int], None] | None = None) -> int:
    """How many turns of the loop went by while ``give_way`` waited: a callback
    counts the turns (and may play the probe waking up, ``on_turn``)."""
    turns = 0
    done = False

    def tick() -> None:
        nonlocal turns
        if done:
            return
        turns += 1
        if on_turn is not None:
            on_turn(turns)
        asyncio.get_running_loop().call_soon(tick)

    asyncio.get_running_loop().call_soon(tick)
    await watch.give_way()
    done = True
    return turns


def test_work_goes_on_at_once_while_the_loop_keeps_up_or_nobody_watches() -> None:
    watch = LoopWatch()
    assert not watch.behind() and asyncio.run(_turns_before(watch)) == 0, "no probe running"
    watch.woke = time.monotonic()
    assert not watch.behind() and asyncio.run(_turns_before(watch)) == 0, "the probe just woke"
    watch.woke = time.monotonic() - (TICK_S + SLICE_S / 2)
    assert not watch.behind(), "late by less than a slice"


def test_work_gives_way_while_the_loop_is_behind_until_the_probe_wakes() -> None:
    watch = LoopWatch()
    watch.woke = time.monotonic() - 1.0  # the probe is a second late
    assert watch.behind()

    def probe_wakes_on_the_third(turn: int) -> None:
        if turn == 3:
            watch.woke = time.monotonic()

    assert asyncio.run(_turns_before(watch, probe_wakes_on_the_third)) == 3
    watch.woke = time.monotonic() - 1.0
    # a probe that never wakes (cancelled, or the loop is wedged) holds nothing up
    # for ever: the work goes on after a few turns
    assert asyncio.run(_turns_before(watch)) == GIVE_WAY_TURNS


def test_a_stopped_probe_says_nothing_about_the_loop() -> None:
    async def run_briefly() -> LoopWatch:
        watch = LoopWatch()
        probe = asyncio.create_task(watch.run())
        await asyncio.sleep(TICK_S * 2)
        assert watch.woke is not None
        probe.cancel()
        await asyncio.gather(probe, return_exceptions=True)
        return watch

    watch = asyncio.run(run_briefly())
    assert watch.woke is None and not watch.behind()

"""tests.loops.run: a scenario that never ends fails with where it waits, and the
suite goes on (no test may hang CI without a word)."""

from __future__ import annotations

import asyncio
import time

import pytest

from tests.loops import run


def test_a_scenario_that_never_ends_fails_with_where_it_waits() -> None:
    async def waits_for_ever() -> None:
        await asyncio.Event().wait()

    since = time.monotonic()
    with pytest.raises(AssertionError) as failed:
        run(waits_for_ever(), limit=1)
    assert time.monotonic() - since < 10
    text = str(failed.value)
    assert "did not end within 1 s" in text
    assert "waits_for_ever" in text and "await asyncio.Event().wait()" in text


def test_a_scenario_blocked_in_a_thread_call_names_the_call() -> None:
    async def blocks() -> None:
        time.sleep(5)  # blocks its loop: only the thread's stack can tell

    with pytest.raises(AssertionError) as failed:
        run(blocks(), limit=0.5)
    text = str(failed.value)
    assert "did not answer" in text and "time.sleep(5)" in text


def test_results_and_errors_come_back() -> None:
    async def answer() -> int:
        await asyncio.sleep(0)
        return 42

    async def fails() -> None:
        raise KeyError("gone")

    assert run(answer()) == 42
    with pytest.raises(KeyError, match="gone"):
        run(fails())

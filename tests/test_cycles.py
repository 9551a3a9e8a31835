"""The cycle collector while the app serves (app.cycles): no young passes, cycles
freed by the periodic full pass, CPython's schedule afterwards."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Callable
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from app import cycles
from app.main import create_app
from tests.conftest import migrate


class Node:
    """Something that can sit in a reference cycle and be watched by a weakref."""

    def __init__(self) -> None:
        self.other: Node | None = None


def cycle() -> tuple[Node, weakref.ref[Node]]:
    a, b = Node(), Node()
    a.other, b.other = b, a
    return a, weakref.ref(b)


class Stop(Exception):
    pass


def ticks(*steps: Callable[[], None]) -> Callable[[float], object]:
    """A sleep for cycles.run that does one step per tick, then ends the loop."""
    todo = list(steps)
    slept: list[float] = []

    async def sleep(seconds: float) -> None:
        slept.append(seconds)
        if len(slept) > 1:  # the pass after the previous sleep has run
            todo.pop(0)()
        if not todo:
            raise Stop

    return sleep


def run(sleep: Callable[[float], object], full_every: float) -> None:
    """cycles.run with a sleep that never waits: stepped by hand, without an event
    loop (another test's may be running in this thread)."""
    coro = cycles.run(sleep=sleep, full_every=full_every)  # type: ignore[arg-type]
    with pytest.raises(Stop):
        coro.send(None)


def test_serving_sets_the_schedule_and_puts_cpythons_back() -> None:
    before, frozen = gc.get_threshold(), gc.get_freeze_count()
    with cycles.serving():
        assert gc.get_threshold() == (cycles.YOUNG_THRESHOLD, cycles.NEVER, cycles.NEVER)
        assert gc.get_freeze_count() > frozen  # what exists at start-up is left out
    assert gc.get_threshold() == before
    assert gc.get_freeze_count() == 0


def test_a_cycle_waits_for_the_full_pass() -> None:
    seen: list[bool] = []
    with cycles.serving():
        holder, watch = cycle()
        del holder  # garbage at once

        def look() -> None:
            seen.append(watch() is None)

        # sleeps of 10 s: a full pass after each; look once before the first pass
        # has run (the sleep that ends the loop comes first), then after it
        look()
        run(ticks(look), full_every=10.0)
    assert seen == [False, True]


def test_no_count_of_new_objects_starts_a_pass_while_serving() -> None:
    with cycles.serving():
        holder, watch = cycle()
        del holder
        kept = [[] for _ in range(50_000)]  # far past CPython's 700 new objects
        assert watch() is not None, "no pass has run"
        del kept
    gc.collect()
    assert watch() is None


def test_the_app_serves_with_the_schedule(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'c.db'}"
    migrate(url)
    before = gc.get_threshold()
    with TestClient(create_app(url)) as client:
        assert client.get("/healthz").status_code == 200
        assert gc.get_threshold() == (cycles.YOUNG_THRESHOLD, cycles.NEVER, cycles.NEVER)
    assert gc.get_threshold() == before

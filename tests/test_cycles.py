"""The cycle collector while the app serves (app.cycles): young passes often, the
older generations only in the periodic full pass, CPython's schedule afterwards."""

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
    coro = cycles.run(sleep=sleep, young_every=0.5,  # type: ignore[arg-type]
                      full_every=full_every)
    with pytest.raises(Stop):
        coro.send(None)


def test_serving_sets_the_schedule_and_puts_cpythons_back() -> None:
    before, frozen = gc.get_threshold(), gc.get_freeze_count()
    with cycles.serving():
        assert gc.get_threshold() == (cycles.YOUNG_THRESHOLD, cycles.NEVER, cycles.NEVER)
        assert gc.get_freeze_count() > frozen  # what exists at start-up is left out
    assert gc.get_threshold() == before
    assert gc.get_freeze_count() == 0


def test_a_young_cycle_is_freed_by_the_next_young_pass() -> None:
    seen: dict[str, bool] = {}
    with cycles.serving():
        holder, watch = cycle()
        del holder  # garbage while it is young

        def look() -> None:
            seen["freed"] = watch() is None

        run(ticks(look), full_every=600)
    assert seen == {"freed": True}


def test_a_cycle_that_outlived_its_young_pass_waits_for_the_full_pass() -> None:
    seen: list[bool] = []
    kept: list[Node] = []
    with cycles.serving():
        holder, watch = cycle()
        kept.append(holder)
        del holder

        def drop() -> None:  # after a young pass moved it out of the young objects
            kept.clear()

        def look() -> None:
            seen.append(watch() is None)

        # passes at 0.5 s (young: it is kept), then drop, 1.0 s and 1.5 s (young: a
        # look after each), 2.0 s (the full pass), a look
        sleep = ticks(drop, look, look, look)
        run(sleep, full_every=2.0)
    assert seen == [False, False, True]


def test_the_app_serves_with_the_schedule(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'c.db'}"
    migrate(url)
    before = gc.get_threshold()
    with TestClient(create_app(url)) as client:
        assert client.get("/healthz").status_code == 200
        assert gc.get_threshold() == (cycles.YOUNG_THRESHOLD, cycles.NEVER, cycles.NEVER)
    assert gc.get_threshold() == before

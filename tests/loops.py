"""Scenarios on an event loop of their own thread (the browser tests keep a loop
running on the main thread for the whole session).

A scenario that never ends must fail, not hang the suite: pytest-timeout's signal
reaches only the main thread, which would then wait for ever for the scenario's
thread (and print nothing). So :func:`run` waits at most ``limit`` seconds, then
fails with the stacks of the scenario's tasks and threads, and leaves the thread
behind (a daemon: it does not keep the test process alive)."""

from __future__ import annotations

import asyncio
import io
import sys
import threading
import traceback
from collections.abc import Coroutine
from typing import Any

SCENARIO_LIMIT_S = 240.0  # below the suite's per-test timeout (pyproject.toml)


def _task_stacks(loop: asyncio.AbstractEventLoop) -> str:
    """Where every task of ``loop`` waits, asked of the loop itself (it answers if
    it is waiting, not blocked)."""
    async def dump() -> str:
        out = io.StringIO()
        for task in asyncio.all_tasks() - {asyncio.current_task()}:
            print(f"--- {task!r}", file=out)
            task.print_stack(file=out)
        return out.getvalue()

    if loop.is_closed():
        return "(the loop is closed)\n"
    try:
        return asyncio.run_coroutine_threadsafe(dump(), loop).result(2)
    except TimeoutError:
        return "(the loop did not answer: its thread is blocked)\n"


def _thread_stacks() -> str:
    names = {t.ident: t.name for t in threading.enumerate()}
    out = io.StringIO()
    for ident, frame in sys._current_frames().items():
        print(f"--- thread {names.get(ident, ident)}", file=out)
        out.write("".join(traceback.format_stack(frame)))
    return out.getvalue()


def run(coro: Coroutine[Any, Any, Any], limit: float = SCENARIO_LIMIT_S) -> Any:
    """``coro``'s result, run as ``asyncio.run`` runs it on a thread of its own; a
    scenario still running after ``limit`` seconds fails with its stacks."""
    loops: list[asyncio.AbstractEventLoop] = []
    outcome: dict[str, Any] = {}

    def go() -> None:
        try:
            with asyncio.Runner() as runner:
                loops.append(runner.get_loop())
                outcome["value"] = runner.run(coro)
        except BaseException as exc:  # handed to the test's thread
            outcome["error"] = exc

    thread = threading.Thread(target=go, name="scenario", daemon=True)
    thread.start()
    thread.join(limit)
    if thread.is_alive():
        tasks = _task_stacks(loops[0]) if loops else "(no loop yet)\n"
        raise AssertionError(f"the scenario did not end within {limit:.0f} s\n"
                             f"== its tasks\n{tasks}== the threads\n{_thread_stacks()}")
    if "error" in outcome:
        raise outcome["error"]
    return outcome.get("value")

"""Bots think in other processes, so the event loop never waits for a search.

    pool = BotPool(size=None, budget_ms=1000)      # size: cores - 1, at least 1
    action = await pool.choose("search", "schafkopf", view, legal, seed=None,
                               budget_ms=1000, memory=(room_id, seat))
    none_or_action = await pool.choose(..., optional=True)   # may stay silent
    pool.close()

``memory`` names a seat whose search remembers the deal's public history between
its turns (the finished tricks; its own face-down cards in Lügenbeutel). The memory
lives here, in the calling process, and travels with each request, so any worker
may serve any seat; ``forget(memory)`` drops it when the seat or the room goes.
Without ``memory`` a search sees only the view it is given. When more requests wait
than there are workers, each gets a share of the budget (:meth:`BotPool.share`).

Reviews of a person's deal (:mod:`app.bots.review`) think here too, one decision at
a time, in a worker of their own that the system runs at a lower priority
(``REVIEW_NICE``) and started at the first review: a review never takes a worker a
bot's move could have, and a decision of a review starts only while no bot's move
waits (fewer bot requests in flight than workers), so a server under load delays
reviews, never moves::

    reviewed = await pool.review("schafkopf", points, budget_ms=1000, seed=7)

A hint for a person's seat (a practice table, :mod:`app.bots.hint`) thinks in a bot's
worker like a bot's move, since a person waits for it, and counts as one::

    found = await pool.hint("schafkopf", view, legal, memory=(room_id, seat), seed=7)

The workers are started with ``spawn`` (never ``fork``: the server has threads), and
``warm()`` imports the engines in every worker before the first real request. A
worker that dies fails the request it was serving (``BrokenProcessPool``; the
caller falls back to the house rules) and the next request gets fresh workers.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
from collections.abc import Hashable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from app.bots.search.history import History

DEFAULT_BUDGET_MS = 1000
PARENT_CHECK_S = 1.0  # how often a worker looks whether its server still runs
# Under load a request's budget shrinks (see BotPool.share), but not below this.
MIN_SHARE_MS = 50.0
# how much lower the review worker's priority is than the server's (os.nice)
REVIEW_NICE = 10


def default_size() -> int:
    """One worker per core but one (left for the event loop), at least one."""
    return max(1, (os.cpu_count() or 2) - 1)


def _think(kind: str, game: str, view: dict[str, Any], legal: list[str], seed: int | None,
           budget_ms: float | None, memory: dict[str, Any] | None,
           optional: bool) -> str | None:
    """Runs in a worker: a fresh bot with the seat's memory answers once."""
    from app.bots.api import SearchBot, make_bot

    bot = make_bot(kind, game, seed=seed, budget_ms=budget_ms)
    if isinstance(bot, SearchBot) and memory is not None:
        bot.history = History.from_state(memory)
    if optional:
        return bot.choose_optional(view, legal)
    return bot.choose(view, legal)


def _hint(game: str, view: dict[str, Any], legal: list[str], memory: dict[str, Any] | None,
          budget_ms: float | None, seed: int, optional: bool) -> dict[str, Any]:
    """Runs in a worker: the strong bot's hint for a person's seat."""
    from app.bots.hint import hint

    return hint(game, view, legal, memory, budget_ms=budget_ms, seed=seed, optional=optional)


def _reason(reason: Any) -> dict[str, Any] | None:
    """A :class:`app.games.Reason` as JSON: its English text, template and parameters
    (a parameter that is a Reason itself likewise), so it can be translated later."""
    if reason is None:
        return None
    params = {k: _reason(v) if hasattr(v, "key") else v
              for k, v in getattr(reason, "params", {}).items()}
    return {"text": str(reason), "key": getattr(reason, "key", str(reason)), "params": params}


def _review(game: str, points: list[dict[str, Any]], budget_ms: float | None,
            seed: int) -> dict[str, Any]:
    """Runs in the review worker: the review of the last of ``points`` (one seat's
    decisions of a deal, ``{"seq", "seat", "view", "legal", "chosen"}``), the earlier
    ones its memory. JSON, as it is kept."""
    from app.bots.review import DecisionPoint, review_point

    made = [DecisionPoint(seq=int(p["seq"]), seat=int(p["seat"]), view=p["view"],
                          legal=list(p["legal"]), chosen=str(p["chosen"])) for p in points]
    r = review_point(game, made[-1], made[:-1], budget_ms=budget_ms, seed=seed)
    return {"seq": r.seq, "chosen": r.chosen, "best": r.best,
            "options": [{"action": o.action, "estimate": o.estimate} for o in r.options],
            "mistake": r.mistake, "reason": _reason(r.reason), "loss": r.loss}


def _start_reviewer(parent: int) -> None:
    """The review worker starts: at a lower priority than the server and its bots."""
    _watch_parent(parent)
    with contextlib.suppress(OSError):  # a system that refuses: the queue alone
        os.nice(REVIEW_NICE)  # keeps the moves first


def _watch_parent(parent: int) -> None:
    """Runs in each worker as it starts: a worker whose server is gone (killed with
    no chance to close the pool) ends itself instead of idling on."""
    import threading
    import time

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_CHECK_S)
        os._exit(0)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


def _warm() -> int:
    import app.bots.api  # noqa: F401
    import app.bots.search  # noqa: F401

    return os.getpid()


class BotPool:
    def __init__(self, size: int | None = None,
                 budget_ms: float | None = DEFAULT_BUDGET_MS) -> None:
        self.size = size if size is not None and size > 0 else default_size()
        self.budget_ms = budget_ms
        self._executor = self._start()
        self._memory: dict[Hashable, History] = {}
        self.in_flight = 0  # requests queued or thinking now
        self._reviewer: ProcessPoolExecutor | None = None  # started at the first review
        self._review_turn: asyncio.Lock | None = None  # one decision at a time, in order
        self._bots_done: asyncio.Event | None = None  # set when a bot request ends

    def _start(self) -> ProcessPoolExecutor:
        return ProcessPoolExecutor(max_workers=self.size,
                                   mp_context=multiprocessing.get_context("spawn"),
                                   initializer=_watch_parent, initargs=(os.getpid(),))

    async def warm(self) -> None:
        """Start every worker and import the bots there (a first search would
        otherwise pay for it)."""
        loop = asyncio.get_running_loop()
        await asyncio.gather(*(loop.run_in_executor(self._executor, _warm)
                               for _ in range(self.size)))

    def share(self, budget: float | None) -> float | None:
        """The budget of a request made now. With no more requests than workers each
        gets ``budget``; with more, a request would first wait for the others, so each
        gets its share (``budget`` × workers / requests, at least ``MIN_SHARE_MS``):
        a bot's wait and thinking together stay near ``budget`` however many tables
        play, and the pool answers more requests per second."""
        if budget is None:
            return None
        waiting = self.in_flight + 1
        if waiting <= self.size:
            return budget
        return max(min(budget, MIN_SHARE_MS), budget * self.size / waiting)

    async def choose(self, kind: str, game: str, view: dict[str, Any], legal: list[str],
                     seed: int | None = None, budget_ms: float | None = None,
                     memory: Hashable | None = None, optional: bool = False) -> str | None:
        """The bot's answer, thought out in a worker process. ``optional``: the seat
        may let the moment pass (None)."""
        if not legal:
            if optional:
                return None
            raise ValueError("a bot was asked to act without legal actions")
        history = None
        if memory is not None:
            history = self._memory.setdefault(memory, History())
            history.observe(view)
        if not optional and len(legal) == 1:
            action: str | None = legal[0]
        else:
            budget = self.share(self.budget_ms if budget_ms is None else budget_ms)
            action = await self._in_worker(
                _think, kind, game, view, list(legal), seed, budget,
                history.state() if history is not None else None, optional)
        if history is not None and action is not None:
            history.note_action(view, action)
        return action

    async def hint(self, game: str, view: dict[str, Any], legal: list[str], *,
                   memory: Hashable | None = None, budget_ms: float | None = None,
                   seed: int, optional: bool = False) -> dict[str, Any]:
        """The strong bot's choice for a person's seat now and its estimates
        (:func:`app.bots.hint.hint`), thought out in a bot's worker like a bot's move
        (a person waits for it; reviews wait behind it), from the seat's memory of the
        deal (``memory``, as :meth:`choose` keeps it) without changing that memory: a
        hint is not an action."""
        if not legal:
            raise ValueError("a hint was asked for without legal actions")
        history = self._memory.get(memory) if memory is not None else None
        budget = self.share(self.budget_ms if budget_ms is None else budget_ms)
        found: dict[str, Any] = await self._in_worker(
            _hint, game, view, list(legal), history.state() if history is not None else None,
            budget, seed, optional)
        return found

    async def _in_worker(self, fn: Any, *args: Any) -> Any:
        """``fn(*args)`` in a bot's worker, counted as a bot's request while it is
        queued or thinking (reviews wait behind it)."""
        loop = asyncio.get_running_loop()
        executor = self._executor
        self.bot_started()
        try:
            return await loop.run_in_executor(executor, fn, *args)
        except BrokenProcessPool:
            # a worker died (killed, out of memory): this answer is lost, the
            # next request gets fresh workers
            if self._executor is executor:
                executor.shutdown(wait=False, cancel_futures=True)
                self._executor = self._start()
            raise
        finally:
            self.bot_ended()

    def bot_started(self) -> None:
        """A bot's request is queued or thinking (until :meth:`bot_ended`)."""
        self.in_flight += 1

    def bot_ended(self) -> None:
        self.in_flight -= 1
        if self._bots_done is not None:
            self._bots_done.set()

    def bot_waiting(self) -> bool:
        """Whether a review must wait: a bot's move waits for a worker, or would if
        another came (every worker thinks for a bot)."""
        return self.in_flight >= self.size

    async def _after_bots(self) -> None:
        """Return once no bot's move waits (see :meth:`bot_waiting`)."""
        while self.bot_waiting():
            if self._bots_done is None:
                self._bots_done = asyncio.Event()
            self._bots_done.clear()
            await self._bots_done.wait()

    async def review(self, game: str, points: list[dict[str, Any]], *,
                     budget_ms: float | None, seed: int) -> list[dict[str, Any]]:
        """The review of one seat's decisions of a deal (``points``, in order: see
        :func:`_review`), each decision thought out in the review worker under
        ``budget_ms``, one decision of any review at a time, each only once no bot's
        move waits (reviews asked together take turns, decision by decision)."""
        if self._review_turn is None:
            self._review_turn = asyncio.Lock()
        out = []
        for i in range(len(points)):
            async with self._review_turn:
                await self._after_bots()
                out.append(await self._review_one(game, points[:i + 1], budget_ms, seed))
        return out

    async def _review_one(self, game: str, points: list[dict[str, Any]],
                          budget_ms: float | None, seed: int) -> dict[str, Any]:
        """One decision's review in the review worker (a new worker if it died)."""
        if self._reviewer is None:
            self._reviewer = ProcessPoolExecutor(
                max_workers=1, mp_context=multiprocessing.get_context("spawn"),
                initializer=_start_reviewer, initargs=(os.getpid(),))
        reviewer = self._reviewer
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(reviewer, _review, game, points, budget_ms,
                                              seed)
        except BrokenProcessPool:
            if self._reviewer is reviewer:
                reviewer.shutdown(wait=False, cancel_futures=True)
                self._reviewer = None
            raise

    def observe(self, memory: Hashable, view: dict[str, Any], seat: int | None = None) -> None:
        """The seat ``memory`` saw ``view`` (between its own turns: a seat a person
        plays, which a bot may have to take over). ``seat``: that seat, when ``view``
        is the spectator's (what is remembered is public)."""
        self._memory.setdefault(memory, History()).observe(view, seat)

    def forget(self, memory: Hashable) -> None:
        self._memory.pop(memory, None)

    def close(self) -> None:
        self._executor.shutdown(wait=True, cancel_futures=True)
        if self._reviewer is not None:
            self._reviewer.shutdown(wait=True, cancel_futures=True)

    async def __aenter__(self) -> BotPool:
        return self

    async def __aexit__(self, *exc: object) -> None:
        self.close()

"""Bots at the table: levels, thinking in the pool with the room unlocked, stale
decisions, a failing worker, the delay counted from when a bot could move, and
another room's latency while strong bots think."""

from __future__ import annotations

import asyncio
import logging
import random
import statistics
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from app.bots import DEFAULT_LEVEL, choose_action
from app.bots.pool import BotPool
from app.db import Database, repo
from app.rooms.clock import Clock, ManualClock, MonotonicClock
from app.rooms.errors import Illegal
from app.rooms.room import Room
from app.rooms.service import RoomService
from tests.conftest import migrate
from tests.loops import run
from tests.rooms.test_turns_and_pacing import tick

NO_PAUSES = {"trick_pause_ms": 0, "next_deal_s": 0}


class ScriptedPool(BotPool):
    """A pool that answers with the house rules after ``think`` seconds of the room
    clock, and writes down every question (seat, version). Its process pool is never
    used, so no worker starts."""

    def __init__(self, clock: Clock, think: float = 0.0) -> None:
        super().__init__(size=1, budget_ms=20)
        assert isinstance(clock, ManualClock)
        self.clock = clock
        self.think = think
        self.asked: list[tuple[Any, str, int]] = []  # (memory, kind, cards or actions)
        self.gate: asyncio.Event | None = None
        self.entered = asyncio.Event()
        self.fail = False
        self.knew: list[Any] = []  # the deal's finished tricks the seat remembered

    async def choose(self, kind: str, game: str, view: dict[str, Any], legal: list[str],
                     seed: int | None = None, budget_ms: float | None = None,
                     memory: Any = None, optional: bool = False) -> str | None:
        self.asked.append((memory, kind, len(legal)))
        history = self._memory.get(memory)
        self.knew.append(None if history is None else history.deal_tricks(view))
        self.entered.set()
        if self.gate is not None:
            await self.gate.wait()
        if self.think:
            await self.clock.sleep(self.think)
        if self.fail:
            raise RuntimeError("the worker died")
        return choose_action(game, view, legal, random.Random(seed))


def scenario(tmp_path: Path, body: Callable[[RoomService, Any], Awaitable[None]], *,
             pool: Callable[[Clock], BotPool | None] = lambda clock: None,
             clock: Clock | None = None, delay_ms: int = 0) -> None:
    url = f"sqlite:///{tmp_path / 'bots.db'}"
    migrate(url)

    async def go() -> None:
        db = Database(url)
        used = clock or ManualClock(start=100.0)
        the_pool = pool(used)
        service = RoomService(db, bot_delay_ms=delay_ms, clock=used, pool=the_pool)
        try:
            await body(service, the_pool)
        finally:
            await service.close()
            if the_pool is not None:
                the_pool.close()
            db.close()

    run(go())


async def table(service: RoomService, game: str = "schafkopf", *,
                people: tuple[str, ...] = ("Anna",), levels: tuple[str | None, ...] = (),
                options: dict[str, Any] | None = None, start: bool = True,
                seed: int = 5) -> tuple[Room, str]:
    """A table with ``people`` in the first seats, then a bot of each level in
    ``levels`` (None: the default level) in the next ones; every person has the
    table open."""
    room, host = await service.create(game=game, options={**NO_PAUSES, **(options or {})},
                                      seed=seed)
    for seat, name in enumerate(people):
        await service.join(room.id, name, seat=seat)
        service.connected(room, seat)
    for seat, level in enumerate(levels, start=len(people)):
        await service.join(room.id, None, is_bot=True, seat=seat,
                           level=level or DEFAULT_LEVEL)
    if start:
        await service.start(room.id, host)
    return room, host


async def person_plays(service: RoomService, room: Room, seats: set[int],
                       until: Callable[[], bool]) -> int:
    """The people at ``seats`` play the house rules whenever it is their turn."""
    moves = 0
    rng = random.Random(1)
    while not until():
        match = room.match
        assert match is not None
        if match.is_over:
            break
        mine = sorted(s for s in match.to_act() if s in seats and match.must_act(s))
        if not mine:
            await asyncio.sleep(0.003)
            continue
        seat = mine[0]
        action = choose_action(room.game, match.view(seat), match.legal_actions(seat), rng)
        await service.act(room.id, seat, action, room.version)
        moves += 1
    return moves


# ----- levels ----------------------------------------------------------------------------

def test_easy_bots_play_the_house_rules_and_strong_ones_ask_the_pool(tmp_path: Path) -> None:
    async def body(service: RoomService, pool: ScriptedPool) -> None:
        room, host = await table(service, levels=("easy", None, "strong"),
                                 options={"dealer": 0})
        assert [s.level for s in room.seats if s is not None][1:] == ["easy", "strong",
                                                                       "strong"]
        with pytest.raises(Illegal, match="easy"):
            await service.add_bot(room.id, host, "grandmaster")
        for _ in range(12):  # Anna plays her turns, the bots theirs
            await tick(pool.clock, 1, room)
            match = room.match
            assert match is not None
            if 0 in match.to_act():
                legal = match.legal_actions(0)
                await service.act(room.id, 0, legal[-1], room.version)
        asked = {memory for memory, _kind, _n in pool.asked}
        assert asked and asked <= {(room.id, 2), (room.id, 3)}, asked
        assert all(kind == "search" for _m, kind, _n in pool.asked)
        moved = {a.seat for a in await service.db.read(repo.action_log, match_id=room.id)}
        assert 1 in moved, "the easy bot played without the pool"

    scenario(tmp_path, body, pool=ScriptedPool)


def test_levels_survive_a_restart_and_a_rematch(db_url: str) -> None:
    """On SQLite and PostgreSQL: the level is saved with the seat."""
    async def go() -> None:
        db = Database(db_url)
        service = RoomService(db, bot_delay_ms=0)
        room, host = await table(service, "mauscheln", levels=("easy", "strong"),
                                 start=False)
        assert [s.level for s in room.seats if s is not None][1:] == ["easy", "strong"]
        await service.close()
        again = RoomService(db, bot_delay_ms=0)
        # with room leases (PostgreSQL) none at start: the room on first use
        assert await again.restore_open_rooms() == (0 if again.leases else 1)
        await again.load(room.id)
        back = again.get(room.id)
        assert [(s.is_bot, s.level) for s in back.seats if s is not None][1:] == [
            (True, "easy"), (True, "strong")]
        service.connected(back, 0)
        await again.start(room.id, host)
        await again.end_match(room.id, host)
        new, opened = await again.rematch(room.id, host)
        assert opened
        assert [(s.is_bot, s.level) for s in new.seats if s is not None][1:] == [
            (True, "easy"), (True, "strong")]
        saved = {m.id: m for m in await db.read(repo.open_matches)}[new.id]
        assert [(s.is_bot, s.level) for s in saved.seats][1:] == [(True, "easy"),
                                                                  (True, "strong")]
        await again.close()
        db.close()

    run(go())


# ----- never in the way ------------------------------------------------------------------

def test_the_delay_counts_from_when_the_bot_could_move_thinking_included(
        tmp_path: Path) -> None:
    """``BOT_DELAY_MS`` 700: a bot that thinks 0.2 s still plays at 0.7 s; one that
    thinks 0.9 s plays when it is done, not 0.7 s later."""
    for think, plays_at in ((0.2, 0.7), (0.9, 0.9)):
        async def body(service: RoomService, pool: ScriptedPool, think: float = think,
                       plays_at: float = plays_at) -> None:
            pool.think = think
            room, _host = await table(service, levels=(None, None, None),
                                      options={"dealer": 0})
            start = room.version
            await tick(pool.clock, plays_at - 0.05, room)
            assert room.version == start, f"the bot played before {plays_at} s"
            await tick(pool.clock, 0.1, room)
            assert room.version == start + 1, f"the bot did not play by {plays_at} s"

        scenario(tmp_path / str(think), body, pool=ScriptedPool, delay_ms=700)


def test_a_decision_for_an_old_version_is_not_applied(tmp_path: Path) -> None:
    """A bot plays for a released seat and thinks; meanwhile somebody takes the seat
    over and plays another card. The bot's answer, made for the old version, is
    dropped; the bots after that seat think about the new table."""
    async def body(service: RoomService, pool: ScriptedPool) -> None:
        room, host = await table(service, people=("Anna", "Bert"),
                                 levels=("easy", "strong"), options={"dealer": 0})
        match = room.match
        assert match is not None and match.to_act() == {1}
        pool.gate = asyncio.Event()
        await service.release(room.id, host, 1)  # Bert's seat: a strong bot plays it
        await asyncio.wait_for(pool.entered.wait(), 5)
        thought_for = room.version
        assert pool.asked == [((room.id, 1), "search", len(match.legal_actions(1)))]
        assert not room.lock.locked(), "the room is free while the bot thinks"
        seat, _token = await service.join(room.id, "Vroni")
        assert seat == 1
        legal = match.legal_actions(1)
        stale = choose_action("schafkopf", match.view(1), legal, random.Random(0))
        mine = next(a for a in legal if a != stale) if len(legal) > 1 else legal[0]
        await service.act(room.id, 1, mine, thought_for)
        pool.gate.set()  # the bot answers now, for a table that moved on
        for _ in range(300):
            if room.version >= thought_for + 3:
                break
            await asyncio.sleep(0.01)
        log = await service.db.read(repo.action_log, match_id=room.id)
        assert [a.action for a in log if a.seat == 1] == [mine]
        assert [a.seat for a in log[-3:]] == [1, 2, 3], "the bots played on after Vroni"
        assert [memory for memory, _kind, _n in pool.asked[1:]] == [(room.id, 3)]
        assert room.stand_ins == {} and room.match is not None
        assert room.match.to_act() <= {0, 1}, "a person's turn now: the bots wait"

    scenario(tmp_path, body, pool=ScriptedPool)


def test_a_strong_bot_taking_a_seat_over_mid_deal_knows_the_tricks_before(
        tmp_path: Path) -> None:
    """The pool remembers what a person's seat saw, so the bot that plays for Bert
    after the host released his seat knows every trick of the deal so far (the view
    shows only the last one)."""
    async def body(service: RoomService, pool: ScriptedPool) -> None:
        room, host = await table(service, people=("Anna", "Bert"), levels=("easy", "easy"),
                                 options={"dealer": 3})
        for _ in range(200):  # Anna and Bert play until three tricks are done
            await tick(pool.clock, 1, room)
            match = room.match
            assert match is not None
            done = sum(match.view(1).get("tricks_won") or [0])
            if done >= 3 and match.to_act() == {1}:
                break
            for seat in sorted(match.to_act() & {0, 1}):
                await service.act(room.id, seat, match.legal_actions(seat)[0], room.version)
        assert done >= 3
        await service.release(room.id, host, 1)
        await tick(pool.clock, 1, room)
        assert pool.asked and pool.asked[0][:2] == ((room.id, 1), "search")
        assert pool.knew[0] is not None and len(pool.knew[0]) == done
        assert room.stand_ins == {1: "released"}

    scenario(tmp_path, body, pool=ScriptedPool)


def test_a_failing_worker_leaves_the_move_to_the_house_rules(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    async def body(service: RoomService, pool: ScriptedPool) -> None:
        pool.fail = True
        room, _host = await table(service, levels=(None, None, None), options={"dealer": 0})
        with caplog.at_level(logging.ERROR, logger="stammtisch.rooms"):
            await tick(pool.clock, 1, room)
        assert room.version > 5 and not room.error
        assert room.match is not None and 0 in room.match.to_act(), "the bots played on"
        assert "bot worker failed" in caplog.text

    scenario(tmp_path, body, pool=ScriptedPool)


def test_one_person_and_three_strong_bots_play_a_match_to_the_end(tmp_path: Path) -> None:
    asked: list[str] = []

    class Counting(BotPool):
        async def choose(self, kind: str, *args: Any, **kwargs: Any) -> str | None:
            asked.append(kind)
            return await super().choose(kind, *args, **kwargs)

    async def body(service: RoomService, pool: BotPool) -> None:
        await pool.warm()
        room, _host = await table(service, levels=(None, None, None),
                                  options={"target": 1, "dealer": 3})
        deadline = time.monotonic() + 120
        moves = await person_plays(service, room, {0}, lambda: time.monotonic() > deadline)
        assert room.match is not None and room.match.is_over, "the match did not end"
        assert room.status == "finished" and moves >= 8
        assert asked.count("search") >= 24, "three strong bots thought in the pool"
        saved = await service.db.read(repo.action_log, match_id=room.id)
        assert {a.seat for a in saved} - {None} == {0, 1, 2, 3}  # None: the start
        remembered = [key for key in pool._memory if key[0] == room.id]  # noqa: SLF001
        assert remembered == [], "the finished match's memory was dropped"

    scenario(tmp_path, body, pool=lambda clock: Counting(size=1, budget_ms=20),
             clock=MonotonicClock())


def test_another_rooms_actions_keep_their_latency_while_four_strong_bots_think(
        tmp_path: Path) -> None:
    """Room B's people play; four rooms with a strong bot thinking at nearly every
    moment run beside it. Not a timing target: a check that nothing waits for a
    search (a search on the event loop would hold every room for its whole budget)."""
    async def measure(service: RoomService, n: int) -> list[float]:
        room, _host = await table(service, people=("Anna", "Bert", "Cilli", "Done"),
                                  options={"dealer": 3}, seed=9)
        took: list[float] = []
        rng = random.Random(3)
        while len(took) < n:
            match = room.match
            assert match is not None
            if match.is_over:
                room, _host = await table(service, people=("Anna", "Bert", "Cilli", "Done"),
                                          options={"dealer": 3}, seed=len(took))
                continue
            seat = min(match.to_act())
            action = choose_action("schafkopf", match.view(seat), match.legal_actions(seat),
                                   rng)
            before = time.perf_counter()
            await service.act(room.id, seat, action, room.version)
            took.append(time.perf_counter() - before)
            await asyncio.sleep(0.005)  # people do not play back to back
        return took

    figures: dict[str, float] = {}

    async def body(service: RoomService, pool: BotPool) -> None:
        await pool.warm()
        idle = statistics.median(await measure(service, 40))
        thinking: list[int] = []
        real_choose = pool.choose

        async def counted(*args: Any, **kwargs: Any) -> str | None:
            thinking.append(1)
            try:
                return await real_choose(*args, **kwargs)
            finally:
                thinking.pop()

        pool.choose = counted  # type: ignore[method-assign]
        busy: list[Room] = []
        for i in range(4):
            room, _host = await table(service, levels=(None, None, None),
                                      options={"dealer": 0}, seed=20 + i)
            busy.append(room)
        stop = False
        people = [asyncio.create_task(person_plays(service, r, {0}, lambda: stop))
                  for r in busy]
        await asyncio.sleep(0.3)  # the bots are thinking now
        seen_thinking = len(thinking)
        loaded = statistics.median(await measure(service, 40))
        stop = True
        await asyncio.gather(*people)
        figures.update(idle_ms=idle * 1000, loaded_ms=loaded * 1000,
                       thinking=seen_thinking)
        print(f"\nroom B median action latency: idle {idle * 1000:.1f} ms, "
              f"with 4 strong bots thinking {loaded * 1000:.1f} ms "
              f"({seen_thinking} searches in flight at the start)")
        assert seen_thinking >= 2, "the strong bots were not thinking"
        played = [sum(1 for a in await service.db.read(repo.action_log, match_id=r.id)
                      if a.seat not in (None, 0)) for r in busy]
        assert sum(played) >= 3, f"the bots of the busy rooms played: {played}"
        assert loaded < max(3 * idle, 0.05), figures
        assert loaded < 0.25, figures

    scenario(tmp_path, body, pool=lambda clock: BotPool(size=None, budget_ms=300),
             clock=MonotonicClock())

"""A database hiccup does not stop a table for good: short ones are retried
unseen; a longer one (a lock held past the busy timeout, a lost connection) makes
the table wait with a notice on every seat's page and resume by itself from its
last saved step when the database answers again. Nothing unsaved is ever shown."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import pytest
from sqlalchemy import text
from sqlalchemy.exc import IntegrityError, OperationalError

import app.db.session as db_session
from app.db import Database, repo
from app.db.retry import DatabaseUnavailable, is_transient
from app.rooms.clock import ManualClock
from app.rooms.errors import Illegal, Unavailable
from app.rooms.recovery import HELD_S, MAX_PAUSE_S, SLOW_WRITE_S
from app.rooms.room import Room
from app.rooms.service import RoomService
from app.web.fragments import render_frame
from tests.conftest import migrate
from tests.locks import write_lock
from tests.loops import run
from tests.rooms.test_quotas_and_presence import tick
from tests.rooms.test_service_durability import GatedDatabase

T = TypeVar("T")
NOTICE = "Reconnecting to the database"


class FlakyDatabase(Database):
    """A real SQLite database whose transactions fail ``failures`` more times with
    SQLite's "database is locked" (as when another process holds the lock past the
    busy timeout), then work again."""

    def __init__(self, url: str) -> None:
        super().__init__(url)
        self.failures = 0
        self.calls = 0

    def run_sync(self, fn: Callable[..., T], /, **kwargs: Any) -> T:
        def flaky(session: Any, **kw: Any) -> T:
            self.calls += 1
            if self.failures > 0:
                self.failures -= 1
                raise OperationalError("UPDATE matches ...", {},
                                       sqlite3.OperationalError("database is locked"))
            return fn(session, **kw)
        return super().run_sync(flaky, **kwargs)


@pytest.fixture
def service(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> RoomService:
    monkeypatch.setattr("app.db.retry.FIRST_WAIT_S", 0.001)
    monkeypatch.setattr("app.db.retry.MAX_WAIT_S", 0.005)
    url = f"sqlite:///{tmp_path / 'flaky.db'}"
    migrate(url)
    return RoomService(FlakyDatabase(url), bot_delay_ms=10, clock=ManualClock(start=0.0))


async def _table(service: RoomService) -> tuple[str, str]:
    room, host = await service.create(game="schafkopf", options={"dealer": 3}, seed=2)
    for name in ("Anna", "Bert", "Cilli", "Done"):
        await service.join(room.id, name)
    await service.start(room.id, host)
    return room.id, host


def test_a_short_hiccup_is_retried_unseen(service: RoomService) -> None:
    async def scenario() -> None:
        room_id, _ = await _table(service)
        room = service.get(room_id)
        db = service.db
        assert isinstance(db, FlakyDatabase)
        db.failures = 2  # fewer than the attempts
        legal = room.state(0)["legal"]
        await service.act(room_id, 0, legal[0], room.version)
        assert room.error is None and db.failures == 0
        saved = await db.read(repo.open_match, match_id=room_id)
        assert saved is not None and saved.version == room.version
        db.close()

    run(scenario())


def _move_through_failures(service: RoomService, failures: int) -> None:
    """Open a table and make its first move while the database fails ``failures``
    times first."""
    async def scenario() -> None:
        room_id, _ = await _table(service)
        room = service.get(room_id)
        db = service.db
        assert isinstance(db, FlakyDatabase)
        db.failures = failures
        await service.act(room_id, 0, room.state(0)["legal"][0], room.version)
        db.close()

    run(scenario())


def test_each_retried_attempt_is_logged_with_its_number(
        service: RoomService, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level("WARNING", logger="stammtisch.db"):
        _move_through_failures(service, 2)
    hiccups = [r.getMessage() for r in caplog.records if "hiccup" in r.getMessage()]
    assert [m.split(", retrying")[0] for m in hiccups] == [
        "database hiccup (attempt 1 of 3)", "database hiccup (attempt 2 of 3)"]


def test_the_pauses_between_attempts_grow_from_the_first(
        service: RoomService, monkeypatch: pytest.MonkeyPatch) -> None:
    """The first attempt runs outside tenacity (``Database.run_sync``); the pauses
    still follow one backoff: after attempt 1 the first pause, after attempt 2 twice
    that (jitter set to nothing here)."""
    import random
    import time

    slept: list[float] = []
    real_sleep = time.sleep

    def sleep(seconds: float) -> None:
        slept.append(seconds)
        real_sleep(seconds)

    monkeypatch.setattr(random, "uniform", lambda a, b: a)
    monkeypatch.setattr(time, "sleep", sleep)
    _move_through_failures(service, 2)
    assert slept == [pytest.approx(0.001), pytest.approx(0.002)]


def test_a_long_outage_shows_a_notice_then_the_table_resumes_by_itself(
        service: RoomService) -> None:
    async def scenario() -> None:
        clock = service.clock
        assert isinstance(clock, ManualClock)
        room_id, _ = await _table(service)
        room = service.get(room_id)
        db = service.db
        assert isinstance(db, FlakyDatabase)
        before = {seat: room.state(seat) for seat in range(4)}
        db.failures = 10**6  # down until further notice
        legal = room.state(0)["legal"]
        with pytest.raises(Unavailable) as refused:
            await service.act(room_id, 0, legal[0], room.version)
        assert refused.value.status == 503
        assert "not kept" in refused.value.message
        # nothing unsaved is shown; every seat's page says what is happening
        for seat in range(4):
            assert room.state(seat) == before[seat]
            assert NOTICE in render_frame(room, seat, False)
        assert NOTICE in render_frame(room, None, False)
        with pytest.raises(Illegal) as waiting:  # moves wait meanwhile
            await service.act(room_id, 0, legal[0], room.version)
        assert NOTICE in waiting.value.message
        calls = db.calls
        await tick(clock, 5, 2.0)
        assert db.calls > calls, "the room keeps asking the database"
        assert room.error is not None
        db.failures = 0  # the database answers again
        await tick(clock, 10, 5.0)
        assert room.error is None, "the table resumed by itself"
        assert NOTICE not in render_frame(room, 0, False)
        assert room.state(1) == before[1]
        saved = await db.read(repo.open_match, match_id=room_id)
        assert saved is not None and saved.version == room.version
        await service.act(room_id, 0, legal[0], room.version)
        assert room.state(1)["view"]["trick"] == [{"seat": 0, "card": legal[0][5:]}]
        db.close()

    run(scenario())


def test_a_table_resumes_from_what_was_saved_when_the_answer_was_lost(
        tmp_path: Path) -> None:
    """The write arrived but its answer did not: the room reloads the saved step."""
    url = f"sqlite:///{tmp_path / 'lost.db'}"
    migrate(url)

    class LostAnswer(Database):
        lose = False

        async def write(self, fn: Callable[..., T], /, **kwargs: Any) -> T:
            result = await super().write(fn, **kwargs)
            if fn is repo.record_step and self.lose:
                self.lose = False
                raise DatabaseUnavailable("server closed the connection unexpectedly")
            return result

    async def scenario() -> None:
        clock = ManualClock(start=0.0)
        service = RoomService(LostAnswer(url), bot_delay_ms=10, clock=clock)
        room_id, _ = await _table(service)
        room = service.get(room_id)
        db = service.db
        assert isinstance(db, LostAnswer)
        db.lose = True
        legal = room.state(0)["legal"]
        version = room.version
        with pytest.raises(Unavailable):
            await service.act(room_id, 0, legal[0], version)
        assert room.version == version and room.state(1)["view"]["trick"] == []
        await tick(clock, 5, 2.0)
        assert room.error is None
        assert room.version == version + 1, "the step that did arrive is on the table"
        assert room.state(1)["view"]["trick"] == [{"seat": 0, "card": legal[0][5:]}]
        db.close()

    run(scenario())


def test_a_retried_write_that_finds_its_first_try_resumes_instead_of_stopping(
        tmp_path: Path) -> None:
    """The connection broke after the commit: the retry meets a duplicate step
    (not a transient error). The room sees the step saved and reloads it."""
    url = f"sqlite:///{tmp_path / 'dup.db'}"
    migrate(url)

    class Duplicate(Database):
        once = False

        async def write(self, fn: Callable[..., T], /, **kwargs: Any) -> T:
            result = await super().write(fn, **kwargs)
            if fn is repo.record_step and self.once:
                self.once = False
                raise IntegrityError("INSERT INTO match_actions ...", {},
                                     sqlite3.IntegrityError("UNIQUE constraint failed"))
            return result

    async def scenario() -> None:
        clock = ManualClock(start=0.0)
        service = RoomService(Duplicate(url), bot_delay_ms=10, clock=clock)
        room_id, _ = await _table(service)
        room = service.get(room_id)
        db = service.db
        assert isinstance(db, Duplicate)
        db.once = True
        legal = room.state(0)["legal"]
        version = room.version
        with pytest.raises(Unavailable):
            await service.act(room_id, 0, legal[0], version)
        await tick(clock, 3, 1.0)
        assert room.error is None and room.version == version + 1
        assert room.state(2)["view"]["trick"] == [{"seat": 0, "card": legal[0][5:]}]
        db.close()

    run(scenario())


def test_a_real_sqlite_lock_held_too_long_is_survived(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """Another process holds the write lock past the busy timeout, then lets go."""
    monkeypatch.setattr(db_session, "SQLITE_BUSY_TIMEOUT_MS", 50)
    monkeypatch.setattr("app.db.retry.FIRST_WAIT_S", 0.001)
    monkeypatch.setattr("app.db.retry.MAX_WAIT_S", 0.005)
    path = tmp_path / "locked.db"
    migrate(f"sqlite:///{path}")

    async def scenario() -> None:
        clock = ManualClock(start=0.0)
        service = RoomService(Database(f"sqlite:///{path}"), bot_delay_ms=10, clock=clock)
        room_id, _ = await _table(service)
        room = service.get(room_id)
        other = sqlite3.connect(path, timeout=0, isolation_level=None)
        other.execute("BEGIN IMMEDIATE")  # the lock another program holds
        legal = room.state(0)["legal"]
        with pytest.raises(Unavailable):
            await service.act(room_id, 0, legal[0], room.version)
        assert NOTICE in render_frame(room, 2, False)
        other.execute("ROLLBACK")
        other.close()
        await tick(clock, 5, 2.0)
        assert room.error is None
        await service.act(room_id, 0, legal[0], room.version)
        service.db.close()

    run(scenario())


class _Orig(Exception):
    def __init__(self, sqlstate: str) -> None:
        super().__init__(sqlstate)
        self.sqlstate = sqlstate


@pytest.mark.parametrize(("sqlstate", "transient"), [
    ("40001", True), ("40P01", True), ("08006", True), ("57P01", True),
    ("23505", False), ("42P01", False)])
def test_postgresql_errors_are_classified_by_sqlstate(sqlstate: str, transient: bool) -> None:
    assert is_transient(OperationalError("stmt", {}, _Orig(sqlstate))) is transient


def test_what_is_not_transient() -> None:
    assert not is_transient(IntegrityError("stmt", {}, sqlite3.IntegrityError("UNIQUE")))
    assert not is_transient(ValueError("x"))
    locked = sqlite3.OperationalError("database is locked")
    assert is_transient(OperationalError("stmt", {}, locked))
    lost = OperationalError("stmt", {}, Exception("gone"), connection_invalidated=True)
    assert is_transient(lost)



# ----- a long lock is seen (issue 25 item 7) ----------------------------------------
class HeldDatabase(Database):
    """A real SQLite database whose thread can be made to hold the step it writes, as
    a lock held elsewhere holds it (``release`` cleared: held)."""

    def __init__(self, url: str) -> None:
        super().__init__(url)
        self.release = threading.Event()
        self.release.set()

    async def write(self, fn: Callable[..., T], /, **kwargs: Any) -> T:
        if fn is repo.record_step:
            release = self.release

            def held(session: Any, **step: Any) -> Any:
                release.wait(30)
                return repo.record_step(session, **step)

            return await super().write(held, **kwargs)
        return await super().write(fn, **kwargs)


async def _first_move(service: RoomService, hold: Callable[[], None]
                      ) -> tuple[Room, list[str | None], list[str], int, asyncio.Task[Any]]:
    """A table's first move sent once the table is set (and ``hold`` called): its
    room, what its pages were told of the room's notice, the legal actions and the
    version before it, and the move's task."""
    room_id, _ = await _table(service)
    hold()
    room = service.get(room_id)
    told: list[str | None] = []
    room.listeners.add(lambda r: told.append(r.error))
    legal = room.state(0)["legal"]
    version = room.version
    return room, told, legal, version, asyncio.create_task(
        service.act(room_id, 0, legal[0], version))


def test_a_write_that_waits_shows_the_notice_after_two_seconds_until_it_is_through(
        tmp_path: Path) -> None:
    """A step's write held up (as by a lock held elsewhere): after SLOW_WRITE_S on the
    room's clock every seat's page says the table is reconnecting, moves are refused
    at once meanwhile, and the notice goes when the write is through."""
    url = f"sqlite:///{tmp_path / 'held.db'}"
    migrate(url)

    async def scenario() -> None:
        clock = ManualClock(start=0.0)
        db = HeldDatabase(url)
        service = RoomService(db, bot_delay_ms=10, clock=clock)
        room, told, legal, version, move = await _first_move(service, db.release.clear)
        room_id = room.id
        await asyncio.sleep(HELD_S + 0.2)  # the database thread holds the move's write
        assert db.write_held_s() > HELD_S
        await clock.advance(SLOW_WRITE_S - 0.1)
        assert room.error is None and not told, "a moment's wait shows nothing"
        await clock.advance(0.2)
        assert room.error is not None and NOTICE in room.error
        assert told == [room.error], "every seat's page was told"
        for seat in (None, 0, 1, 2, 3):
            assert NOTICE in render_frame(room, seat, False)
        assert not move.done() and room.version == version, "nothing unsaved is shown"
        with pytest.raises(Illegal) as refused:  # another seat's move: refused at once
            await service.act(room_id, 1, "play:GA", version)
        assert NOTICE in refused.value.message
        db.release.set()
        await move
        assert room.error is None and told[-1] is None
        assert room.version == version + 1
        assert db.write_held_s() == 0.0
        assert NOTICE not in render_frame(room, 2, False)
        assert room.state(2)["view"]["trick"] == [{"seat": 0, "card": legal[0][5:]}]
        db.close()

    run(scenario())


@pytest.mark.parametrize("lock", ["write", "exclusive"])
def test_the_notice_stays_until_writes_go_through_not_reads(db_url: str, lock: str) -> None:
    """While another program holds the write lock (SQLite: BEGIN IMMEDIATE or
    EXCLUSIVE; PostgreSQL: LOCK TABLE matches IN EXCLUSIVE or ACCESS EXCLUSIVE MODE)
    reads may work; the room waiting for the database checks a write, so its notice
    stays until writes go through again (it went as soon as a read worked)."""
    async def scenario() -> None:
        clock = ManualClock(start=0.0)
        service = RoomService(Database(db_url), bot_delay_ms=10, clock=clock)
        room_id, _ = await _table(service)
        room = service.get(room_id)
        legal = room.state(0)["legal"]
        with write_lock(db_url, lock):
            async with room.lock:  # as after a write that failed for good
                service.recovery.wait_for_database(room)
            await tick(clock, 3, MAX_PAUSE_S)  # each check waits WRITE_CHECK_S for it
            assert room.error is not None and NOTICE in room.error, "still waiting"
            with pytest.raises(Illegal):
                await service.act(room_id, 0, legal[0], room.version)
        for _ in range(100):  # a check may be waiting for the lock that just went
            if room.error is None:
                break
            await clock.advance(MAX_PAUSE_S)
            await asyncio.sleep(0.1)
        assert room.error is None, "writes go through: the table carries on"
        await service.act(room_id, 0, legal[0], room.version)
        assert room.state(1)["view"]["trick"] == [{"seat": 0, "card": legal[0][5:]}]
        service.db.close()

    run(scenario())


def test_a_write_check_leaves_nothing_behind(db_url: str) -> None:
    """The check takes the write locks and rolls back: no row, no growth."""
    db = Database(db_url)

    async def a_table() -> None:
        await _table(RoomService(db, bot_delay_ms=10, clock=ManualClock()))

    run(a_table())
    rows = text("SELECT (SELECT count(*) FROM matches) + (SELECT count(*) FROM "
                "match_actions)")
    size = text("SELECT pg_total_relation_size('matches') + "
                "pg_total_relation_size('match_actions')"
                if db.engine.dialect.name == "postgresql" else "PRAGMA page_count")

    def measure() -> tuple[int, int]:
        with db.engine.connect() as conn:
            return conn.execute(rows).scalar_one(), conn.execute(size).scalar_one()

    before = measure()
    assert before[0] > 0
    for _ in range(200):
        db.can_write_now()
    assert measure() == before
    with write_lock(db_url):
        with pytest.raises(Exception) as refused:
            db.can_write_now()
        assert is_transient(refused.value) or "timeout" in str(refused.value)
    db.can_write_now()
    db.close()


def test_a_write_answered_late_by_a_busy_server_shows_no_notice(tmp_path: Path) -> None:
    """A step whose write the database is not holding (it is through, or waits for
    the event loop of a busy server to hand it over: here, held before the database
    thread) shows no "reconnecting" notice however long it waits; the move lands."""
    url = f"sqlite:///{tmp_path / 'busy.db'}"
    migrate(url)

    async def scenario() -> None:
        clock = ManualClock(start=0.0)
        db = GatedDatabase(url)
        service = RoomService(db, bot_delay_ms=10, clock=clock)
        gate = asyncio.Event()

        def hold() -> None:
            db.gate = gate

        room, told, _, version, move = await _first_move(service, hold)
        await asyncio.sleep(0.05)
        await clock.advance(SLOW_WRITE_S * 5)
        assert db.write_held_s() == 0.0
        assert room.error is None and not told, "no notice: the database holds nothing"
        gate.set()
        await move
        assert room.version == version + 1 and room.error is None
        db.close()

    run(scenario())

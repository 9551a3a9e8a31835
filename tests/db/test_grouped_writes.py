"""Grouped commits of the rooms' steps (``Database.write``), on SQLite and PostgreSQL:
the steps that wait for the database thread together share one commit; a group
that fails is written again step by step, so each room gets its own answer; and
no room shows a step before the commit that holds it."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import pytest
from sqlalchemy import insert, text, update
from sqlalchemy.exc import IntegrityError

from app.db import Database, repo
from app.db.models import ActionRow, MatchRow
from app.rooms.errors import Illegal
from app.rooms.pipeline import STOPPED
from app.rooms.service import RoomService
from tests.loops import run

ROOMS = ("ra", "rb", "rc", "rd", "re")


def _rooms(db: Database, ids: tuple[str, ...] = ROOMS) -> None:
    for room in ids:
        db.run_sync(repo.create_match, match_id=room, game="schafkopf", players=4,
                    options={}, host_token="host")


def _step(room: str, seq: int) -> dict[str, Any]:
    return {"match_id": room, "seq": seq, "seat": 0, "action": f"play:{room}{seq}",
            "events": [{"type": "played", "seq": seq}], "snapshot": {"room": room, "at": seq},
            "deals": []}


def _version(db: Database, room: str) -> int:
    saved = db.run_sync(repo.open_match, match_id=room)
    assert saved is not None
    return saved.version


def test_several_rooms_steps_share_one_commit(db_url: str) -> None:
    db = Database(db_url)
    _rooms(db)

    async def scenario() -> None:
        await asyncio.gather(*(db.write(repo.record_step, **_step(r, 1)) for r in ROOMS))

    try:
        run(scenario())
        assert (db.write_commits, db.written_steps) == (1, len(ROOMS))
        for room in ROOMS:
            saved = db.run_sync(repo.open_match, match_id=room)
            assert saved is not None and saved.version == 1
            assert saved.snapshot == {"room": room, "at": 1}
    finally:
        db.close()


def test_a_lone_step_is_written_at_once_and_groups_are_capped(db_url: str) -> None:
    db = Database(db_url, group_max=2)
    _rooms(db)

    async def scenario() -> None:
        await db.write(repo.record_step, **_step("ra", 1))
        assert (db.write_commits, db.written_steps) == (1, 1)
        await asyncio.gather(*(db.write(repo.record_step, **_step(r, 1)) for r in ROOMS[1:]))

    try:
        run(scenario())
        # four waiting steps, at most two per commit
        assert (db.write_commits, db.written_steps) == (3, 5)
        assert [_version(db, r) for r in ROOMS] == [1] * len(ROOMS)
    finally:
        db.close()


def test_a_failing_group_is_written_step_by_step(db_url: str) -> None:
    """One room's step cannot be written (its action row exists already): the group
    fails, each step is written alone, and only that room gets the error."""
    db = Database(db_url)
    _rooms(db)
    db.run_sync(repo.record_step, **_step("rb", 1))

    async def scenario() -> list[Any]:
        steps = [_step("ra", 1), _step("rb", 1), _step("rc", 1)]
        return list(await asyncio.gather(
            *(db.write(repo.record_step, **s) for s in steps), return_exceptions=True))

    try:
        ra, rb, rc = run_for(scenario)
        assert ra is None and rc is None
        assert isinstance(rb, IntegrityError)
        assert (db.write_commits, db.written_steps) == (2, 2), "ra and rc alone"
        assert (_version(db, "ra"), _version(db, "rb"), _version(db, "rc")) == (1, 1, 1)
        log = db.run_sync(repo.action_log, match_id="rb")
        assert [a.action for a in log] == ["play:rb1"], "nothing of the failed step"
    finally:
        db.close()


def run_for(scenario: Any) -> Any:
    out: list[Any] = []

    async def keep() -> None:
        out.append(await scenario())

    run(keep())
    return out[0]


async def _started(service: RoomService) -> str:
    room, host = await service.create(game="schafkopf", options={"dealer": 3}, seed=2)
    for name in ("Anna", "Bert", "Cilli", "Done"):
        await service.join(room.id, name)
    await service.start(room.id, host)
    return room.id


class HeldThread:
    """Keeps the database thread busy until released, so steps queue behind it."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.busy, self.released = threading.Event(), threading.Event()
        self.task: asyncio.Task[None] | None = None

    def _hold(self, _session: Any) -> None:
        self.busy.set()
        assert self.released.wait(10)

    async def hold(self) -> None:
        self.task = asyncio.create_task(self.db.run(self._hold))
        while not self.busy.is_set():
            await asyncio.sleep(0.005)

    async def release(self) -> None:
        self.released.set()
        assert self.task is not None
        await self.task


def test_rooms_show_their_steps_only_after_the_grouped_commit(db_url: str) -> None:
    """While the database thread is busy, two rooms' moves wait; neither shows;
    then both are committed together and both show."""
    db = Database(db_url)
    service = RoomService(db, bot_delay_ms=0)
    held = HeldThread(db)
    async def scenario() -> None:
        first, second = await _started(service), await _started(service)
        rooms = [service.get(first), service.get(second)]
        before = [r.state(1) for r in rooms]
        commits, steps = db.write_commits, db.written_steps
        await held.hold()
        moves = [asyncio.create_task(service.act(r.id, 0, r.state(0)["legal"][0], r.version))
                 for r in rooms]
        await asyncio.sleep(0.05)
        assert not any(m.done() for m in moves)
        assert [r.state(1) for r in rooms] == before, "nothing shows before its commit"
        await held.release()
        await asyncio.gather(*moves)
        assert (db.write_commits - commits, db.written_steps - steps) == (1, 2)
        for room, was in zip(rooms, before, strict=True):
            assert room.state(1)["version"] == was["version"] + 1
            assert len(room.state(1)["view"]["trick"]) == 1
            assert _version(db, room.id) == room.version

    try:
        run(scenario())
    finally:
        held.released.set()
        db.close()


def test_one_room_failing_in_a_group_stops_only_that_room(db_url: str) -> None:
    """The step of one room cannot be written (a foreign row holds its place in the
    log); it stops as before, unchanged, and the other room of the group goes on."""
    db = Database(db_url)
    service = RoomService(db, bot_delay_ms=0)
    held = HeldThread(db)
    async def scenario() -> None:
        good, bad = service.get(await _started(service)), service.get(await _started(service))
        bad_before = bad.state(1)
        db.run_sync(lambda session: session.execute(insert(ActionRow).values(
            match_id=bad.id, seq=bad.version + 1, seat=None, action="foreign", events=[],
            created_at=repo.now())))
        await held.hold()
        moves = [asyncio.create_task(service.act(r.id, 0, r.state(0)["legal"][0], r.version))
                 for r in (good, bad)]
        await asyncio.sleep(0.05)
        await held.release()
        await moves[0]
        with pytest.raises(Illegal) as stopped:
            await moves[1]
        assert stopped.value.message == STOPPED
        assert bad.state(1)["view"] == bad_before["view"] and bad.error == STOPPED
        assert len(good.state(1)["view"]["trick"]) == 1 and good.error is None
        assert _version(db, good.id) == good.version
        assert _version(db, bad.id) == bad_before["version"]

    try:
        run(scenario())
    finally:
        held.released.set()
        db.close()


def test_a_step_given_up_before_the_thread_took_it_is_not_written(db_url: str) -> None:
    """A caller cancelled while its step still waits (its room task ended) leaves
    nothing behind; the others waiting with it are written."""
    db = Database(db_url)
    _rooms(db)
    held = HeldThread(db)

    async def scenario() -> None:
        await held.hold()
        dropped = asyncio.create_task(db.write(repo.record_step, **_step("ra", 1)))
        kept = asyncio.create_task(db.write(repo.record_step, **_step("rb", 1)))
        await asyncio.sleep(0.01)
        dropped.cancel()
        await held.release()
        await kept
        with pytest.raises(asyncio.CancelledError):
            await dropped

    try:
        run(scenario())
        assert (_version(db, "ra"), _version(db, "rb")) == (0, 1)
        assert db.run_sync(repo.action_log, match_id="ra") == []
        assert (db.write_commits, db.written_steps) == (1, 1)
    finally:
        held.released.set()
        db.close()


def test_each_database_thread_keeps_one_connection_for_its_transactions(db_url: str) -> None:
    """Steps (and other calls) on the database thread reuse one connection: no pool
    checkout and no new session for every step (the cost bench/write.py measures)."""
    db = Database(db_url)
    _rooms(db)

    async def scenario() -> None:
        for seq in (1, 2, 3):
            await db.write(repo.record_step, **_step("ra", seq))

    try:
        run(scenario())
        assert len(db._kept) == 2, "the thread of these calls and the database thread"
        assert _version(db, "ra") == 3
        assert db.run_sync(lambda session: session.connection()) is db._kept[0]
    finally:
        db.close()
    assert db._kept == []


def test_a_kept_session_never_answers_from_what_it_loaded_before(db_url: str) -> None:
    """Objects read in one transaction are not kept for the next: a row changed in
    between is read as it is now."""
    db = Database(db_url)
    _rooms(db, ("ra",))

    def status(session: Any) -> str:
        row = session.get(MatchRow, "ra")
        assert row is not None
        return str(row.status)

    def start(session: Any) -> None:
        session.execute(update(MatchRow).where(MatchRow.id == "ra").values(status="playing"))

    try:
        assert db.run_sync(status) == "waiting"
        other = Database(db_url)  # another connection changes the row
        try:
            other.run_sync(start)
        finally:
            other.close()
        assert db.run_sync(status) == "playing"
    finally:
        db.close()


def test_a_failed_transaction_gives_up_its_connection(db_url: str) -> None:
    """After an error the thread's session and connection are dropped (the connection
    may be broken); the next call starts on a fresh one and works."""
    db = Database(db_url)
    _rooms(db, ("ra",))

    def broken(session: Any) -> None:
        session.execute(text("SELECT * FROM no_such_table"))

    try:
        db.run_sync(repo.record_step, **_step("ra", 1))
        first = db._kept[0]
        with pytest.raises(Exception, match="no_such_table"):
            db.run_sync(broken)
        assert first not in db._kept
        db.run_sync(repo.record_step, **_step("ra", 2))
        assert _version(db, "ra") == 2 and len(db._kept) == 1 and db._kept[0] is not first
    finally:
        db.close()


def _pipeline_states(db: Database) -> list[str]:
    """Record, for every statement the database thread's connection runs, whether
    psycopg was in pipeline mode then (an SQLite connection has no such mode)."""
    from sqlalchemy import event

    states: list[str] = []

    @event.listens_for(db.engine, "before_cursor_execute")
    def seen(conn: Any, cursor: Any, statement: str, params: Any, context: Any,
             executemany: bool) -> None:
        pgconn = getattr(conn.connection.driver_connection, "pgconn", None)
        if pgconn is None:
            mode = "none"
        else:
            from psycopg.pq import PipelineStatus

            mode = PipelineStatus(pgconn.pipeline_status).name
        states.append(f"{statement.split()[0]} {mode}{' many' if executemany else ''}")

    return states


def test_a_group_is_one_insert_and_one_update_and_pipelined_on_postgresql(
        db_url: str) -> None:
    """The steps of a group are written by one INSERT and one UPDATE, each run with
    every step's parameters (executemany). On PostgreSQL a step's or a group's
    statements are sent in psycopg's pipeline mode (their answers come back
    together, not one round trip each); a read is not. SQLite has no pipeline."""
    db = Database(db_url)
    _rooms(db)
    states = _pipeline_states(db)

    async def scenario() -> None:
        await db.write(repo.record_step, **_step("ra", 1))
        await asyncio.gather(*(db.write(repo.record_step, **_step(r, 1)) for r in ROOMS[1:]))

    try:
        run(scenario())
        steps = states[:]
        _version(db, "ra")  # a read: never pipelined
        reads = states[len(steps):]
        assert (db.write_commits, db.written_steps) == (2, 5)
        mode = "none" if db_url.startswith("sqlite") else "ON"
        assert steps == [f"INSERT {mode}", f"UPDATE {mode}",  # the lone step
                         f"INSERT {mode} many", f"UPDATE {mode} many"]  # the group of 4
        assert [_version(db, r) for r in ROOMS] == [1] * len(ROOMS)
        log = db.run_sync(repo.action_log, match_id="re")
        assert [(a.seq, a.action) for a in log] == [(1, "play:re1")]
        assert reads and {s.split()[1] for s in reads} == {"none" if mode == "none" else "OFF"}
    finally:
        db.close()


@pytest.mark.postgres
def test_a_pipelined_step_whose_connection_dies_is_retried_on_a_new_one(
        tmp_path: Any) -> None:
    """The database thread's connection is killed by the server between two steps:
    the next step's pipeline fails with a lost connection, which counts as transient
    (raised as SQLAlchemy raises it, not as psycopg's own error), so it is written
    again on a fresh connection and lands, once."""
    from tests.conftest import make_db_url, migrate

    urls = make_db_url("postgresql", tmp_path)
    url = next(urls)
    try:
        migrate(url)
        db = Database(url)
        _rooms(db, ("ra",))
        try:
            db.run_sync(repo.record_step, **_step("ra", 1))
            first = db._kept[0]
            pid = first.connection.driver_connection.info.backend_pid  # type: ignore[union-attr]
            with db.engine.connect() as other:
                other.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": pid})
                other.commit()
            db.run_sync(repo.record_step, **_step("ra", 2))
            assert first not in db._kept and len(db._kept) == 1
            assert _version(db, "ra") == 2
            log = db.run_sync(repo.action_log, match_id="ra")
            assert [a.seq for a in log] == [1, 2]
        finally:
            db.close()
    finally:
        next(urls, None)


def test_steps_written_together_keep_their_order_and_their_own_columns(db_url: str) -> None:
    """One room's start and next step, another's step and end, interleaved in one
    batch: each UPDATE sets its own columns (a start and an end set more) and a
    room's later step wins, as if they had been written one by one."""
    db = Database(db_url)
    _rooms(db, ("ra", "rb"))
    steps = [{**_step("ra", 1), "started": True}, _step("rb", 1), _step("ra", 2),
             {**_step("rb", 2), "finished": ([3, 1, 0, 0], [0])}]
    try:
        assert db.run_sync(repo.record_steps, steps=steps) == [None] * 4
        for room in ("ra", "rb"):
            saved = db.run_sync(repo.open_match, match_id=room)
            assert saved is not None
            assert (saved.version, saved.snapshot) == (2, {"room": room, "at": 2})
        ra, rb = (db.run_sync(repo.get_match, match_id=r) for r in ("ra", "rb"))
        assert ra is not None and rb is not None
        assert (ra.status, ra.finished_at) == ("playing", None) and ra.started_at is not None
        assert (rb.status, rb.started_at) == ("finished", None)
        assert (rb.final_scores, rb.winners) == ([3, 1, 0, 0], [0])
        for room in ("ra", "rb"):
            log = db.run_sync(repo.action_log, match_id=room)
            assert [a.action for a in log] == [f"play:{room}1", f"play:{room}2"]
    finally:
        db.close()


def test_a_committed_group_goes_on_a_few_rooms_per_turn_of_the_loop(db_url: str) -> None:
    """Each room answered goes on to draw and send its table: a whole group answered
    in one turn of the event loop would hold every other table for all of it. The
    rooms of one commit go on RELEASE_PER_TURN per turn, in the order they came."""
    from app.db.session import RELEASE_PER_TURN

    rooms = tuple(f"r{i:02d}" for i in range(3 * RELEASE_PER_TURN + 1))
    db = Database(db_url)
    _rooms(db, rooms)
    turns = 0
    resumed: list[tuple[str, int]] = []

    async def scenario() -> None:
        loop = asyncio.get_running_loop()
        ticking = True

        def tick() -> None:  # counts the turns of the loop
            nonlocal turns
            turns += 1
            if ticking:
                loop.call_soon(tick)

        async def one(room: str) -> None:
            await db.write(repo.record_step, **_step(room, 1))
            resumed.append((room, turns))

        loop.call_soon(tick)
        await asyncio.gather(*(one(r) for r in rooms))
        ticking = False

    try:
        run(scenario())
        assert db.write_commits == 1
        assert [r for r, _ in resumed] == list(rooms)
        per_turn: dict[int, int] = {}
        for _room, turn in resumed:
            per_turn[turn] = per_turn.get(turn, 0) + 1
        assert max(per_turn.values()) == RELEASE_PER_TURN
        assert len(per_turn) == 4  # 13 rooms: 4, 4, 4 and 1, each in a turn of its own
    finally:
        db.close()

"""Engine and session set-up for SQLite (default) and PostgreSQL.

All database work runs on one dedicated thread: the event loop never blocks on
I/O, writes are serialised (SQLite's one-writer rule holds by construction), and
each call is one transaction.

The hot write, one step of a room (:meth:`Database.write`), is grouped: the steps
of any rooms that arrive while the database thread is busy go into the next
transaction together (at most ``group_max``), so one commit carries many rooms'
steps under load and a lone step is written at once. Each caller still gets its
own answer only after the commit that holds its step. If a group fails, each of
its steps is written again alone (with the usual retries), so one room's failure
stays that room's, exactly as without grouping.

A group's steps are written together where the write function has a form for
several calls (:func:`batched`; the steps' ``repo.record_steps``: one INSERT and one
UPDATE for all of them). On PostgreSQL statements that need no answer go out
together in psycopg's pipeline mode (:func:`pipeline`): a step, or a whole group,
then costs one round trip and one more for the commit, instead of one per
statement. Each round trip is a wait on the database thread, and a wait in a busy
process is also a wait for the interpreter's lock.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import lru_cache, partial
from itertools import groupby
from operator import attrgetter
from pathlib import Path
from typing import Any, TypeVar

import orjson
from sqlalchemy import Connection, Engine, create_engine, event, false
from sqlalchemy import exc as sa_exc
from sqlalchemy.engine import make_url
from sqlalchemy.orm import Session, sessionmaker

from app.db import retry
from app.db.models import ActionRow, MatchRow
from app.db.retry import SQLITE_BUSY_TIMEOUT_MS, DatabaseUnavailable, is_transient, retrying

T = TypeVar("T")
log = logging.getLogger("stammtisch.db")

#: the most steps one grouped commit carries (the WRITE_GROUP_MAX setting)
GROUP_MAX = 64
#: how many of a group's steps go on per turn of the event loop once it is committed
#: (see :meth:`Database._release`)
RELEASE_PER_TURN = 4
#: how long a write check (:func:`check_write`: readiness, a room waiting for the
#: database) waits for the write lock before it says the database takes no writes
WRITE_CHECK_S = 1.0


@dataclass(frozen=True)
class _Write:
    """One step waiting for the database thread, and the caller's future."""

    fn: Callable[..., Any]
    kwargs: dict[str, Any]
    future: asyncio.Future[Any]


@dataclass(frozen=True)
class _Outcome:
    ok: bool
    value: Any  # the result, or the exception to raise in the caller


class JSONText(str):
    """A JSON column's value given as JSON text already (a match's snapshot, made by
    ``Match.snapshot_json``): stored as it is instead of being encoded again."""


def _json_serializer(value: Any) -> str:
    """A JSON column's text: orjson (compact, several times faster than the standard
    library, on the writer thread that every room's steps pass through)."""
    if isinstance(value, JSONText):
        return value
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()


def normalize_url(url: str) -> str:
    """Accept the usual ``postgres://`` / ``postgresql://`` forms and pick psycopg 3."""
    if url.startswith("postgres://"):
        url = "postgresql://" + url[len("postgres://"):]
    if url.startswith("postgresql://"):
        url = "postgresql+psycopg://" + url[len("postgresql://"):]
    return url


def make_engine(url: str) -> Engine:
    url = normalize_url(url)
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        if parsed.database and parsed.database != ":memory:":
            Path(parsed.database).parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(url, json_serializer=_json_serializer,
                               connect_args={"check_same_thread": False,
                                             "timeout": SQLITE_BUSY_TIMEOUT_MS / 1000})

        @event.listens_for(engine, "connect")
        def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.execute("PRAGMA synchronous=NORMAL")
            cur.close()

        return engine
    # a database that does not answer must not hang a request for ever
    return create_engine(url, pool_pre_ping=True, json_serializer=_json_serializer,
                         connect_args={"connect_timeout": 10})


def check_write(connection: Connection, timeout_s: float = WRITE_CHECK_S) -> None:
    """Whether the database takes a step's writes now: take the locks a step's
    writes take (an UPDATE of no row of the matches and of the action log), waiting
    at most ``timeout_s`` for them, and roll back. Nothing is written: no row is
    left, no table grows. A read is no such check: SQLite in WAL mode and
    PostgreSQL under most table locks answer reads while every write waits.
    Raises what the database raised (locked, timed out, gone)."""
    ms = max(1, round(timeout_s * 1000))
    sqlite = connection.dialect.name == "sqlite"
    driver: Any = connection.connection.driver_connection
    if sqlite:  # this connection's busy timeout, outside any transaction
        driver.execute(f"PRAGMA busy_timeout = {ms}")
    try:
        with connection.begin() as transaction:
            if not sqlite:  # for this transaction only
                connection.exec_driver_sql(f"SET LOCAL lock_timeout = {ms}")
                connection.exec_driver_sql(f"SET LOCAL statement_timeout = {2 * ms}")
            for column in (MatchRow.__table__.c.version, ActionRow.__table__.c.seq):
                connection.execute(column.table.update().where(false())
                                   .values({column: column}))
            transaction.rollback()
    finally:
        if sqlite:
            with contextlib.suppress(Exception):
                driver.execute(f"PRAGMA busy_timeout = {SQLITE_BUSY_TIMEOUT_MS}")


class Database:
    def __init__(self, url: str, group_max: int = GROUP_MAX) -> None:
        self.url = normalize_url(url)
        self.group_max = max(1, group_max)
        self._queue: list[_Write] = []
        self._writer: asyncio.Task[None] | None = None
        #: commits made by ``write`` and the steps they carried (tests and benches)
        self.write_commits = 0
        self.written_steps = 0
        self.engine = make_engine(self.url)
        self.sessions = sessionmaker(self.engine, expire_on_commit=False)
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="db")
        # pages that only read (history, standings, ledgers) never queue behind writes
        self._readers = ThreadPoolExecutor(max_workers=2, thread_name_prefix="db-read")
        # each thread's own session and connection (_session), closed by close()
        self._local = threading.local()
        self._kept: list[Connection] = []
        self._kept_lock = threading.Lock()
        # when the database thread took the group of steps it writes now (None: idle)
        self._writing_since: float | None = None

    def run_sync(self, fn: Callable[..., T], /, **kwargs: Any) -> T:
        """Run ``fn(session, **kwargs)`` in one transaction, on the calling thread.
        A transient error (app.db.retry) runs the whole transaction again after a
        short pause; if it persists, DatabaseUnavailable is raised."""
        try:
            try:  # the first attempt without the retrying machinery (nearly every call)
                return self._transaction(fn, kwargs)
            except Exception as exc:
                if not is_transient(exc):
                    raise
                retry.hiccup(1, exc)
                time.sleep(retry.pause(1))
            for attempt in retrying(tried=1):
                with attempt:
                    return self._transaction(fn, kwargs)
        except DatabaseUnavailable:
            raise
        except Exception as exc:
            if is_transient(exc):
                raise DatabaseUnavailable(str(exc).splitlines()[0][:200]) from exc
            raise
        raise AssertionError("unreachable")  # pragma: no cover

    def _transaction(self, fn: Callable[..., T], kwargs: dict[str, Any]) -> T:
        """``fn(session, **kwargs)`` in one transaction of this thread's session (see
        :meth:`_session`). After a failure the session and its connection are given
        up (the connection may be broken), so the next transaction starts afresh."""
        session = self._session()
        try:
            with session.begin():
                return fn(session, **kwargs)
        except BaseException:
            self._drop_session()
            raise
        finally:
            # nothing loaded stays in the identity map for a later transaction to
            # find instead of reading the row again
            if self._local.session is session:
                session.close()

    def _session(self) -> Session:
        """This thread's session, on a connection the thread keeps: a transaction
        then costs no pool checkout, no new Session and no reset on return (the
        step of every action passes here; bench/write.py)."""
        session: Session | None = getattr(self._local, "session", None)
        if session is None:
            connection = self.engine.connect()
            session = self.sessions(bind=connection)
            self._local.session, self._local.connection = session, connection
            with self._kept_lock:
                self._kept.append(connection)
        return session

    def _drop_session(self) -> None:
        session: Session | None = getattr(self._local, "session", None)
        connection = getattr(self._local, "connection", None)
        self._local.session = self._local.connection = None
        if session is not None:
            with contextlib.suppress(Exception):
                session.close()
        if connection is not None:
            with self._kept_lock:
                if connection in self._kept:
                    self._kept.remove(connection)
            with contextlib.suppress(Exception):
                connection.close()  # the pool checks a broken one and drops it

    async def run(self, fn: Callable[..., T], /, **kwargs: Any) -> T:
        """Run ``fn(session, **kwargs)`` in one transaction on the database thread."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, partial(self.run_sync, fn, **kwargs))

    async def write(self, fn: Callable[..., T], /, **kwargs: Any) -> T:
        """Like ``run``, for the step of a room: committed together with the steps
        of other rooms that wait for the database thread at the same moment. Returns
        (or raises) only after the commit that holds this step; a failed group is
        written again step by step, so the answer is this step's own."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()
        self._queue.append(_Write(fn, kwargs, future))
        if self._writer is None or self._writer.done() or self._writer.get_loop() is not loop:
            self._writer = loop.create_task(self._write_groups())
        return await future

    async def _write_groups(self) -> None:
        """Hand the waiting steps to the database thread, one group per commit,
        until none wait. Steps that arrive meanwhile form the next group."""
        loop = asyncio.get_running_loop()
        group: list[_Write] = []
        try:
            while self._queue:
                taken, self._queue = self._queue[:self.group_max], self._queue[self.group_max:]
                group = [w for w in taken if not w.future.done()]  # callers gone: skip
                if not group:
                    continue
                outcomes = await loop.run_in_executor(self._executor, self._write_group,
                                                      group)
                self._release(list(zip(group, outcomes, strict=True)))
                group = []
        finally:  # cancelled (shutdown): nobody waits for an answer that cannot come
            for write in [*group, *self._queue]:
                if not write.future.done():
                    write.future.cancel()
            self._queue = []

    def _release(self, done: list[tuple[_Write, _Outcome | None]]) -> None:
        """Answer the callers of a committed group, :data:`RELEASE_PER_TURN` per turn
        of the event loop, while the next group is written. Each caller goes on to show
        its step (its sockets draw and send the table), so a group of 64 answered at
        once would hold the loop for all of them in one turn, and every other table's
        frame, timer and page would wait that long."""
        for write, outcome in done[:RELEASE_PER_TURN]:
            if outcome is None or write.future.done():
                continue
            if outcome.ok:
                write.future.set_result(outcome.value)
            else:
                write.future.set_exception(outcome.value)
        if len(done) > RELEASE_PER_TURN:
            asyncio.get_running_loop().call_soon(self._release, done[RELEASE_PER_TURN:])

    def _write_group(self, group: list[_Write]) -> list[_Outcome | None]:
        """On the database thread: every step of ``group`` in one transaction; if that
        fails for any reason, each step alone (``run_sync``, with its retries). A step
        whose caller gave up before the thread took the group is left out (None), as
        an executor job cancelled before it started never runs."""
        live = [w for w in group if not w.future.cancelled()]
        self._writing_since = time.monotonic()
        try:
            done = dict(zip(map(id, live), self._write_live(live), strict=True))
        finally:
            self._writing_since = None
        return [done.get(id(w)) for w in group]

    def write_held_s(self) -> float:
        """How long the database thread has been writing the group of steps it holds
        now (0: it writes none). A write that waits long while this stays small is
        through, or not yet begun, and waits for the event loop, not the database
        (a busy server)."""
        since = self._writing_since
        return 0.0 if since is None else max(0.0, time.monotonic() - since)

    def _write_live(self, group: list[_Write]) -> list[_Outcome]:
        if len(group) > 1:
            try:
                values = self._transaction(_each, {"group": group})
            except Exception as exc:
                log.info("a group of %d steps failed (%s); writing them one by one",
                         len(group), str(exc).splitlines()[0][:200] if str(exc) else
                         type(exc).__name__)
            else:
                self.write_commits += 1
                self.written_steps += len(group)
                return [_Outcome(True, v) for v in values]
        return [self._write_one(w) for w in group]

    def _write_one(self, write: _Write) -> _Outcome:
        try:
            value = self.run_sync(write.fn, **write.kwargs)
        except Exception as exc:
            return _Outcome(False, exc)
        self.write_commits += 1
        self.written_steps += 1
        return _Outcome(True, value)

    def can_write_now(self, timeout_s: float = WRITE_CHECK_S) -> None:
        """:func:`check_write` on a connection of its own, on the calling thread, once
        (no retries): raises unless a step could be written now."""
        with self.engine.connect() as connection:
            check_write(connection, timeout_s)

    async def check_write(self, timeout_s: float = WRITE_CHECK_S) -> None:
        """:meth:`can_write_now` on the database thread, after the writes already
        waiting for it."""
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(self._executor, self.can_write_now, timeout_s)

    async def read(self, fn: Callable[..., T], /, **kwargs: Any) -> T:
        """Like ``run`` for work that only reads, on a pool of its own."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._readers, partial(self.run_sync, fn, **kwargs))

    def close(self) -> None:
        self._readers.shutdown(wait=True)
        self._executor.shutdown(wait=True)
        with self._kept_lock:
            kept, self._kept = self._kept, []
        for connection in kept:
            with contextlib.suppress(Exception):
                connection.close()
        self.engine.dispose()


@contextlib.contextmanager
def pipeline(session: Session) -> Iterator[None]:
    """The statements run inside are sent without waiting for each one's answer
    (psycopg's pipeline mode, PostgreSQL); the answers all come back at the end. So
    nothing inside may need a result: no SELECT, no INSERT that returns its new key,
    no ORM flush. A statement's error then surfaces at the end, from psycopg itself:
    it is raised as SQLAlchemy would have raised it, so the retries tell a lost
    connection from a refused step as before. Elsewhere (SQLite, or a libpq without
    pipelines) the statements run one by one as usual."""
    conn = session.connection()
    dialect = conn.dialect
    if dialect.driver != "psycopg" or not _pipelines():
        yield
        return
    driver = conn.connection.driver_connection
    try:
        with driver.pipeline():  # type: ignore[union-attr]
            yield
    except sa_exc.DBAPIError:
        raise
    except dialect.loaded_dbapi.Error as exc:
        raise sa_exc.DBAPIError.instance(
            None, None, exc, dialect.loaded_dbapi.Error, dialect=dialect,
            connection_invalidated=dialect.is_disconnect(exc, driver, None)) from exc


@lru_cache(maxsize=1)
def _pipelines() -> bool:
    import psycopg

    return bool(psycopg.Pipeline.is_supported())


Many = Callable[[Session, list[dict[str, Any]]], list[Any]]
#: a write function -> one that does the same for several calls at once (each call's
#: keyword arguments, in order; their results in order), used for a group's run of
#: calls of that function
_BATCHED: dict[Callable[..., Any], Many] = {}


def batched(fn: Callable[..., Any], many: Many) -> None:
    """Register ``many`` as ``fn`` for several calls at once (see ``_each``)."""
    _BATCHED[fn] = many


def _each(session: Session, group: list[_Write]) -> list[Any]:
    """Every step of a group, in the caller's transaction: a run of calls of a
    function with a batched form (:func:`batched`) as one call of that."""
    out: list[Any] = []
    for fn, same in groupby(group, key=attrgetter("fn")):
        run = list(same)
        many = _BATCHED.get(fn)
        if many is not None and len(run) > 1:
            out += many(session, [w.kwargs for w in run])
        else:
            out += [fn(session, **w.kwargs) for w in run]
    return out


__all__ = ["Database", "JSONText", "Session", "batched", "check_write", "make_engine",
           "normalize_url", "pipeline"]

"""Engine and session set-up for SQLite (default) and PostgreSQL.

All database work runs on one dedicated thread: the event loop never blocks on
I/O, writes are serialised (SQLite's one-writer rule holds by construction), and
each call is one transaction.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine import make_url
from sqlalchemy.orm import Session, sessionmaker

from app.db.retry import SQLITE_BUSY_TIMEOUT_MS, DatabaseUnavailable, is_transient, retrying

T = TypeVar("T")


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
        engine = create_engine(url, connect_args={"check_same_thread": False,
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
    return create_engine(url, pool_pre_ping=True, connect_args={"connect_timeout": 10})


class Database:
    def __init__(self, url: str) -> None:
        self.url = normalize_url(url)
        self.engine = make_engine(self.url)
        self.sessions = sessionmaker(self.engine, expire_on_commit=False)
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="db")
        # pages that only read (history, standings, ledgers) never queue behind writes
        self._readers = ThreadPoolExecutor(max_workers=2, thread_name_prefix="db-read")

    def run_sync(self, fn: Callable[..., T], /, **kwargs: Any) -> T:
        """Run ``fn(session, **kwargs)`` in one transaction, on the calling thread.
        A transient error (app.db.retry) runs the whole transaction again after a
        short pause; if it persists, DatabaseUnavailable is raised."""
        try:
            for attempt in retrying():
                with attempt, self.sessions.begin() as session:
                    return fn(session, **kwargs)
        except DatabaseUnavailable:
            raise
        except Exception as exc:
            if is_transient(exc):
                raise DatabaseUnavailable(str(exc).splitlines()[0][:200]) from exc
            raise
        raise AssertionError("unreachable")  # pragma: no cover

    async def run(self, fn: Callable[..., T], /, **kwargs: Any) -> T:
        """Run ``fn(session, **kwargs)`` in one transaction on the database thread."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, partial(self.run_sync, fn, **kwargs))

    async def read(self, fn: Callable[..., T], /, **kwargs: Any) -> T:
        """Like ``run`` for work that only reads, on a pool of its own."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._readers, partial(self.run_sync, fn, **kwargs))

    def close(self) -> None:
        self._readers.shutdown(wait=True)
        self._executor.shutdown(wait=True)
        self.engine.dispose()


__all__ = ["Database", "Session", "make_engine", "normalize_url"]

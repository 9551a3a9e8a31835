"""Another program holds the database's write lock (issue 25 item 7): reads go on,
every write waits."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy import create_engine
from sqlalchemy.engine import make_url

# kind -> (SQLite's transaction, PostgreSQL's lock on the matches table)
LOCKS = {
    # writes wait, reads go on (SQLite in WAL mode reads under either)
    "write": ("BEGIN IMMEDIATE", "LOCK TABLE matches IN EXCLUSIVE MODE"),
    # PostgreSQL: reads of the table wait too
    "exclusive": ("BEGIN EXCLUSIVE", "LOCK TABLE matches IN ACCESS EXCLUSIVE MODE"),
}


@contextmanager
def write_lock(url: str, kind: str = "write") -> Iterator[None]:
    """Hold the lock of ``kind`` (:data:`LOCKS`) on the database at ``url`` from a
    connection of its own until the block ends."""
    sqlite_begin, pg_lock = LOCKS[kind]
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        other = sqlite3.connect(str(parsed.database), timeout=0, isolation_level=None)
        other.execute(sqlite_begin)
        try:
            yield
        finally:
            other.execute("ROLLBACK")
            other.close()
        return
    engine = create_engine(url.replace("postgresql://", "postgresql+psycopg://", 1))
    try:
        with engine.connect() as conn:
            conn.exec_driver_sql(pg_lock)  # held until the transaction ends
            try:
                yield
            finally:
                conn.rollback()
    finally:
        engine.dispose()

"""Transient database errors, retried with backoff.

A transient error is one that the same transaction may not meet again a moment
later: SQLite busy or locked (another process holds the lock longer than the busy
timeout), PostgreSQL serialization failures and deadlocks, a lost or refused
connection, the server shutting down or not accepting connections yet, an
exhausted connection pool. Every call of :meth:`app.db.Database.run` is one whole
transaction, so running it again is safe. Retries use ``tenacity`` (exponential
backoff with jitter, a few attempts): a short hiccup is invisible; a longer one
ends in :class:`DatabaseUnavailable`, which the rooms answer by waiting (a notice
on the table) and resuming from the last saved step once the database answers.
"""

from __future__ import annotations

import logging
from types import SimpleNamespace
from typing import Any

from sqlalchemy import exc as sa_exc
from tenacity import (
    RetryCallState,
    Retrying,
    retry_if_exception,
    stop_after_attempt,
    wait_exponential_jitter,
)

log = logging.getLogger("stammtisch.db")

ATTEMPTS = 3  # with the busy timeout below, at most about 11 s before giving up
FIRST_WAIT_S, MAX_WAIT_S = 0.1, 1.0
SQLITE_BUSY_TIMEOUT_MS = 5000

# sqlite3 primary result codes: SQLITE_BUSY, SQLITE_LOCKED, SQLITE_PROTOCOL
SQLITE_TRANSIENT = {5, 6, 15}
SQLITE_TRANSIENT_TEXT = ("database is locked", "database table is locked",
                         "database is busy")
# PostgreSQL SQLSTATE: classes 08 (connection), 40001/40P01 (serialization,
# deadlock), 53300 (too many connections), 57P01-57P03 (shutting down, starting)
PG_TRANSIENT = {"40001", "40P01", "53300", "57P01", "57P02", "57P03"}


class DatabaseUnavailable(Exception):
    """The database kept failing with transient errors; try again later."""


def is_transient(error: BaseException) -> bool:
    if isinstance(error, DatabaseUnavailable | sa_exc.TimeoutError | sa_exc.DisconnectionError):
        return True
    if isinstance(error, sa_exc.DBAPIError):
        if error.connection_invalidated:
            return True
        orig: Any = error.orig
        code = getattr(orig, "sqlite_errorcode", None)
        if code is not None:
            return (code & 0xFF) in SQLITE_TRANSIENT
        state = getattr(orig, "sqlstate", None) or getattr(orig, "pgcode", None)
        if state:
            return state in PG_TRANSIENT or state.startswith("08")
        if isinstance(error, sa_exc.OperationalError):
            text = str(orig).lower()
            # psycopg raises OperationalError without SQLSTATE when it cannot connect
            return (any(t in text for t in SQLITE_TRANSIENT_TEXT)
                    or "psycopg" in type(orig).__module__)
    return False


def hiccup(attempt: int, error: BaseException | None) -> None:
    """Log a transient error that is retried after attempt ``attempt``."""
    log.warning("database hiccup (attempt %d of %d), retrying: %s", attempt, ATTEMPTS,
                str(error).splitlines()[0][:200] if error else "")


def pause(attempt: int) -> float:
    """Seconds to wait after failed attempt ``attempt`` (1, 2, ...): exponential
    from ``FIRST_WAIT_S`` with jitter, at most ``MAX_WAIT_S``."""
    wait = wait_exponential_jitter(multiplier=FIRST_WAIT_S, max=MAX_WAIT_S)
    return float(wait(SimpleNamespace(attempt_number=attempt)))  # type: ignore[arg-type]


def retrying(attempts: int = ATTEMPTS, tried: int = 0) -> Retrying:
    """The attempts left of ``attempts`` when ``tried`` were made already (counted on
    in the log and in the backoff)."""
    def before_sleep(state: RetryCallState) -> None:
        hiccup(state.attempt_number + tried,
               state.outcome.exception() if state.outcome else None)

    return Retrying(retry=retry_if_exception(is_transient),
                    stop=stop_after_attempt(attempts - tried),
                    wait=lambda state: pause(state.attempt_number + tried),
                    before_sleep=before_sleep, reraise=True)

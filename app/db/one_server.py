"""One server process per SQLite file.

Every open room lives in the memory of the process that serves it, so two processes
on one SQLite file (``uvicorn --workers 2``, a second ``make run``) would each restore
and play the same rooms, and each close the other's as idle. The process that serves
holds an exclusive lock (``flock``) on ``<database file>.lock`` for as long as it
runs; the system lets go of it when the process ends, however it ends (``kill -9``
too). A second process finds it held and refuses to start with one line
(:data:`REFUSAL`). PostgreSQL is for several processes; SQLite in memory is one
process's own. The same process may open its file again (tests build many apps).
"""

from __future__ import annotations

import contextlib
import fcntl
import os

from sqlalchemy.engine import make_url

from app.db.session import normalize_url

REFUSAL = ("another server process already serves {path}; SQLite takes "
           "one process (for several, use PostgreSQL: DATABASE_URL=postgresql://...)")

# lock file -> [its open descriptor, how many apps of this process serve it]
EXIT_CODE = 3  # as uvicorn's own for an app that failed to start

_held: dict[str, list[int]] = {}


class AlreadyServed(RuntimeError):
    """Another process holds the SQLite file's lock."""


def lock_path(url: str) -> str | None:
    """The lock file of a SQLite database file; None for any other database."""
    parsed = make_url(normalize_url(url))
    if parsed.get_backend_name() != "sqlite":
        return None
    if not parsed.database or parsed.database == ":memory:" or parsed.database.startswith(
            "file:"):
        return None
    return os.path.realpath(parsed.database) + ".lock"


def claim(url: str) -> None:
    """Serve the database at ``url`` alone, or raise :class:`AlreadyServed` (its text is
    the line to print)."""
    path = lock_path(url)
    if path is None:
        return
    if path in _held:
        _held[path][1] += 1
        return
    os.makedirs(os.path.dirname(path), exist_ok=True)
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        raise AlreadyServed(REFUSAL.format(path=path.removesuffix(".lock"))) from None
    _held[path] = [fd, 1]


def release(url: str) -> None:
    """The app serving ``url`` stopped: once no app of this process serves it, the
    lock goes (a process started next may serve it)."""
    path = lock_path(url)
    if path is None or path not in _held:
        return
    held = _held[path]
    held[1] -= 1
    if held[1] == 0:
        del _held[path]
        with contextlib.suppress(OSError):
            os.close(held[0])

"""What the players and /readyz see while another program holds the database's
write lock.

Issue 25 item 7: during a 35 s lock ``/readyz`` said ready (reads work), a move hung
34 s with no notice on any seat, and the "Reconnecting…" notice went while writes
were still blocked. This starts the app as ``make run`` serves it (through
``tests.conftest.Server``'s uvicorn flags) on a fresh SQLite database, or with
``--database-url`` on a fresh schema of that PostgreSQL database, opens a started
Schafkopf table of four people, each seat a real table socket, and then:

* takes the lock from a connection of its own (SQLite ``BEGIN IMMEDIATE``,
  PostgreSQL ``LOCK TABLE matches IN ACCESS EXCLUSIVE MODE``; ``--lock-kind write``:
  ``BEGIN IMMEDIATE`` / ``IN EXCLUSIVE MODE``, see ``tests/locks.py``),
* sends the move of the seat whose turn it is over its socket,
* asks ``/readyz`` every second,
* lets the lock go after ``--seconds`` (35, as in the issue),

and prints when each seat's page showed the notice (seconds after the move was
sent), what the mover was told, when the notice had gone from every page after the
lock ended and whether the move was on the table then, and ``/readyz``'s answers
during the lock. ``--app-dir DIR`` serves the app from another checkout (``git
archive <commit> | tar -x -C DIR``, its ``static/vendor`` copied in) to measure the
code before a change on the same machine.

Usage: python bench/db_lock.py [--seconds S] [--lock-kind exclusive|write]
       [--database-url postgresql://...] [--app-dir DIR]
Only 127.0.0.1 (and the given database) is contacted.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import httpx  # noqa: E402

import tests.conftest as fixtures  # noqa: E402
from tests.locks import write_lock  # noqa: E402
from tests.web.frames import (  # noqa: E402
    TableSocket,
    frame_flash,
    open_socket,
)
from tests.web.test_database_lock import NOTICE, _table  # noqa: E402

NOT_KEPT = "your move was not kept"


@dataclass
class Seat:
    """What one seat's socket received: (seconds after the move, notice shown,
    table version, flash)."""

    ws: TableSocket
    seen: list[tuple[float, bool, int | None, str | None]] = field(default_factory=list)


def version_of(frame: str) -> int | None:
    marker = 'data-version="'
    at = frame.find(marker)
    return int(frame[at + len(marker):frame.index('"', at + len(marker))]) if at >= 0 else None


def read(seat: Seat, t0: list[float], stop: threading.Event) -> None:
    while not stop.is_set():
        try:
            frame = seat.ws.recv(timeout=0.2)
        except TimeoutError:
            continue
        except Exception:  # the socket closed
            return
        at = time.monotonic() - t0[0] if t0 else -1.0
        seat.seen.append((at, NOTICE in frame, version_of(frame), frame_flash(frame)))


def spans(seen: list[tuple[float, bool, int | None, str | None]]) -> str:
    """When the notice was on the page: "from–to" for each time it was shown."""
    out, since = [], None
    for at, shown, _v, _f in seen:
        if shown and since is None:
            since = at
        elif not shown and since is not None:
            out.append(f"{since:.1f}–{at:.1f}")
            since = None
    if since is not None:
        out.append(f"{since:.1f}–")
    return ", ".join(out) or "never"


def ask_ready(base: str, t0: list[float], stop: threading.Event,
              out: list[tuple[float, int, float]]) -> None:
    with httpx.Client(base_url=base, timeout=15) as http:
        while not stop.is_set():
            started = time.monotonic()
            try:
                status = http.get("/readyz").status_code
            except httpx.HTTPError:
                status = 0
            out.append((started - t0[0], status, time.monotonic() - started))
            stop.wait(max(0.0, 1.0 - (time.monotonic() - started)))


def run(srv: fixtures.Server, seconds: float, kind: str) -> None:
    http = httpx.Client(base_url=srv.base, timeout=60)
    room, tokens = _table(http)
    seats = [Seat(open_socket(srv.ws_base, room, t)) for t in tokens]
    for s in seats:
        s.ws.recv(timeout=10)
    views = [http.get(f"/api/rooms/{room}/view",
                      headers={"Authorization": f"Bearer {t}"}).json() for t in tokens]
    mover = next(i for i, v in enumerate(views) if v["legal"])
    version = views[mover]["version"]
    t0: list[float] = []
    stop = threading.Event()
    readers = [threading.Thread(target=read, args=(s, t0, stop), daemon=True) for s in seats]
    ready: list[tuple[float, int, float]] = []
    for r in readers:
        r.start()
    with write_lock(srv.db_url, kind):
        t0.append(time.monotonic())
        asker = threading.Thread(target=ask_ready, args=(srv.base, t0, stop, ready),
                                 daemon=True)
        asker.start()
        seats[mover].ws.send(json.dumps({"action": views[mover]["legal"][0],
                                         "version": version}))
        time.sleep(seconds)
        released = time.monotonic() - t0[0]
        stop.set()
        asker.join()
    stop.clear()
    readers = [threading.Thread(target=read, args=(s, t0, stop), daemon=True) for s in seats]
    for r in readers:
        r.start()
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        last = [s.seen[-1] if s.seen else None for s in seats]
        if all(x is not None and not x[1] and x[0] > released for x in last):
            break
        time.sleep(0.1)
    time.sleep(0.5)
    stop.set()
    for r in readers:
        r.join()
    print(f"lock ({kind}) held from the move to {released:.1f} s")
    for i, s in enumerate(seats):
        final = s.seen[-1][2] if s.seen else None
        told = [f for _t, _s, _v, f in s.seen if f]
        role = "mover" if i == mover else "seat "
        print(f"  {role} {i}: notice shown {spans(s.seen)} (s after the move); table "
              f"version {final} (was {version})"
              + (f"; told: {told[-1][:50]!r}…" if told else ""))
    statuses = Counter(status for _t, status, _took in ready)
    took = [t for _s, _st, t in ready]
    print(f"  /readyz during the lock: {dict(statuses)} (status: answers), each took "
          f"{min(took):.2f}-{max(took):.2f} s" if took else "  /readyz: not asked")
    for s in seats:
        s.ws.close()
    http.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=35.0)
    ap.add_argument("--lock-kind", choices=("exclusive", "write"), default="exclusive")
    ap.add_argument("--database-url", default="")
    ap.add_argument("--app-dir", type=Path, default=ROOT)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        if args.database_url:
            fixtures.PG_URL = args.database_url
            made = fixtures.make_db_url("postgresql", Path(tmp))
        else:
            made = fixtures.make_db_url("sqlite", Path(tmp))
        url = next(made)
        try:
            fixtures.migrate(url)
            srv = fixtures.Server(url, Path(tmp) / "server.log")
            srv.cwd = args.app_dir.resolve()
            srv.start()
            try:
                print(f"app from {srv.cwd}, database {url.split('?')[0].split('@')[-1]}")
                run(srv, args.seconds, args.lock_kind)
            finally:
                srv.stop()
        finally:
            for _ in made:
                pass


if __name__ == "__main__":
    main()

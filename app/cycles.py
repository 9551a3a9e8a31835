"""Python's collector of reference cycles, run the way a server of many live tables
needs it.

The tables make no cycles while they play (a push makes none:
``tests/web/test_push_diffs.py``; a server playing 300 tables for 40 s had not one
unreachable object in any pass, logged every 5 s), so every pass of the collector
during play is pure cost, and its cost is a pause of the event loop as long as the
pass: every table waits for it. What cycles there are come from connections: the
HTTP protocol of a socket's handshake (uvicorn's protocol and its parser, about 25
objects) and a closed HTTP connection that was kept open (12 objects, about 1 KiB).

CPython's own schedule (3.11) starts a pass of the youngest objects when 700 more
objects were made than freed, a pass of the older ones every tenth time, and a full
pass now and then. On a busy server that goes wrong: a pass of the youngest goes
over every object made since the last pass that is still alive, and the tables keep
many for a while (a match until the next move, the parts of fragments for a few
moments). Measured at 1,000 paced tables (``bench/load.py``): passes every 0.5 s took
about 15 ms each, passes every 5 s 125–170 ms each; each stalls every table. Without
young passes the p99 from an action to all four seats went from 40–45 ms to 22–29 ms
(three runs each, alternating, 2026-12-03), and the server's CPU per action from
1.65 to 1.53 ms (with the database thread's session kept, ``app.db.session``). The
older passes went over everything that outlived a young pass: 190–470 ms at 400
tables, every 10–20 s.

So while the app serves (:func:`serving`):

* what exists after start-up (modules, compiled templates, restored rooms) is
  frozen out of every pass;
* CPython starts no pass by itself (:data:`YOUNG_THRESHOLD` 0). Without young
  passes nothing moves out of the young objects, so a pass started by a count (a
  high one as a "safety valve", say) would go over everything made since the last
  full pass: tried with a million, it went off after about a minute of play at
  1,000 tables and stalled every table for 350–400 ms;
* one full pass every :data:`FULL_EVERY_S` (:func:`run`) frees the cycles the
  connections left: about 5 KiB a socket opened (20 MiB for 4,000 sockets
  connecting at once: a 40-s run of 1,000 tables shows 246 KiB of RSS per table
  instead of 233 until that pass), far less for the pages and reconnects of ten
  minutes of ordinary play. A full pass takes about 1 s at 1,000 played tables (in-process,
  816,000 objects), once in ten minutes.

Afterwards (the app's shutdown, a test's app) CPython's schedule is put back.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import time
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager

log = logging.getLogger("stammtisch.cycles")

YOUNG_THRESHOLD = 0  # new objects that start a young pass; 0: none is started
FULL_EVERY_S = 600.0  # one full pass this often
NEVER = 1_000_000_000  # a threshold no count reaches


@contextmanager
def serving() -> Iterator[None]:
    """The collector tuned for serving (see the module), CPython's own afterwards."""
    before = gc.get_threshold()
    gc.collect()
    gc.freeze()
    gc.set_threshold(YOUNG_THRESHOLD, NEVER, NEVER)
    try:
        yield
    finally:
        gc.set_threshold(*before)
        gc.unfreeze()


async def run(sleep: Callable[[float], Awaitable[object]] = asyncio.sleep,
              full_every: float = FULL_EVERY_S) -> None:
    """Pass over all objects every ``full_every`` seconds, until cancelled."""
    while True:
        await sleep(full_every)
        started = time.perf_counter()
        freed = gc.collect()
        log.info("full cycle pass: %.0f ms, %d objects freed",
                 (time.perf_counter() - started) * 1000, freed)

"""Python's collector of reference cycles, run the way a server of many live tables
needs it.

The tables make next to no cycles while they play (a push makes none:
``tests/web/test_push_diffs.py``; the few there are come from closed HTTP
connections), so every pass of the collector is almost pure cost, and its cost is
a pause of the event loop as long as the pass: every table waits for it. CPython's
own schedule (3.11) starts a pass of the youngest objects when 700 more objects
were made than freed, a pass of the older ones every tenth time, and a full pass
over every live object now and then. On a busy server that goes wrong twice:

* the objects a table keeps for a while (the parts of its fragments it reuses) are
  made and freed at the same pace, so "made minus freed" hardly grows while the
  young objects pile up: a pass of the youngest came every few seconds and took
  up to 270 ms at 1,000 paced tables (``bench/load.py``, logged per pass);
* the older passes go over everything that outlived a young pass: 190–470 ms at
  400 tables, every 10–20 s, the longest waits the tables saw.

So while the app serves (:func:`serving`):

* what exists after start-up (modules, compiled templates, restored rooms) is
  frozen out of every pass;
* a pass of the youngest objects starts after :data:`YOUNG_THRESHOLD` new objects
  and at the latest every :data:`YOUNG_EVERY_S` (:func:`run`), so it stays short
  (a few milliseconds): a cycle made and dropped while it is young is freed there;
* the older generations are never passed over on CPython's schedule; instead one
  full pass every :data:`FULL_EVERY_S` frees whatever cycles outlived their young
  pass. Those are few: a closed HTTP connection that was kept open leaves 12
  objects, about 1 KiB (ten such connections a second, far more than a table's
  pages ask for, leave about 6 MiB for the next full pass); a full pass takes about
  1 s at 1,000 played tables (in-process, 816,000 objects), once in ten minutes.

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

YOUNG_THRESHOLD = 2_000  # new objects (made minus freed) that start a young pass
YOUNG_EVERY_S = 0.5  # a young pass at least this often
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
              young_every: float = YOUNG_EVERY_S, full_every: float = FULL_EVERY_S) -> None:
    """Pass over the young objects every ``young_every`` seconds and over all of them
    every ``full_every``, until cancelled."""
    since_full = 0.0
    while True:
        await sleep(young_every)
        since_full += young_every
        if since_full >= full_every:
            since_full = 0.0
            started = time.perf_counter()
            freed = gc.collect()
            log.debug("full cycle pass: %.0f ms, %d objects freed",
                      (time.perf_counter() - started) * 1000, freed)
        else:
            gc.collect(0)

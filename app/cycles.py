"""Python's collector of reference cycles, run the way a server of many live tables
needs it.

A pass of the collector stops the event loop for as long as it takes, and every
table waits for it; a pass over everything alive takes about a second at 1,000
played tables (816,000 objects). So the server makes no reference cycles, and the
collector is kept from passing while anybody is at the server:

* The server makes no cycles while it serves: not while tables play (a push makes
  none: ``tests/web/test_push_diffs.py``), and not on any request, page, socket or
  bad input ``tests/test_cycles.py`` sends a live server (it fails on any object
  left in a cycle). What made them before: FastAPI's refusal of a body that is not
  JSON (86 objects, about 13 KB, a request, also without a token; now refused
  before FastAPI by :class:`app.web.limits.BodyLimit`), the handshake of every table
  socket over httptools (uvicorn's protocol and parser, about 5 KiB; serve.sh runs
  h11, whose handshake leaves none), and a query with ``IN`` on every chat read
  (SQLAlchemy's expanding parameter, 10 objects).
* What exists after start-up (modules, compiled templates, restored rooms) is
  frozen out of every pass (:func:`serving`), and CPython starts no pass by itself
  (:data:`YOUNG_THRESHOLD` 0).
* The one pass left (:func:`run`) goes over everything, and only while nobody is at
  the server: no table socket open and no HTTP request in progress, at two checks
  in a row :data:`CHECK_EVERY_S` apart, at most every :data:`PASS_EVERY_S`. It frees
  whatever cycles something unforeseen made, and its pause delays nobody.
* One kind of cycle is known and cannot be avoided through public API: a table
  socket that uvicorn closes for a frame the WebSocket protocol refuses (not
  masked, an unknown opcode, past ``--ws-max-size``) leaves the parser's error in a
  cycle with the connection (websockets' ``parser_exc``: 73 objects, about 10 KB).
  The socket handler notes each (:func:`owe`); once :data:`OWED_MAX` objects are
  owed, the pass comes at the next check even while people play (a warning says
  so): memory stays bounded, and only a client that made some 2,500 such sockets
  can cause that pause.

What was tried (2026-12-04, 300 paced tables, a busy 2-core machine): a pass every
0.5 s over what was made since the previous one, frozen after it, cost 6-8 % of the
event loop's CPU (13 ms a pass on average); a pass every 10 s over what was made
since the previous one still went over every table's current state, which each
table renews with every move (73,000-138,000 objects, 175-890 ms). Before this, the
young passes of CPython's schedule stalled every table for about 15 ms every half
second at 1,000 tables, its older passes for 125-170 ms every 5 s, and a full pass
every ten minutes for about a second (2,559 ms after 40,000 bad requests).

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
NEVER = 1_000_000_000  # a threshold no count reaches
CHECK_EVERY_S = 30.0  # how often the server looks whether it is idle
PASS_EVERY_S = 600.0  # at most one pass this often
OWED_MAX = 200_000  # objects known to wait in cycles that make a pass due while busy
_owed = 0  # objects noted by owe() since the last pass


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


def owe(objects: int) -> None:
    """Note ``objects`` left in reference cycles that only a pass frees."""
    global _owed
    _owed += objects


async def run(idle: Callable[[], bool],
              sleep: Callable[[float], Awaitable[object]] = asyncio.sleep,
              check_every: float = CHECK_EVERY_S,
              pass_every: float = PASS_EVERY_S) -> None:
    """Until cancelled: every ``check_every`` seconds ask ``idle()`` (nobody at the
    server); idle at two checks in a row and ``pass_every`` since the last pass (or
    the start), or :data:`OWED_MAX` objects owed, pass over everything."""
    global _owed
    waited = 0.0
    was_idle = False
    while True:
        await sleep(check_every)
        waited += check_every
        now_idle = idle()
        owed = _owed >= OWED_MAX
        if not (owed or now_idle and was_idle and waited >= pass_every):
            was_idle = now_idle
            continue
        started = time.perf_counter()
        freed = gc.collect()
        took = (time.perf_counter() - started) * 1000
        if now_idle:
            log.info("cycle pass while idle: %.0f ms, %d objects freed", took, freed)
        else:
            log.warning("cycle pass for %d objects that sockets ended by protocol errors "
                        "left: %.0f ms, %d objects freed", _owed, took, freed)
        waited = 0.0
        was_idle = False
        _owed = 0

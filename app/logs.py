"""The server's logging: ``LOG_LEVEL`` for the server's own lines, and the lines a
client can make uvicorn write kept few and short.

* ``LOG_LEVEL`` sets the level of the server's own loggers (``stammtisch.*``); other
  libraries log from INFO up at most (at ``debug`` markdown-it alone wrote 4,600
  lines for the rules pages).
* :class:`ClientFaults`: uvicorn logs a line for every request that is not HTTP and
  every WebSocket frame that is not UTF-8 (the second an ERROR with a traceback):
  lines any client can make by the thousand. They are kept to one a
  :data:`FAULT_LINE_EVERY_S` that counts the others, as warnings without traceback.
  And h11 keeps the error it raised for such a request in a reference cycle with
  the connection (34-50 objects, 6 KB a request, until a pass of the cycle
  collector: app/cycles.py); the line is written while uvicorn handles that error,
  so the filter lets go of the frames the error went through
  (``traceback.clear_frames``), which ends the cycle.
"""

from __future__ import annotations

import logging
import sys
import time
import traceback

FAULT_LINE_EVERY_S = 10.0
# what uvicorn says when a client sends something that is not HTTP or not a UTF-8 frame
CLIENT_FAULTS = ("Invalid HTTP request received.",
                 "Invalid UTF-8 sequence received from client.")


def configure(level_name: str) -> None:
    level = logging.getLevelName(level_name.upper())
    logging.basicConfig(level=max(level, logging.INFO),
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger("stammtisch").setLevel(level)
    uvicorn = logging.getLogger("uvicorn.error")
    if not any(isinstance(f, ClientFaults) for f in uvicorn.filters):
        uvicorn.addFilter(ClientFaults())
    if uvicorn.getEffectiveLevel() > logging.WARNING:  # the filter must see those lines
        uvicorn.setLevel(logging.WARNING)


class ClientFaults(logging.Filter):
    """uvicorn's lines about a client's malformed request or frame: the handled
    error's frames let go, one line every :data:`FAULT_LINE_EVERY_S`, no traceback."""

    def __init__(self, clock: object = time.monotonic) -> None:
        super().__init__()
        self.clock = clock
        self.last = -FAULT_LINE_EVERY_S
        self.unsaid = 0

    def filter(self, record: logging.LogRecord) -> bool:
        if record.msg not in CLIENT_FAULTS:
            return True
        error = sys.exc_info()[1]
        if error is not None:  # the error uvicorn is handling now (h11 keeps it in a cycle)
            traceback.clear_frames(error.__traceback__)
        record.exc_info = record.exc_text = None
        now = self.clock()  # type: ignore[operator]
        if now - self.last < FAULT_LINE_EVERY_S:
            self.unsaid += 1
            return False
        if self.unsaid:
            record.msg = f"{record.msg} ({self.unsaid} more since the last such line)"
        record.levelno, record.levelname = logging.WARNING, "WARNING"
        self.last, self.unsaid = now, 0
        return True

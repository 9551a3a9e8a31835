"""Hints on a practice table (issue 28): a seated person asks what the strong bot
would do in their seat now.

At a table whose option ``hints`` is on, a person who must act or may act now asks
for the version of the table they see. The strong bot thinks about it in the bot
pool (:meth:`app.bots.pool.BotPool.hint`: in a bot's worker, since a person waits;
reviews wait behind it), from the seat's view, its legal actions and the seat's
memory of the deal, which the pool keeps for every person's seat; the answer goes
to that person alone and changes nothing of the match. A hint for a version that is
no longer current is not shown.

A hint is worked out once per seat and version: asked again (another tab, another
language) while the table has not moved, the same answer is shown at once.

A hint shown is remembered (``Room.hints_used``, ``Room.hint_pending``): the
person's next move carries the public note ``{"type": "hint", "seat": s}`` in the
action log (:mod:`app.rooms.pipeline`), durable with the step, and the deal's result
lists the seats shown a hint (``"hints"``), which the replay and the history mark.
After a restart (or a step whose answer was lost) the deal's seats come back from
those notes (:func:`rebuild`).

The search's randomness comes from the room, the version and the seat, never from
a card the seat does not see.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from app.bots.pool import BotPool
from app.db import Database, repo
from app.games import N_
from app.rooms.errors import BadRequest, Conflict, Forbidden, Illegal, Stale, Unavailable
from app.rooms.room import HINT_NOTE, Room

log = logging.getLogger("stammtisch.rooms")

HINTS_OFF = N_("Hints are off at this table.")
WATCHING = N_("You are watching; take a seat to play.")
NOTHING_TO_DECIDE = N_("There is nothing for you to decide now, so there is no hint.")
HINT_STALE = N_("The table changed before you asked; here is the current table.")
HINT_BUSY = N_("Your hint is being worked out already.")
NO_HINTS = N_("This server gives no hints.")
MOVED_ON = N_("The table moved on before your hint was ready; ask again if you like.")
HINT_FAILED = N_("The hint could not be worked out; please try again.")
BAD_VERSION = N_("A hint needs the version of the table it is for.")


@dataclass(frozen=True)
class Hint:
    """The strong bot's choice for ``seat`` at ``version`` (see :func:`app.bots.hint.hint`):
    ``options`` best first (empty when it answered without searching, ``why``)."""

    game: str
    seat: int
    version: int
    action: str
    searched: bool
    why: str
    samples: int
    options: list[dict[str, Any]]


def hint_seed(room_id: str, version: int, seat: int) -> int:
    """The hint's seed: from the room, the version and the seat only."""
    digest = hashlib.sha256(f"hint:{room_id}:{version}:{seat}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 2


# the answers kept for asking again ((room, seat, version) → Hint, the latest kept)
KEPT_ANSWERS = 256


class Hints:
    def __init__(self, pool: BotPool | None) -> None:
        self.pool = pool
        self._asking: set[tuple[str, int]] = set()  # (room, seat): a hint in the works
        self._answers: OrderedDict[tuple[str, int, int], Hint] = OrderedDict()

    def check(self, room: Room, seat: int | None, version: Any) -> tuple[int, int]:
        """``(seat, version)`` when the person at ``seat`` may have a hint for
        ``version`` now; refused with the reason otherwise (nothing changes)."""
        if not room.table.get("hints"):
            raise Forbidden(HINTS_OFF)
        if seat is None:
            raise Forbidden(WATCHING)
        if isinstance(version, bool) or not isinstance(version, int):
            raise BadRequest(BAD_VERSION)
        match = room.match
        player = room.seats[seat]
        if (match is None or match.is_over or room.error or player is None
                or player.is_bot):
            raise Illegal(NOTHING_TO_DECIDE)
        if version != room.version:
            raise Stale(HINT_STALE)
        if not match.legal_actions(seat):
            raise Illegal(NOTHING_TO_DECIDE)
        if (room.id, seat) in self._asking:
            raise Conflict(HINT_BUSY)
        if self.pool is None:
            raise Unavailable(NO_HINTS)
        return seat, version

    def asking(self, room: Room, seat: int) -> bool:
        return (room.id, seat) in self._asking

    async def ask(self, room: Room, seat: int | None, version: Any,
                  holder: str | None = None) -> Hint:
        """The hint for the person at ``seat`` (holding the token hashed ``holder``)
        at ``version``: checked (:meth:`check`), thought out in the pool, and shown
        only while the table is still at ``version`` and the seat still theirs."""
        seat, version = self.check(room, seat, version)
        assert self.pool is not None and room.match is not None
        match = room.match
        kept = self._answers.get((room.id, seat, version))
        if kept is not None:
            self._shown(room, seat)
            return kept
        view, legal = room.view_and_legal(seat, shared=True)
        key = (room.id, seat)
        self._asking.add(key)
        try:
            found = await self.pool.hint(room.game, view, legal, memory=key,
                                         seed=hint_seed(room.id, version, seat),
                                         optional=not match.must_act(seat))
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("a hint failed game=%s", room.game)
            raise Unavailable(HINT_FAILED) from None
        finally:
            self._asking.discard(key)
        if room.version != version or (holder is not None
                                        and room.seat_held_by(holder) != seat):
            raise Stale(MOVED_ON)
        self._shown(room, seat)
        log.info("hint shown game=%s searched=%s", room.game, found["searched"])
        answer = Hint(room.game, seat, version, str(found["action"]), bool(found["searched"]),
                      str(found.get("why", "")), int(found.get("samples", 0)),
                      list(found["options"]))
        self._answers[(room.id, seat, version)] = answer
        while len(self._answers) > KEPT_ANSWERS:
            self._answers.popitem(last=False)
        return answer

    @staticmethod
    def _shown(room: Room, seat: int) -> None:
        """A hint was shown to ``seat``: their next move carries the note."""
        room.hints_used.add(seat)
        room.hint_pending.add(seat)


def used_in_deal(log_entries: Iterable[repo.LoggedAction], deal_no: int) -> set[int]:
    """The seats whose moves in deal ``deal_no`` carried a hint note (a note belongs
    to the deal in play when its move was made: it comes before the step's events)."""
    seats: set[int] = set()
    current = 1
    for entry in log_entries:
        for event in entry.events:
            kind = event.get("type")
            if kind == HINT_NOTE and current == deal_no:
                seats.add(int(event["seat"]))
            elif kind == "deal" and event.get("deal_no"):
                current = int(event["deal_no"])
    return seats


async def rebuild(db: Database, room: Room) -> None:
    """After a restart or a reload: the seats shown a hint in the deal in play, from
    the notes in the action log (a hint shown and not yet followed by a move was in
    memory only)."""
    room.hint_pending.clear()
    room.hints_used.clear()
    match = room.match
    if not room.table.get("hints") or match is None or match.is_over:
        return
    entries = await db.read(repo.action_log, match_id=room.id)
    room.hints_used.update(used_in_deal(entries, match.deal_no))

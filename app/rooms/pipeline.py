"""The action pipeline: the one path by which anything changes a running match.

An action is checked (the room is open, the version is the one the player saw, the
engine's ``verify`` accepts it), applied to a *copy* of the match, made durable in
one transaction (the action log, the snapshot to resume from, finished deals and
chip transfers), and only then does the copy become the room's match and every
listener hear of it. So nothing is ever shown that a restart would not bring back,
and a failed write changes nothing.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from app.db import Database, repo
from app.db.retry import DatabaseUnavailable
from app.db.session import JSONText
from app.games import CENTS, GAMES, N_, IllegalAction, Match
from app.rooms import decisions
from app.rooms.errors import (
    BadRequest,
    Forbidden,
    Illegal,
    NotFound,
    ServedElsewhere,
    Stale,
    Unavailable,
)
from app.rooms.events import RoomEvents
from app.rooms.leases import RETRY_AFTER_S, SERVED_ELSEWHERE
from app.rooms.pacing import Pacing, pause_left
from app.rooms.recovery import MOVE_NOT_KEPT, DatabaseRecovery
from app.rooms.room import HINT_NOTE, Room
from app.rooms.windows import ChallengeWindows

log = logging.getLogger("stammtisch.rooms")

STOPPED = N_("Something went wrong while saving this table, so it was stopped where it "
             "was; the last move was not kept. Restarting the server tries again from the "
             "last saved move.")
LEDGER_BROKEN = N_("The chip balances did not add up, so this table was stopped "
                   "before writing anything wrong.")
STALE = N_("The table changed before your move arrived; here is the current table.")
STALE_AFTER_CHALLENGE = N_("A challenge came first; have a look at the table.")
SEAT_GONE = N_("That seat is no longer yours, so the move was not made.")


def check_version(version: Any) -> int:
    if isinstance(version, str) and version.isascii() and version.isdigit():
        version = int(version)
    if isinstance(version, bool) or not isinstance(version, int):
        raise BadRequest("An action needs the version of the view it was made from.")
    return version


class ActionPipeline:
    def __init__(self, db: Database, windows: ChallengeWindows, pacing: Pacing,
                 recovery: DatabaseRecovery, events: RoomEvents,
                 owner: str | None = None) -> None:
        """A step opens or closes challenge windows (``windows``) and may start a
        pause (``pacing``); a write that waits long or fails makes the room wait for
        the database (``recovery``); ``events`` hears of every step written and shown
        (the turn clock, stand-ins). ``owner``: with room leases, this process's id
        (:mod:`app.rooms.leases`): every step's write is fenced with it."""
        self.db = db
        self.windows = windows
        self.pacing = pacing
        self.recovery = recovery
        self._events = events
        self.owner = owner

    async def act(self, room: Room, seat: int, action: Any, version: Any,
                  holder: str | None = None) -> list[dict[str, Any]]:
        """A player's action made from the view of ``version``. A move that must
        wait for a challenge window waits outside the lock, then is checked again.
        A legal move made while a finished trick or deal is on show is queued
        (``room.queued``) and takes effect when the pause ends; it returns ``[]``.
        ``holder``: the hash of the token the move came with; the move is made only
        while that token still holds ``seat`` (the host may have released the seat
        while the move waited for the lock)."""
        version = check_version(version)
        if not isinstance(action, str):
            raise BadRequest("An action is a text such as 'play:EO'.")
        if room.error:  # say it at once, not after the write that waits for the database
            raise Illegal(room.error)
        held = False
        while True:
            async with room.lock:
                match = self._running(room)
                if holder is not None and room.seat_held_by(holder) != seat:
                    raise Forbidden(SEAT_GONE)
                if room.queued and pause_left(room) <= 0:  # the pause just ended
                    await self.pacing.flush_locked(room)
                    match = self._running(room)
                if version != room.version:
                    raise Stale(STALE_AFTER_CHALLENGE if held else STALE)
                self.verify(match, seat, action)
                if pause_left(room) > 0:
                    self.pacing.queue(room, seat, action, version)
                    room.tell()
                    return []
                wait = self.windows.held_back(room, action)
                if wait <= 0:
                    return await self.apply_locked(room, seat, action, decided=True)
            held = True
            await room.clock.sleep(wait)

    @staticmethod
    def _running(room: Room) -> Match:
        if room.match is None:
            raise Illegal("The match has not started yet.")
        if room.error:
            raise Illegal(room.error)
        if room.closed:
            if room.handed_over:
                raise ServedElsewhere(SERVED_ELSEWHERE, RETRY_AFTER_S)
            raise NotFound("This table was closed.")
        return room.match

    @staticmethod
    def verify(match: Match, seat: int, action: str) -> None:
        """Refuse an illegal action with the engine's own readable reason (the
        engine's one validation path; nothing is applied to learn it)."""
        try:
            match.verify(seat, action)
        except IllegalAction as exc:
            raise Illegal.of(exc) from None

    async def apply_locked(self, room: Room, seat: int, action: str,
                           note: dict[str, Any] | None = None,
                           decided: bool = False) -> list[dict[str, Any]]:
        """Apply to a copy and commit. The caller holds ``room.lock``; ``apply``
        verifies the action itself, so an illegal one changes nothing. ``note`` is a
        public room event logged before the engine's (a bot playing for a person).
        ``decided``: the person at ``seat`` chose it (their move, made now or queued
        during a pause), so it is kept for their review (:mod:`app.rooms.decisions`),
        and it carries the public note ``hint`` when they were shown a hint since
        their last move (:mod:`app.rooms.hints`)."""
        assert room.match is not None
        work = room.match.copy()
        try:
            events = work.apply(seat, action)
        except IllegalAction as exc:
            raise Illegal.of(exc) from None
        decision = decisions.note(room, seat, action) if decided else None
        if decided and note is None and seat in room.hint_pending:
            note = {"type": HINT_NOTE, "seat": seat}  # they were shown a hint for it
        await self.commit(room, work, seat, action, events, note=note, decision=decision)
        return events

    async def commit(self, room: Room, match: Match, seat: int | None, action: str,
                     events: list[dict[str, Any]], *, started: bool = False,
                     start_chips: list[int] | None = None,
                     note: dict[str, Any] | None = None,
                     decision: decisions.Decision | None = None) -> None:
        """Make a step durable, then make ``match`` the room's match and show it.
        If it cannot be written the room stops where it was. ``decision``: a person's,
        kept with the deal's others and written with the deal's end."""
        ends = [e for e in events if e.get("type") == "deal_end"]
        pending = room.decisions
        if ends and decision is not None:  # the deal's last decision goes with it
            pending = [*pending, decision]
        deals = [self.deal_record(room, match, e, pending) for e in ends]
        finished = (list(match.scores), list(match.winners)) if match.is_over else None
        logged = [note, *events] if note is not None else events
        try:
            # grouped with other rooms' steps into one commit; returns after it
            async with self.recovery.watch(room):
                await self.db.write(
                    repo.record_step, match_id=room.id, seq=room.version + 1, seat=seat,
                    action=action, events=logged, snapshot=JSONText(match.snapshot_json()),
                    deals=deals, started=started, start_chips=start_chips, finished=finished,
                    owner=self.owner)
        except repo.StepFenced:
            # another process took the room over: this one never writes it again
            log.warning("room %s: its step was refused, another server process serves "
                        "it now; it leaves memory", room.id)
            self._events.rooms_lost({room.id})
            raise ServedElsewhere(SERVED_ELSEWHERE, RETRY_AFTER_S) from None
        except repo.LedgerMismatch as exc:
            log.error("room %s stopped: %s", room.id, exc)
            self._stop(room, LEDGER_BROKEN)
        except DatabaseUnavailable:
            self.recovery.wait_for_database(room)
            raise Unavailable(MOVE_NOT_KEPT) from None
        except asyncio.CancelledError:
            raise
        except Exception:
            if await self._landed(room):  # the answer was lost, not the write
                log.warning("room %s: a step was saved but its answer was lost; "
                            "reloading the room", room.id)
                self.recovery.wait_for_database(room)
                raise Unavailable(MOVE_NOT_KEPT) from None
            log.exception("room %s stopped: could not save", room.id)
            self._stop(room, STOPPED)
        room.match = match
        if deals:  # written: the ended deals' decisions leave memory
            ended = max(d.deal_no for d in deals)
            room.decisions = [d for d in pending if d.deal_no > ended]
        elif decision is not None:
            room.decisions.append(decision)
        if note is not None and note.get("type") == HINT_NOTE:
            room.hint_pending.discard(int(note["seat"]))
        if deals:  # the hints of the ended deal went with its result
            room.hints_used.clear()
            room.hint_pending.clear()
        room.deal_scores.extend((d.deal_no, list(d.scores_after)) for d in deals)
        self.windows.after_step(room)
        self.pacing.after_step(room, events)
        room.changed()
        self._events.step_shown(room)

    async def _landed(self, room: Room) -> bool:
        """Whether the database already holds a step past the room's version: a
        write retried after its connection was lost may find its own first try
        (a duplicate step). Then the room reloads what was saved."""
        try:
            saved = await self.db.run(repo.open_match, match_id=room.id)
        except Exception:
            return False
        return saved is not None and saved.version > room.version

    @staticmethod
    def _stop(room: Room, message: str) -> None:
        room.error = message
        room.changed()
        raise Illegal(message)

    @staticmethod
    def deal_record(room: Room, match: Match, event: dict[str, Any],
                    pending: list[decisions.Decision] | None = None) -> repo.DealRecord:
        """The database record of one ``deal_end`` event (see ``app.games.DealEnd``);
        a game that keeps a ledger (``GameInfo.ledger``) adds its transfers and the
        balances after it: chips with the pot and the chips brought, or a settlement
        in cents (checked to add up to zero, balances may be negative)."""
        result = {k: v for k, v in event.items() if k != "type"}
        if room.hints_used:  # who was shown a hint in the deal (a practice table)
            result["hints"] = sorted(room.hints_used)
        deal_no, scores = int(event["deal_no"]), list(event["scores"])
        made = decisions.of_deal(room, pending or [], deal_no)
        ledger = GAMES[room.game].ledger
        if ledger is None:
            return repo.DealRecord(deal_no, result, scores, decisions=made)
        if ledger == CENTS:
            return repo.DealRecord(deal_no, result, scores, transfers=event["transfers"],
                                   chips_after=scores, settlement=True, decisions=made)
        return repo.DealRecord(deal_no, result, scores, transfers=event["transfers"],
                               chips_after=scores, pot_after=event["pot"],
                               chips_total=sum(match.chips_at_start()), decisions=made)

"""Reviews of a person's deal (issue 28): asked for, worked out once, kept.

A person asks for the review of a finished deal with their seat token. The token
decides whose review it is: the seat it holds at that match, read from the database
(so a review is there after the room left memory, and after a restart), and of that
seat's decisions only those made with the same token. The first request starts the
work and is told it is pending; the review is worked out in the bot pool's review
worker (:meth:`app.bots.pool.BotPool.review`: off the event loop, one decision at a
time, each only while no bot's move waits), under ``REVIEW_BUDGET_MS`` per decision,
and kept with the decisions; every later request reads it.

The search's randomness comes from the match, the deal and the seat (and, in the
review itself, what the seat saw), never from a card the seat did not see.

Once the match is over, a person may share their reviews with the table (and withdraw
them again): kept in the database, so the others at that match (the other seats'
tokens and the host's) read that person's reviews, the decisions made with the token
that shared them, read-only. Nobody else does: a spectator's token, or a person's
reviews not shared.

A review whose work failed is not started again at once: the next try waits
``RETRY_FIRST_S``, then twice as long after each failure up to ``RETRY_MAX_S`` (kept in
memory per review), and meanwhile the answer says it failed and when it is tried again.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import math
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from app.bots.pool import BotPool
from app.db import Database, repo
from app.games import N_
from app.rooms.errors import Conflict, Forbidden, NotFound, Unauthorized, Unavailable
from app.rooms.events import Spawn
from app.rooms.room import Room
from app.rooms.writes import RoomWrites

log = logging.getLogger("stammtisch.rooms")

NEEDS_TOKEN = N_("A review needs your seat token: 'Authorization: Bearer <token>'.")
NO_SEAT = N_("Only a player seated at this table has a review of their deals.")
NO_MATCH = N_("There is no table at this link.")
NOT_FINISHED = N_("Deal {deal} is not finished, or there is no such deal.")
NO_REVIEWS = N_("This server does not review deals.")
NOT_OVER = N_("Reviews can be shared with the table once the match is over.")
NOT_SHARED = N_("{name} has not shared their reviews with the table.")
NOT_SHARED_YET = N_("Reviews are shared only once the match is over.")
PLAYERS_ONLY = N_("Only the people who played this match read the reviews shared at it: "
                  "a review names the cards of a hand.")
NO_SUCH_SEAT = N_("This match has no seat {seat}.")

READY, PENDING, FAILED = "ready", "pending", "failed"
OPEN = "open"  # not asked for yet (the match's overview only)
# after a review's work failed: the pause before it is started again, doubling
RETRY_FIRST_S, RETRY_MAX_S = 30.0, 600.0


@dataclass(frozen=True)
class ReviewAnswer:
    """A review as its person may see it: ``decisions`` are the reviewed decisions
    made with their token (JSON, as kept), empty while ``status`` is pending."""

    game: str
    match_id: str
    deal_no: int
    seat: int
    status: str
    decisions: list[dict[str, Any]]
    complete: bool
    retry_in: int | None = None  # failed: seconds until it is tried again
    whose: str | None = None  # another person's review they shared: their name


def review_seed(match_id: str, deal_no: int, seat: int) -> int:
    """The review's seed: from the match, the deal and the seat only."""
    digest = hashlib.sha256(f"review:{match_id}:{deal_no}:{seat}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 2


class Reviews:
    def __init__(self, db: Database, pool: BotPool | None, budget_ms: float,
                 spawn: Spawn, rooms: Mapping[str, Room] | None = None,
                 now: Callable[[], float] = time.monotonic,
                 writes: RoomWrites | None = None) -> None:
        self.db = db
        self.pool = pool
        self.budget_ms = budget_ms
        self._spawn = spawn
        self._rooms = rooms if rooms is not None else {}
        self._now = now
        # the shares of a room in memory are written fenced (app.rooms.writes)
        self._writes = writes or RoomWrites(db)
        self._working: dict[tuple[str, int, int], asyncio.Task[None]] = {}
        # reviews whose work failed: (when it may start again, the pause it waits)
        self._failed: dict[tuple[str, int, int], tuple[float, float]] = {}

    async def _seat(self, match_id: str, token: str | None) -> tuple[str, repo.TokenSeat]:
        """The token's hash and whose it is at ``match_id`` (a seat, or refused)."""
        holder, who = await self._holder(match_id, token)
        if who.seat is None:
            raise Forbidden(NO_SEAT)
        return holder, who

    async def _holder(self, match_id: str, token: str | None
                      ) -> tuple[str, repo.TokenSeat]:
        """The token's hash and whose it is at ``match_id`` (a seat, the host's, or
        nobody's at this match)."""
        if not token:
            raise Unauthorized(NEEDS_TOKEN)
        holder = repo.token_hash(token)
        who = await self.db.read(repo.token_seat, match_id=match_id, holder=holder)
        if who is None:
            raise NotFound(NO_MATCH)
        return holder, who

    async def _whose(self, match_id: str, token: str | None, seat: int | None
                     ) -> tuple[str, int, repo.TokenSeat]:
        """Whose reviews the holder of ``token`` reads: their own (``seat`` None or
        their own seat), or those that ``seat``'s person shared with the table. The
        hash of the token whose decisions are shown, the seat, and who asks."""
        holder, who = await self._holder(match_id, token)
        if seat is None or seat == who.seat:
            if who.seat is None:
                raise Forbidden(NO_SEAT)
            return holder, who.seat, who
        if who.seat is None and not who.host:
            raise Forbidden(PLAYERS_ONLY)
        if seat not in who.names:
            raise NotFound(NO_SUCH_SEAT, seat=seat)
        if who.status != "finished":
            raise Forbidden(NOT_SHARED_YET)
        shared = who.shares.get(seat)
        if shared is None:
            raise Forbidden(NOT_SHARED, name=who.names[seat])
        return shared, seat, who

    async def ask(self, match_id: str, token: str | None, deal_no: int,
                  seat: int | None = None) -> ReviewAnswer:
        """The review of deal ``deal_no`` for the holder of ``token`` (``seat``: the
        review ``seat``'s person shared); starts the work if it is not done (the answer
        is then pending), unless it failed a moment ago (failed, and when it is tried
        again)."""
        holder, seat, who = await self._whose(match_id, token, seat)
        found = await self.db.read(repo.deal_decisions, match_id=match_id, deal_no=deal_no,
                                   seat=seat)
        if found is None:
            raise NotFound(NOT_FINISHED, deal=deal_no)
        answer = self._answer(who.game, holder, found)
        if answer.status == PENDING:
            retry_in = self._start(who.game, found)
            if retry_in is not None:
                answer = replace(answer, status=FAILED, retry_in=retry_in)
        return self._named(answer, who)

    async def overview(self, match_id: str, token: str | None, seat: int | None = None
                       ) -> tuple[repo.TokenSeat, list[ReviewAnswer]]:
        """Every finished deal of the match for the holder of ``token`` (``seat``: of
        the person there, who shared them): the reviews worked out (ready), being
        worked out (pending), failed a moment ago (failed) or not asked for yet (open).
        Nothing is started."""
        holder, seat, who = await self._whose(match_id, token, seat)
        deals = await self.db.read(repo.seat_deals, match_id=match_id, seat=seat)
        out = []
        for found in deals:
            answer = self._answer(who.game, holder, found)
            if answer.status == PENDING and not self.working(match_id, found.deal_no,
                                                             found.seat):
                retry_in = self._retry_in((match_id, found.deal_no, found.seat))
                answer = replace(answer, status=OPEN if retry_in is None else FAILED,
                                 retry_in=retry_in)
            out.append(self._named(answer, who))
        return who, out

    async def share(self, match_id: str, token: str | None, shared: bool
                    ) -> tuple[int, dict[int, str]]:
        """Share the reviews of the holder of ``token`` with the others at the match
        (``shared``), or withdraw them; only once the match is over. The table, if in
        memory, shows who shared. Returns the holder's seat and the seats that share,
        with their names."""
        holder, who = await self._seat(match_id, token)
        assert who.seat is not None
        if who.status != "finished":
            raise Conflict(NOT_OVER)
        room = self._rooms.get(match_id)
        # a room in memory shows the shares: its write is fenced (app.rooms.writes)
        writes = self._writes if room is not None else RoomWrites(self.db)
        shares = await writes.run(match_id, repo.share_reviews, match_id=match_id,
                                  seat=who.seat, holder=holder if shared else None)
        log.info("reviews %s", "shared" if shared else "withdrawn")
        if room is not None and not room.closed:
            room.shared_reviews = tuple(sorted(shares))
            room.tell()
        return who.seat, {s: who.names.get(s, "") for s in sorted(shares)}

    @staticmethod
    def _named(answer: ReviewAnswer, who: repo.TokenSeat) -> ReviewAnswer:
        """``answer`` naming its person when it is not the asker's own."""
        if answer.seat == who.seat:
            return answer
        return replace(answer, whose=who.names.get(answer.seat, ""))

    @staticmethod
    def _answer(game: str, holder: str, found: repo.DealDecisions) -> ReviewAnswer:
        """The holder's part of a deal's review (pending: not worked out yet)."""
        mine = [i for i, p in enumerate(found.points) if p.get("holder") == holder]
        if found.review is not None or not mine:
            decisions = [found.review[i] for i in mine] if found.review is not None else []
            return ReviewAnswer(game, found.match_id, found.deal_no, found.seat, READY,
                                decisions, found.complete)
        return ReviewAnswer(game, found.match_id, found.deal_no, found.seat, PENDING, [],
                            found.complete)

    def working(self, match_id: str, deal_no: int, seat: int) -> bool:
        return (match_id, deal_no, seat) in self._working

    def _retry_in(self, key: tuple[str, int, int]) -> int | None:
        """Whole seconds until a review that failed may start again (None: it may)."""
        failed = self._failed.get(key)
        if failed is None:
            return None
        left = failed[0] - self._now()
        return math.ceil(left) if left > 0 else None

    def _start(self, game: str, found: repo.DealDecisions) -> int | None:
        """Start the review's work unless it runs; None, or the seconds until it may
        start again after a failure."""
        if self.pool is None:
            raise Unavailable(NO_REVIEWS)
        key = (found.match_id, found.deal_no, found.seat)
        if key in self._working:
            return None
        retry_in = self._retry_in(key)
        if retry_in is not None:
            return retry_in
        self._working[key] = self._spawn(self._work(game, found))
        return None

    async def _work(self, game: str, found: repo.DealDecisions) -> None:
        assert self.pool is not None
        key = (found.match_id, found.deal_no, found.seat)
        points = [{"seq": p["seq"], "seat": found.seat, "view": p["view"],
                   "legal": p["legal"], "chosen": p["chosen"]} for p in found.points]
        try:
            review = await self.pool.review(
                game, points, budget_ms=self.budget_ms,
                seed=review_seed(found.match_id, found.deal_no, found.seat))
            await self.db.run(repo.save_review, match_id=found.match_id,
                              deal_no=found.deal_no, seat=found.seat, review=review)
            self._failed.pop(key, None)
            log.info("deal reviewed game=%s decisions=%d", game, len(points))
        except asyncio.CancelledError:
            raise
        except Exception:  # tried again when asked, after a pause that doubles
            before = self._failed.get(key)
            pause = RETRY_FIRST_S if before is None else min(RETRY_MAX_S, 2 * before[1])
            self._failed[key] = (self._now() + pause, pause)
            log.exception("a review failed game=%s, tried again in %.0f s", game, pause)
        finally:
            self._working.pop(key, None)

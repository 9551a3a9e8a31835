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
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
from dataclasses import dataclass, replace
from typing import Any

from app.bots.pool import BotPool
from app.db import Database, repo
from app.games import N_
from app.rooms.errors import Forbidden, NotFound, Unauthorized, Unavailable
from app.rooms.events import Spawn

log = logging.getLogger("stammtisch.rooms")

NEEDS_TOKEN = N_("A review needs your seat token: 'Authorization: Bearer <token>'.")
NO_SEAT = N_("Only a player seated at this table has a review of their deals.")
NO_MATCH = N_("There is no table at this link.")
NOT_FINISHED = N_("Deal {deal} is not finished, or there is no such deal.")
NO_REVIEWS = N_("This server does not review deals.")

READY, PENDING = "ready", "pending"
OPEN = "open"  # not asked for yet (the match's overview only)


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


def review_seed(match_id: str, deal_no: int, seat: int) -> int:
    """The review's seed: from the match, the deal and the seat only."""
    digest = hashlib.sha256(f"review:{match_id}:{deal_no}:{seat}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 2


class Reviews:
    def __init__(self, db: Database, pool: BotPool | None, budget_ms: float,
                 spawn: Spawn) -> None:
        self.db = db
        self.pool = pool
        self.budget_ms = budget_ms
        self._spawn = spawn
        self._working: dict[tuple[str, int, int], asyncio.Task[None]] = {}

    async def _seat(self, match_id: str, token: str | None) -> tuple[str, repo.TokenSeat]:
        """The token's hash and whose it is at ``match_id`` (a seat, or refused)."""
        if not token:
            raise Unauthorized(NEEDS_TOKEN)
        holder = repo.token_hash(token)
        who = await self.db.read(repo.token_seat, match_id=match_id, holder=holder)
        if who is None:
            raise NotFound(NO_MATCH)
        if who.seat is None:
            raise Forbidden(NO_SEAT)
        return holder, who

    async def ask(self, match_id: str, token: str | None, deal_no: int) -> ReviewAnswer:
        """The review of deal ``deal_no`` for the holder of ``token``; starts the work
        if it is not done (the answer is then pending)."""
        holder, who = await self._seat(match_id, token)
        assert who.seat is not None
        found = await self.db.read(repo.deal_decisions, match_id=match_id, deal_no=deal_no,
                                   seat=who.seat)
        if found is None:
            raise NotFound(NOT_FINISHED, deal=deal_no)
        answer = self._answer(who.game, holder, found)
        if answer.status == PENDING:
            self._start(who.game, found)
        return answer

    async def overview(self, match_id: str, token: str | None
                       ) -> tuple[repo.TokenSeat, list[ReviewAnswer]]:
        """Every finished deal of the match for the holder of ``token``: the reviews
        worked out (ready), being worked out (pending) or not asked for yet (open).
        Nothing is started."""
        holder, who = await self._seat(match_id, token)
        assert who.seat is not None
        deals = await self.db.read(repo.seat_deals, match_id=match_id, seat=who.seat)
        out = []
        for found in deals:
            answer = self._answer(who.game, holder, found)
            if answer.status == PENDING and not self.working(match_id, found.deal_no,
                                                             found.seat):
                answer = replace(answer, status=OPEN)
            out.append(answer)
        return who, out

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

    def _start(self, game: str, found: repo.DealDecisions) -> None:
        if self.pool is None:
            raise Unavailable(NO_REVIEWS)
        key = (found.match_id, found.deal_no, found.seat)
        if key in self._working:
            return
        self._working[key] = self._spawn(self._work(game, found))

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
            log.info("deal reviewed game=%s decisions=%d", game, len(points))
        except asyncio.CancelledError:
            raise
        except Exception:  # the next request tries again
            log.exception("a review failed game=%s", game)
        finally:
            self._working.pop(key, None)

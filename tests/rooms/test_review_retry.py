"""A review whose work fails is not started on every request (issue 28): after a
failure the same review waits 30 s before it is started again, then twice as long
after each further failure, up to 10 minutes; meanwhile the answer says it failed
and in how many seconds it is tried again. Once it works, it is ready and kept."""

from __future__ import annotations

import asyncio
import random
from typing import Any

from app.bots.pool import BotPool
from app.db import Database
from app.rooms.reviews import (
    FAILED,
    OPEN,
    PENDING,
    READY,
    RETRY_FIRST_S,
    RETRY_MAX_S,
    ReviewAnswer,
    Reviews,
)
from app.rooms.service import RoomService
from app.web.render import env
from app.web.review import review_of
from tests.loops import run
from tests.rooms.test_decisions import NO_PAUSES, _play_a_deal


class FailingPool(BotPool):
    """A pool whose review raises while ``failing`` (no process starts)."""

    def __init__(self) -> None:
        super().__init__(size=1, budget_ms=20)
        self.failing = True
        self.calls = 0

    async def review(self, game: str, points: list[dict[str, Any]], *,
                     budget_ms: float | None, seed: int) -> list[dict[str, Any]]:
        self.calls += 1
        await asyncio.sleep(0)
        if self.failing:
            raise RuntimeError("the review worker died")
        return [{"seq": p["seq"], "chosen": p["chosen"], "best": p["chosen"],
                 "options": [{"action": a, "estimate": 0.0} for a in p["legal"]],
                 "mistake": False, "reason": None, "loss": 0.0} for p in points]


async def _settle(reviews: Reviews, match_id: str) -> None:
    """Until the work on the review of deal 1, seat 0 ends."""
    for _ in range(200):
        if not reviews.working(match_id, 1, 0):
            return
        await asyncio.sleep(0.005)
    raise AssertionError("the review's work did not end")


def test_a_failed_review_is_tried_again_after_a_pause_that_doubles(db_url: str) -> None:
    async def scenario() -> None:
        service = RoomService(Database(db_url), bot_delay_ms=0)
        room, host = await service.create(game="schafkopf", options={"dealer": 3, **NO_PAUSES})
        _, token = await service.join(room.id, "Anna")
        for _ in range(3):
            await service.add_bot(room.id, host, "easy")
        await service.start(room.id, host)
        await _play_a_deal(service, room, {0}, random.Random(4), drawn=True)

        pool = FailingPool()
        clock = [1000.0]
        reviews = Reviews(service.db, pool, 20, asyncio.ensure_future, now=lambda: clock[0])
        first = await reviews.ask(room.id, token, 1)
        assert first.status == PENDING
        await _settle(reviews, room.id)
        assert pool.calls == 1
        failed = await reviews.ask(room.id, token, 1)
        assert (failed.status, failed.retry_in) == (FAILED, 30) and failed.decisions == []
        clock[0] += 10
        assert (await reviews.ask(room.id, token, 1)).retry_in == 20
        _, overview = await reviews.overview(room.id, token)
        assert [(a.status, a.retry_in) for a in overview] == [(FAILED, 20)]
        assert pool.calls == 1, "not started again during the pause"

        pauses = []
        for _ in range(6):  # each failure doubles the pause, up to ten minutes
            clock[0] += RETRY_MAX_S
            assert (await reviews.ask(room.id, token, 1)).status == PENDING
            await _settle(reviews, room.id)
            pauses.append((await reviews.ask(room.id, token, 1)).retry_in)
        assert pauses == [60, 120, 240, 480, 600, 600]
        assert pool.calls == 7
        assert RETRY_FIRST_S == 30

        pool.failing = False
        clock[0] += RETRY_MAX_S
        _, overview = await reviews.overview(room.id, token)
        assert [a.status for a in overview] == [OPEN], "due again: nothing started yet"
        assert (await reviews.ask(room.id, token, 1)).status == PENDING
        await _settle(reviews, room.id)
        ready = await reviews.ask(room.id, token, 1)
        assert ready.status == READY and ready.decisions and ready.retry_in is None
        assert pool.calls == 8
        await service.close()
        service.db.close()

    run(scenario())


def test_the_panel_says_the_review_failed_and_when_it_is_tried_again() -> None:
    answer = ReviewAnswer("schafkopf", "m1", 2, 0, FAILED, [], True, retry_in=45)
    review = review_of(answer)
    assert review.model_dump(exclude_none=True)["retry_in"] == 45
    html = env.get_template("table/review.html").render(
        room_id="m1", deal=2, slot="review", error=None, review=review, whose=None)
    assert "could not be worked out" in html and "45 seconds" in html
    assert 'hx-trigger="load delay:45s"' in html, "asks again when it is due"
    assert "being reviewed" not in html

"""Reviews wait behind the bots' moves (issue 28): a decision of a review starts only
while no bot's move waits for a worker, one decision of any review at a time, and
never in a bot's worker."""

from __future__ import annotations

import asyncio
from typing import Any

from app.bots.pool import BotPool
from tests.loops import run


class RecordingPool(BotPool):
    """A pool whose review worker is a coroutine that notes each decision it starts
    and ends (no process starts)."""

    def __init__(self, size: int) -> None:
        super().__init__(size=size, budget_ms=20)
        self.log: list[tuple[str, str, int]] = []
        self.thinking = 0
        self.most = 0

    async def _review_one(self, game: str, points: list[dict[str, Any]],
                          budget_ms: float | None, seed: int) -> dict[str, Any]:
        who = str(points[-1]["view"]["who"])
        self.log.append(("start", who, len(points)))
        self.thinking += 1
        self.most = max(self.most, self.thinking)
        await asyncio.sleep(0.01)
        self.thinking -= 1
        self.log.append(("end", who, len(points)))
        return {"seq": points[-1]["seq"], "memory": len(points) - 1}


def _points(who: str, count: int) -> list[dict[str, Any]]:
    return [{"seq": i, "seat": 0, "view": {"who": who}, "legal": ["a", "b"], "chosen": "a"}
            for i in range(count)]


def test_a_review_waits_while_a_bot_s_move_waits_for_the_worker() -> None:
    async def scenario() -> None:
        pool = RecordingPool(size=1)
        try:
            pool.bot_started()  # a strong bot thinks in the only worker
            review = asyncio.create_task(pool.review("schafkopf", _points("A", 2),
                                                     budget_ms=50, seed=1))
            await asyncio.sleep(0.05)
            assert pool.log == [], "no decision starts while the bot's move is thought"
            pool.bot_ended()
            while not pool.log:
                await asyncio.sleep(0.001)
            pool.bot_started()  # another bot move arrives during the first decision
            await asyncio.sleep(0.05)
            assert pool.log == [("start", "A", 1), ("end", "A", 1)], \
                "the next decision waits for the bot"
            pool.bot_ended()
            done = await review
            assert [d["memory"] for d in done] == [0, 1], "each with the earlier as memory"
            assert pool.log[-2:] == [("start", "A", 2), ("end", "A", 2)]
        finally:
            pool.close()

    run(scenario())


def test_a_pool_of_two_reviews_while_one_worker_is_free() -> None:
    async def scenario() -> None:
        pool = RecordingPool(size=2)
        try:
            pool.bot_started()  # one worker thinks for a bot, one is free
            done = await asyncio.wait_for(
                pool.review("schafkopf", _points("A", 1), budget_ms=50, seed=1), 1)
            assert len(done) == 1
            pool.bot_started()  # both workers think for bots: reviews wait
            waiting = asyncio.create_task(pool.review("schafkopf", _points("B", 1),
                                                      budget_ms=50, seed=1))
            await asyncio.sleep(0.05)
            assert not waiting.done()
            pool.bot_ended()
            assert len(await asyncio.wait_for(waiting, 1)) == 1
            pool.bot_ended()
        finally:
            pool.close()

    run(scenario())


def test_reviews_asked_together_take_turns_one_decision_at_a_time() -> None:
    async def scenario() -> None:
        pool = RecordingPool(size=1)
        try:
            both = await asyncio.gather(
                pool.review("schafkopf", _points("A", 3), budget_ms=50, seed=1),
                pool.review("schafkopf", _points("B", 2), budget_ms=50, seed=2))
            assert [len(r) for r in both] == [3, 2]
            assert pool.most == 1, "never two decisions at once"
            starts = [(who, n) for kind, who, n in pool.log if kind == "start"]
            assert starts == [("A", 1), ("B", 1), ("A", 2), ("B", 2), ("A", 3)]
        finally:
            pool.close()

    run(scenario())


def test_a_review_thinks_in_its_own_worker_at_a_lower_priority() -> None:
    """The real review worker: a deal's decision reviewed there (not in a bot's
    worker), from a process whose priority is lower than the server's."""
    import os

    from app.games import new_match

    async def scenario() -> None:
        pool = BotPool(size=1, budget_ms=20)
        try:
            match = new_match("schafkopf", 4, {"dealer": 3}, seed=3)
            seat = sorted(match.to_act())[0]
            legal = match.legal_actions(seat)
            point = {"seq": 1, "seat": seat, "view": match.view(seat), "legal": legal,
                     "chosen": legal[0]}
            done = await pool.review("schafkopf", [point], budget_ms=30, seed=9)
            assert done[0]["chosen"] == legal[0]
            assert [o["action"] for o in done[0]["options"]] == legal
            assert pool._reviewer is not None
            nice = await asyncio.get_running_loop().run_in_executor(pool._reviewer, os.nice, 0)
            assert nice >= os.nice(0) + 1
        finally:
            pool.close()

    run(scenario())

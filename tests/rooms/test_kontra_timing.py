"""A bot whose move the table waits for plays when it is due, however long the bots
that may only say Kontra think (issue 27): in the classic Schafkopf the seats that
may say Kontra are the opponents, so a move that waited for their thinking would
come later or sooner by who the partner is."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from app.bots import choose_action, choose_optional
from app.games import new_match
from app.rooms.service import RoomService
from tests.rooms.test_bot_driver import ScriptedPool, scenario, table
from tests.rooms.test_turns_and_pacing import tick
from tests.web.test_schafkopf_classic_web import AUCTION, HANDS, _swapped

THINK_OPTIONAL = 3.0  # a strong bot pondering Kontra, far beyond the delay


class SlowKontraPool(ScriptedPool):
    """Answers a seat the table waits for at once, a seat that may only say Kontra
    (``optional``) after THINK_OPTIONAL seconds of the room's clock, silent."""

    async def choose(self, kind: str, game: str, view: dict[str, Any], legal: list[str],
                     seed: int | None = None, budget_ms: float | None = None,
                     memory: Any = None, optional: bool = False) -> str | None:
        self.asked.append((memory, "optional" if optional else "must", len(legal)))
        if optional:
            await self.clock.sleep(THINK_OPTIONAL)
            return choose_optional(game, view, legal, random.Random(seed))
        return choose_action(game, view, legal, random.Random(seed))


def test_the_bot_on_turn_plays_when_due_whoever_may_say_kontra(tmp_path: Path) -> None:
    """Anna (a person) at seat 0, strong bots at 1 to 3; seat 1 declares a Rufspiel
    on the Gras Sau and leads. Seat 2 or seat 3 holds the Sau: the other one may say
    Kontra and thinks long about it. Either way seat 1's card comes at the bot delay
    (0.7 s), not when the Kontra thinking ends."""
    for partner, hands in ((2, HANDS), (3, _swapped())):
        async def body(service: RoomService, pool: SlowKontraPool,
                       hands: list[list[str]] = hands, partner: int = partner) -> None:
            room, _host = await table(service, "schafkopf_classic",
                                      levels=("strong", "strong", "strong"),
                                      options={"dealer": 0})
            async with room.lock:  # the game stands: the deal is the stacked one
                match = new_match("schafkopf_classic", 4, {"dealer": 0}, seed=1,
                                  deals=[{"hands": hands}])
                for seat, action in AUCTION:
                    match.apply(seat, action)
                assert match.turn == 1 and match.view(partner)["partner"] == partner
                opponent = 5 - partner  # the bot of seats 2 and 3 that may say Kontra
                assert match.to_act() == {0, 1, opponent}
                room.match = match
                room.version += 1
                room.changed()
            pool.asked.clear()
            start = room.version
            await tick(pool.clock, 0.65, room)
            assert room.version == start, "the bot played before the delay"
            await tick(pool.clock, 0.1, room)
            assert room.version == start + 1, f"partner {partner}: the card waited"
            assert room.match is not None and len(room.match.hands[1]) == 7
            assert ((room.id, opponent), "optional", 1) in pool.asked  # asked: Kontra?

        scenario(tmp_path / str(partner), body, pool=SlowKontraPool, delay_ms=700)

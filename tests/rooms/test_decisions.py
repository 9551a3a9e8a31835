"""Each person's decisions are kept for the review (issue 28): never a bot's, with
the seat's view and legal actions just before each, written with the deal's end, and
there after a restart."""

from __future__ import annotations

import asyncio
import random
import sys
import zlib

from app.db import Database, repo
from app.rooms.room import Room
from app.rooms.service import RoomService
from app.rooms.table_state import seat_state, table_state
from tests.loops import run

NO_PAUSES = {"trick_pause_ms": 0, "next_deal_s": 0}


async def _people_turn(room: Room, people: set[int], deal_no: int) -> int | None:
    """A person's seat on turn in deal ``deal_no`` once the bots moved (None: the deal
    is over)."""
    for _ in range(2000):
        match = room.match
        assert match is not None
        if match.is_over or match.deal_no != deal_no:
            return None
        due = sorted(set(match.to_act()) & people)
        if due and not room.lock.locked():
            return due[0]
        await asyncio.sleep(0.005)
    raise AssertionError("the bots did not move")


async def _play_a_deal(service: RoomService, room: Room, people: set[int],
                       rng: random.Random, drawn: bool) -> list[tuple[int, int, dict, list, str]]:
    """People play deal 1 at random; ``drawn``: their table is drawn before each move
    (as a socket's is), else they move without (as an API client may). Returns what
    each decided, as (seq, seat, view, legal, chosen)."""
    made = []
    deal = room.match.deal_no if room.match is not None else 0
    while (seat := await _people_turn(room, people, deal)) is not None:
        if drawn:
            state = table_state(room)
            own = seat_state(room, seat, state.holding, state.status)
            view, legal = own.view, own.legal
        else:
            view, legal = room.match.view(seat), room.match.legal_actions(seat)
        action = rng.choice(legal)
        made.append((room.version + 1, seat, view, list(legal), action))
        await service.act(room.id, seat, action, room.version)
    return made


def _without_earlier_deals(view: dict) -> dict:
    return {k: v for k, v in view.items() if k not in ("last_deal", "results")}


def test_people_s_decisions_are_written_with_the_deal_s_end_and_bots_are_not(
        db_url: str) -> None:
    url = db_url

    async def scenario() -> None:
        service = RoomService(Database(url), bot_delay_ms=0)
        room, host = await service.create(game="schafkopf", options={"dealer": 3, **NO_PAUSES})
        await service.join(room.id, "Anna")
        await service.add_bot(room.id, host, "easy")
        await service.join(room.id, "Cilli")
        await service.add_bot(room.id, host, "easy")
        people = {0, 2}
        assert all(room.seats[s].is_bot for s in (1, 3))  # type: ignore[union-attr]
        await service.start(room.id, host)
        made = await _play_a_deal(service, room, people, random.Random(4), drawn=True)
        assert room.match is not None and room.match.deal_no == 2
        assert room.decisions == [], "the written deal's decisions left memory"
        log = {a.seq: a for a in await service.db.run(repo.action_log, match_id=room.id)}
        for seat in (0, 2):
            got = await service.db.run(repo.deal_decisions, match_id=room.id, deal_no=1,
                                       seat=seat)
            assert got is not None and got.complete and got.review is None
            mine = [m for m in made if m[1] == seat]
            assert [(p["seq"], p["legal"], p["chosen"]) for p in got.points] == [
                (seq, legal, chosen) for seq, _, _, legal, chosen in mine]
            assert [p["view"] for p in got.points] == [
                _without_earlier_deals(view) for _, _, view, _, _ in mine]
            assert all(log[p["seq"]].seat == seat and log[p["seq"]].action == p["chosen"]
                       for p in got.points), "each is the step the action log holds"
            assert {p["holder"] for p in got.points} == {room.seats[seat].token_hash}  # type: ignore[union-attr]
        for bot in (1, 3):
            got = await service.db.run(repo.deal_decisions, match_id=room.id, deal_no=1,
                                       seat=bot)
            assert got is not None and got.points == [], "a bot's seat keeps nothing"
        assert await service.db.run(repo.deal_decisions, match_id=room.id, deal_no=2,
                                    seat=0) is None, "deal 2 is not finished"
        # half of deal 2, moved without the table drawn (the JSON API's way)
        rng = random.Random(5)
        for _ in range(3):
            seat = await _people_turn(room, people, 2)
            assert seat is not None
            await service.act(room.id, seat, rng.choice(room.match.legal_actions(seat)),
                              room.version)
        assert len(room.decisions) == 3 and all(d.deal_no == 2 for d in room.decisions)
        # kept compressed, each in a block of Python's small-object allocator (at most
        # 512 bytes), not one of the C allocator's that a deal's pushes scatter
        assert all(sys.getsizeof(d.view) <= 512 for d in room.decisions)
        assert all(len(d.view) < len(zlib.decompress(d.view)) for d in room.decisions)
        await service.close()
        service.db.close()

        # a restart: deal 1's decisions are in the database; deal 2's first ones are lost
        again = RoomService(Database(url), bot_delay_ms=0)
        await again.restore_open_rooms()
        await again.load(room.id)  # with room leases (PostgreSQL): on first use
        back = again.get(room.id)
        got = await again.db.run(repo.deal_decisions, match_id=room.id, deal_no=1, seat=2)
        assert got is not None and [p["chosen"] for p in got.points] == [
            m[4] for m in made if m[1] == 2]
        assert back.decisions_from == 3, "deal 2 lost its first decisions"
        again.connected(back, 0)
        again.connected(back, 2)
        rest = await _play_a_deal(again, back, people, random.Random(6), drawn=False)
        assert rest
        got = await again.db.run(repo.deal_decisions, match_id=room.id, deal_no=2, seat=0)
        assert got is not None and not got.complete
        assert [p["chosen"] for p in got.points] == [m[4] for m in rest if m[1] == 0]
        assert [p["view"] for p in got.points] == [
            _without_earlier_deals(m[2]) for m in rest if m[1] == 0]
        await again.close()
        again.db.close()

    run(scenario())

"""Hints on a practice table, in the room service (issue 28, :mod:`app.rooms.hints`):
the option is off by default; who may ask and when (refusals change nothing); a hint
shown is noted with the person's next move (a public ``hint`` event, durable with
the step) and listed in the deal's result; a restart rebuilds the deal's seats from
those notes; the lobby's practice table is a room with hints on and strong bots."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from sqlalchemy import update

from app.bots.pool import BotPool
from app.db import Database, repo
from app.db.models import MatchRow
from app.rooms.errors import BadRequest, Conflict, Forbidden, Illegal, Stale, Unavailable
from app.rooms.hints import used_in_deal
from app.rooms.rematch import rematch_options
from app.rooms.room import HINT_NOTE, Room
from app.rooms.service import RoomService
from app.rooms.table_options import TABLE_DEFAULTS, split_options
from tests.loops import run
from tests.rooms.test_decisions import NO_PAUSES, _people_turn


class GatedPool(BotPool):
    """A pool whose hints come from here once ``gate`` opens (no process starts); it
    notes what it was asked."""

    def __init__(self) -> None:
        super().__init__(size=1, budget_ms=20)
        self.gate = asyncio.Event()
        self.asked: list[dict[str, Any]] = []

    async def hint(self, game: str, view: dict[str, Any], legal: list[str], *,
                   memory: Any = None, budget_ms: float | None = None, seed: int,
                   optional: bool = False) -> dict[str, Any]:
        self.asked.append({"legal": legal, "memory": memory, "seed": seed,
                           "optional": optional})
        await self.gate.wait()
        options = [{"action": a, "estimate": float(-i)} for i, a in enumerate(legal)]
        return {"action": legal[0], "searched": True, "why": "", "samples": 7,
                "options": options}


def test_hints_are_a_table_option_off_by_default() -> None:
    assert TABLE_DEFAULTS["hints"] is False
    assert split_options({})[1]["hints"] is False
    assert split_options({"hints": True})[1]["hints"] is True
    with pytest.raises(ValueError):
        split_options({"hints": "perhaps"})


async def _table(service: RoomService, hints: bool = True) -> tuple[Room, str]:
    """Anna (seat 0) and Cilli (seat 2) with two easy bots, started."""
    room, host = await service.create(game="schafkopf",
                                      options={"dealer": 3, "hints": hints, **NO_PAUSES})
    await service.join(room.id, "Anna")
    await service.add_bot(room.id, host, "easy")
    await service.join(room.id, "Cilli")
    await service.add_bot(room.id, host, "easy")
    await service.start(room.id, host)
    return room, host


async def _play_out_deal(service: RoomService, room: Room, deal_no: int) -> None:
    while (seat := await _people_turn(room, {0, 2}, deal_no)) is not None:
        assert room.match is not None
        await service.act(room.id, seat, room.match.legal_actions(seat)[0], room.version)


def test_who_may_ask_for_a_hint_and_what_a_hint_shown_leaves(db_url: str) -> None:
    async def scenario() -> None:
        pool = GatedPool()
        service = RoomService(Database(db_url), bot_delay_ms=0, pool=pool)
        try:
            off, _host = await _table(service, hints=False)
            seat = await _people_turn(off, {0, 2}, 1)
            assert seat is not None
            with pytest.raises(Forbidden) as refused:
                service.hints.check(off, seat, off.version)
            assert refused.value.message == "Hints are off at this table."

            room, _host = await _table(service)
            seat = await _people_turn(room, {0, 2}, 1)
            assert seat is not None
            other = 2 - seat
            before = room.version
            with pytest.raises(Forbidden):
                service.hints.check(room, None, room.version)  # a spectator
            with pytest.raises(Illegal) as illegal:
                service.hints.check(room, other, room.version)
            assert "nothing for you to decide" in illegal.value.message
            with pytest.raises(Stale):
                service.hints.check(room, seat, room.version - 1)
            for bad in ("7", None, True, 1.5):
                with pytest.raises(BadRequest):
                    service.hints.check(room, seat, bad)
            without = RoomService(Database(db_url), bot_delay_ms=0)
            with pytest.raises(Unavailable):
                without.hints.check(room, seat, room.version)

            asked = asyncio.create_task(service.hints.ask(room, seat, room.version))
            await asyncio.sleep(0.01)
            with pytest.raises(Conflict):  # one hint for a seat at a time
                service.hints.check(room, seat, room.version)
            pool.gate.set()
            got = await asked
            assert got.seat == seat and got.version == room.version == before
            assert got.action == room.match.legal_actions(seat)[0]  # type: ignore[union-attr]
            assert pool.asked[-1]["memory"] == (room.id, seat)
            assert pool.asked[-1]["optional"] is False
            assert room.hints_used == {seat} and room.hint_pending == {seat}
            assert room.version == before, "a hint changes nothing of the match"
            # asked again (another tab, another language) at the same version: the
            # same answer at once, not a second search that may weigh differently
            asked_before = len(pool.asked)
            pool.gate.clear()
            again = await asyncio.wait_for(service.hints.ask(room, seat, room.version), 1)
            assert again == got and len(pool.asked) == asked_before
            pool.gate.set()

            # the move after it carries the note, durable with the step
            seq = room.version + 1
            await service.act(room.id, seat, room.match.legal_actions(seat)[1],  # type: ignore[union-attr]
                              room.version)
            log = await service.db.read(repo.action_log, match_id=room.id)
            mine = next(a for a in log if a.seq == seq)  # the bots may have moved on
            assert mine.seat == seat and mine.events[0] == {"type": HINT_NOTE, "seat": seat}
            assert sum(e.get("type") == HINT_NOTE for a in log for e in a.events) == 1
            assert room.hint_pending == set() and room.hints_used == {seat}

            # a hint for a table that moved on meanwhile is not shown, nor noted
            pool.gate.clear()
            nxt = await _people_turn(room, {0, 2}, 1)
            assert nxt is not None
            late = asyncio.create_task(service.hints.ask(room, nxt, room.version))
            await asyncio.sleep(0.01)
            room.changed()  # the table moved on while the bot thought
            # in the database too, as a step would (with room leases the next step's
            # write must find the version it follows: repo.record_step)
            await service.db.run(lambda session: session.execute(
                update(MatchRow).where(MatchRow.id == room.id).values(version=room.version)))
            pool.gate.set()
            with pytest.raises(Stale):
                await late
            assert room.hint_pending == set() and room.hints_used == {seat}

            # the deal's result lists who was shown a hint; the next deal starts afresh
            await _play_out_deal(service, room, 1)
            info = await service.db.read(repo.get_match, match_id=room.id)
            assert info is not None and info.deals[0].result["hints"] == [seat]
            assert room.hints_used == set()
            log = await service.db.read(repo.action_log, match_id=room.id)
            assert used_in_deal(log, 1) == {seat} and used_in_deal(log, 2) == set()
        finally:
            await service.close()
            service.db.close()
            pool.close()

    run(scenario())


def test_a_restart_rebuilds_the_deal_s_hints_from_the_notes(db_url: str) -> None:
    async def scenario() -> None:
        pool = GatedPool()
        pool.gate.set()
        service = RoomService(Database(db_url), bot_delay_ms=0, pool=pool)
        room, _host = await _table(service)
        seat = await _people_turn(room, {0, 2}, 1)
        assert seat is not None and room.match is not None
        await service.hints.ask(room, seat, room.version)
        await service.act(room.id, seat, room.match.legal_actions(seat)[0], room.version)
        await service.close()
        service.db.close()
        pool.close()

        again = RoomService(Database(db_url), bot_delay_ms=0, pool=GatedPool())
        await again.restore_open_rooms()
        await again.load(room.id)  # with room leases (PostgreSQL): on first use
        back = again.get(room.id)
        assert back.table["hints"] is True, "the option is kept with the room"
        assert back.hints_used == {seat} and back.hint_pending == set()
        again.connected(back, 0)
        again.connected(back, 2)
        await _play_out_deal(again, back, 1)
        info = await again.db.read(repo.get_match, match_id=room.id)
        assert info is not None and info.deals[0].result["hints"] == [seat]
        await again.close()
        again.db.close()

    run(scenario())


def test_a_practice_table_has_hints_and_strong_bots_in_every_other_seat(
        db_url: str) -> None:
    async def scenario() -> None:
        service = RoomService(Database(db_url), bot_delay_ms=0)
        room, host = await service.open_practice(game="mauscheln", players=5,
                                                 options={"chips": 20})
        assert room.table["hints"] is True
        bots = [s for s in room.seats if s is not None]
        assert len(bots) == 4 and all(s.is_bot and s.level == "strong" for s in bots)
        assert len(room.free_seats) == 1
        seat, _token = await service.join(room.id, "Anna")
        assert seat in range(5) and not room.free_seats
        await service.start(room.id, host)  # a newcomer starts at once
        assert room.status == "playing"
        saved = await service.db.read(repo.open_match, match_id=room.id)
        assert saved is not None and (saved.table_options or {})["hints"] is True
        # a rematch keeps it, unless the host switches it off
        assert rematch_options(room, None)[1]["hints"] is True
        assert rematch_options(room, {"hints": False})[1]["hints"] is False
        await service.close()
        service.db.close()

    run(scenario())

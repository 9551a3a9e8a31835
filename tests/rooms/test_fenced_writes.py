"""Every write a room makes is fenced with room leases, not only its steps
(``app.rooms.writes``, ``repo.fence``): a process whose lease was taken by another
writes nothing more of the room, of any kind (seats joined, a bot added or removed,
seats swapped, a seat released or taken over, ``room_state``, chat, the spectators'
switch, a rematch, shared reviews, the idle close or delete). Each refused write
leaves every row of the room as it was, changes nothing in the old process's memory,
and the room leaves that process (its pages reconnect, 1012) with 503 to the caller.

Two server processes are played as two room services on one PostgreSQL schema, as
in tests/rooms/test_room_leases.py; the first process's lease is made to run out in
the database (as a process does that missed its renewals), and the second takes
the room as a request would."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy import func, select, update
from sqlalchemy.orm import Session

from app.db import Database
from app.db.models import ChatRow, MatchRow, SeatRow, ShareRow
from app.rooms.errors import ServedElsewhere
from app.rooms.room import Room
from app.rooms.service import RoomService
from tests.loops import run
from tests.rooms.test_room_leases import two_processes

pytestmark = pytest.mark.postgres


def _rows(db: Database, room_id: str) -> dict[str, Any]:
    """Everything the database holds of a room that a room's write could change."""
    def read(session: Session) -> dict[str, Any]:
        m = session.get_one(MatchRow, room_id)
        return {
            "match": (m.status, m.version, m.room_state, m.table_options, m.next_match_id),
            "seats": [(s.seat, s.name, s.token_hash, s.is_bot, s.player_key)
                      for s in session.scalars(select(SeatRow).where(
                          SeatRow.match_id == room_id).order_by(SeatRow.seat))],
            "chat": session.scalar(select(func.count()).where(ChatRow.match_id == room_id)),
            "shares": session.scalar(select(func.count()).where(ShareRow.match_id == room_id)),
            "rematches": session.scalar(select(func.count()).where(
                MatchRow.prev_match_id == room_id)),
        }
    return db.run_sync(read)


def _run_out(db: Database, room_id: str) -> None:
    """The room's lease ran out (its holder missed its renewals)."""
    db.run_sync(lambda session: session.execute(
        update(MatchRow).where(MatchRow.id == room_id)
        .values(lease_until=func.now() - timedelta(seconds=1))))


async def _lose(a: RoomService, b: RoomService, room_id: str) -> None:
    """``a``'s lease of the room runs out and ``b`` takes the room, as a request to
    ``b`` would; ``a`` does not know yet (no renewal ran). What ``a`` writes in the
    background (``room_state``) lands first: here only the write tried afterwards is
    to meet the fence."""
    for _ in range(200):
        if (_rows(a.db, room_id)["match"][2] or {}) == a.rooms[room_id].state_written:
            break
        await asyncio.sleep(0.01)
    _run_out(a.db, room_id)
    await b.load(room_id)
    assert room_id in b.rooms and room_id in a.rooms


def _give_finished(a: RoomService, b: RoomService, room_id: str) -> None:
    """A finished room's lease is ``b``'s now (taken while it was open, then played to
    its end there): set in the database, since only an open room is taken."""
    assert b.leases is not None
    a.db.run_sync(lambda session: session.execute(
        update(MatchRow).where(MatchRow.id == room_id).values(owner=b.leases.me)))


async def _refused(a: RoomService, room: Room, write: Callable[[], Awaitable[Any]],
                   memory: Callable[[], Any]) -> None:
    """``write`` on ``a`` is refused with 503: no row of the room changes, nor what
    ``memory`` reads of ``a``'s room, and the room leaves ``a`` (handed over)."""
    before, kept = _rows(a.db, room.id), memory()
    with pytest.raises(ServedElsewhere) as refused:
        await write()
    assert refused.value.status == 503 and refused.value.retry_after == 2
    assert _rows(a.db, room.id) == before, "nothing of the room was written"
    assert memory() == kept, "nothing changed in memory"
    assert room.id not in a.rooms and room.closed and room.handed_over
    assert a.leases is not None and room.id not in a.leases.held


def _seats(room: Room) -> list[Any]:
    return [None if s is None else (s.name, s.token_hash, s.is_bot) for s in room.seats]


async def _waiting(a: RoomService) -> tuple[Room, str]:
    """A Schafkopf table on ``a`` with Anna and a bot seated, not started."""
    room, host = await a.create(game="schafkopf", options={"dealer": 3}, seed=2)
    await a.join(room.id, "Anna")
    await a.add_bot(room.id, host)
    return room, host


async def _playing(a: RoomService) -> tuple[Room, str, list[str]]:
    """A running Schafkopf table on ``a`` of four people."""
    room, host = await a.create(game="schafkopf", options={"dealer": 3}, seed=2)
    tokens = [(await a.join(room.id, n))[1] for n in ("A", "B", "C", "D")]
    await a.start(room.id, host)
    return room, host, tokens


async def _finished(a: RoomService) -> tuple[Room, str, str]:
    """A Mauscheln table of Anna and two bots that the host ended, on ``a``."""
    room, host = await a.create(game="mauscheln", players=3)
    _seat, anna = await a.join(room.id, "Anna")
    for _ in range(2):
        await a.add_bot(room.id, host)
    await a.start(room.id, host)
    await a.end_match(room.id, host)
    assert room.status == "finished"
    return room, host, anna


def test_seats_are_not_changed_by_a_process_that_lost_the_room(pg_url: str) -> None:
    async def scenario() -> None:
        async with two_processes(pg_url) as (a, b):
            room, _host = await _waiting(a)  # a person joins
            await _lose(a, b, room.id)
            await _refused(a, room, lambda: a.join(room.id, "Bert"), lambda: _seats(room))

            room, host = await _waiting(a)  # the host adds a bot
            await _lose(a, b, room.id)
            await _refused(a, room, lambda: a.add_bot(room.id, host), lambda: _seats(room))

            room, host = await _waiting(a)  # ... removes one
            await _lose(a, b, room.id)
            bot = next(s.index for s in room.seats if s is not None and s.is_bot)
            await _refused(a, room, lambda: a.remove_bot(room.id, host, bot),
                           lambda: _seats(room))

            room, host = await _waiting(a)  # ... swaps two seats
            await _lose(a, b, room.id)
            await _refused(a, room, lambda: a.swap(room.id, host, 0, 1),
                           lambda: (_seats(room), room.version))

            room, host, _tokens = await _playing(a)  # ... releases a seat
            await _lose(a, b, room.id)
            await _refused(a, room, lambda: a.release(room.id, host, 2),
                           lambda: (_seats(room), dict(room.stand_ins)))

            room, host, _tokens = await _playing(a)  # somebody takes a released seat
            await a.release(room.id, host, 2)
            await _lose(a, b, room.id)
            await _refused(a, room, lambda: a.join(room.id, "Erna"),
                           lambda: (_seats(room), dict(room.stand_ins)))

    run(scenario())


def test_room_state_chat_and_the_idle_close_are_not_written_either(pg_url: str) -> None:
    async def scenario() -> None:
        async with two_processes(pg_url) as (a, b):
            room, _host, _tokens = await _playing(a)  # the turn clock's room_state
            await _lose(a, b, room.id)
            room.stand_ins[1] = "away"  # a bot plays for Bert: saved in room_state

            async def save_state() -> None:
                running = set(a._tasks)
                a.turns.save(room)  # the write runs in the background
                await asyncio.gather(*(a._tasks - running))
                if room.closed:  # the background write's refusal, as the others say it
                    raise ServedElsewhere("left", 2)
            await _refused(a, room, save_state, lambda: dict(room.stand_ins))

            room, _host, _tokens = await _playing(a)  # a chat line
            await a.chat.post(room, 0, text="before")
            await _lose(a, b, room.id)
            shown = a.chat._logs[room.id]
            await _refused(a, room, lambda: a.chat.post(room, 0, text="after"),
                           lambda: [m.text for m in shown])

            room, host, _tokens = await _playing(a)  # the host's spectator switch
            await _lose(a, b, room.id)
            await _refused(a, room, lambda: a.chat.set_spectator_chat(room, host, True),
                           lambda: dict(room.table))

            for started in (True, False):  # the idle close, the idle delete
                room = (await _playing(a))[0] if started else (await _waiting(a))[0]
                await _lose(a, b, room.id)
                others = {r for r in a.rooms if r != room.id}
                for other in others:  # only this room is idle
                    a.rooms[other].last_left = a.clock.now() + 10**6
                a.quota.idle_seconds = a.quota.unstarted_idle_seconds = 0
                before = _rows(a.db, room.id)
                assert await a.sweep_idle() == 1  # it left, without a write
                assert _rows(a.db, room.id) == before, "not closed nor deleted"
                assert room.id not in a.rooms and room.handed_over
                assert b.get(room.id).status == before["match"][0]
                a.quota.idle_seconds = a.quota.unstarted_idle_seconds = 10**6

    run(scenario())


def test_a_finished_room_s_rematch_and_shares_are_not_written_either(pg_url: str) -> None:
    async def scenario() -> None:
        async with two_processes(pg_url) as (a, b):
            room, host, _anna = await _finished(a)  # the host's rematch
            _give_finished(a, b, room.id)
            await _refused(a, room, lambda: a.rematch(room.id, host),
                           lambda: (room.next_id, sorted(set(a.rooms) - {room.id})))

            room, _host, anna = await _finished(a)  # Anna shares her reviews
            _give_finished(a, b, room.id)
            await _refused(a, room, lambda: a.reviews.share(room.id, anna, True),
                           lambda: room.shared_reviews)

            # a room still its own is written as before
            room, host, anna = await _finished(a)
            await a.reviews.share(room.id, anna, True)
            new, opened = await a.rematch(room.id, host)
            assert opened and new.id in a.rooms and room.next_id == new.id
            assert _rows(a.db, room.id)["shares"] == 1

    run(scenario())

"""Room leases (``ROOM_LEASES``, app.rooms.leases): two server processes on one
PostgreSQL schema, played here as two room services with a database each in one
test process. Only one serves a room; the other refuses it (503); a lease not
renewed runs out and the other takes the room over from the last committed step,
nothing lost and nothing applied twice; the old holder's next step is refused by the
fence (its log row absent) and the room leaves its memory; a graceful stop hands
its rooms over at once. Without leases nothing changes (the rest of the suite)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator

import pytest

from app.db import Database, repo
from app.db.models import MatchRow
from app.rooms.errors import NotFound, ServedElsewhere
from app.rooms.service import RoomService
from tests.loops import run

pytestmark = pytest.mark.postgres


def _service(url: str, lease_seconds: float) -> RoomService:
    """One server process's room service with leases, on a database of its own."""
    return RoomService(Database(url), bot_delay_ms=0, room_leases=True,
                       lease_seconds=lease_seconds)


@contextlib.asynccontextmanager
async def two_processes(url: str, a_lease_s: float = 8.0,
                        b_lease_s: float = 8.0) -> AsyncIterator[tuple[RoomService, RoomService]]:
    """Two server processes' room services (no heartbeat runs: a test renews by
    hand), stopped as lifespan stops them."""
    a, b = _service(url, a_lease_s), _service(url, b_lease_s)
    try:
        yield a, b
    finally:
        for service in (a, b):
            await service.close()
            service.db.close()


async def _started(service: RoomService) -> tuple[str, list[str]]:
    room, host = await service.create(game="schafkopf", options={"dealer": 3}, seed=2)
    tokens = [(await service.join(room.id, n))[1] for n in ("A", "B", "C", "D")]
    await service.start(room.id, host)
    return room.id, tokens


async def _move(service: RoomService, room_id: str) -> str:
    """The first legal move of whoever may act; the action made."""
    room = service.get(room_id)
    seat = next(s for s in range(room.players) if room.state(s)["legal"])
    action = room.state(seat)["legal"][0]
    await service.act(room_id, seat, action, room.version)
    return action


def _log(db: Database, room_id: str) -> list[tuple[int, str]]:
    return [(a.seq, a.action) for a in db.run_sync(repo.action_log, match_id=room_id)]


def test_only_one_process_serves_a_room_the_other_refuses_it(pg_url: str) -> None:
    async def scenario() -> None:
        async with two_processes(pg_url) as (a, b):
            assert a.leases is not None and b.leases is not None
            assert a.leases.me != b.leases.me
            room_id, _ = await _started(a)  # made on a: its lease is a's at once
            with pytest.raises(ServedElsewhere) as refused:
                await b.load(room_id)
            assert refused.value.status == 503 and refused.value.retry_after == 2
            assert "served by another server" in refused.value.message
            assert room_id not in b.rooms
            with pytest.raises(NotFound):
                b.get(room_id)
            await a.load(room_id)  # its own: nothing happens
            assert a.get(room_id).version == 5
            await b.load("no-such-room")  # no open room: left to the 404 of get
            assert "no-such-room" not in b.rooms

    run(scenario())


def test_a_lease_not_renewed_runs_out_and_the_room_goes_on_elsewhere_fenced(
        pg_url: str) -> None:
    async def scenario() -> None:
        # b's refusal waits HANDBACK_WAIT_S (1 s) for a to hand the room over, which
        # a, listening to nobody, does not: a lease of 2 s is still live then
        async with two_processes(pg_url, a_lease_s=2.0) as (a, b):
            room_id, _ = await _started(a)
            made = [await _move(a, room_id) for _ in range(3)]
            old = a.get(room_id)
            with pytest.raises(ServedElsewhere):  # a's lease is live
                await b.load(room_id)
            await asyncio.sleep(1.3)  # a renews nothing (no heartbeat runs): it ran out
            await b.load(room_id)
            taken = b.get(room_id)
            assert taken.version == old.version, "from the last committed step"
            assert taken.match is not None and old.match is not None
            assert taken.match.snapshot_json() == old.match.snapshot_json()
            assert [action for _, action in _log(b.db, room_id)][-3:] == made
            # a does not know yet: its next step is refused by the fence
            with pytest.raises(ServedElsewhere):
                await _move(a, room_id)
            assert room_id not in a.rooms and old.closed and old.handed_over
            seqs = [seq for seq, _ in _log(b.db, room_id)]
            assert seqs == list(range(seqs[0], taken.version + 1)), "a's step not there"
            # b goes on from where the table was: its step lands as the next one
            following = await _move(b, room_id)
            logged = _log(b.db, room_id)
            assert logged[-1] == (taken.version, following)
            assert [seq for seq, _ in logged] == list(range(seqs[0], taken.version + 1))
            saved = b.db.run_sync(repo.open_match, match_id=room_id)
            assert saved is not None and saved.version == taken.version

    run(scenario())


def test_the_heartbeat_finds_a_room_taken_over_and_lets_it_go(pg_url: str) -> None:
    async def scenario() -> None:
        async with two_processes(pg_url, a_lease_s=1.0) as (a, b):
            assert a.leases is not None
            room_id, _ = await _started(a)
            await a.leases.renew()  # renewed: still a's
            assert room_id in a.rooms and room_id in a.leases.held
            await asyncio.sleep(1.3)
            await b.load(room_id)
            room = a.get(room_id)
            await a.leases.renew()  # the answer lacks the room: it was taken over
            assert room_id not in a.rooms and room.handed_over
            assert room_id not in a.leases.held

    run(scenario())


def test_a_graceful_stop_hands_its_rooms_over_at_once(pg_url: str) -> None:
    async def scenario() -> None:
        async with two_processes(pg_url) as (a, b):
            room_id, _ = await _started(a)
            made = await _move(a, room_id)
            room = a.get(room_id)
            await a.close()  # lifespan's shutdown: every lease given up
            assert room.closed and room.handed_over
            await b.load(room_id)  # at once, not after LEASE_SECONDS
            assert b.get(room_id).version == room.version
            assert _log(b.db, room_id)[-1] == (room.version, made)
            await _move(b, room_id)

    run(scenario())


def test_a_group_of_steps_refuses_only_the_fenced_one(
        pg_url: str, caplog: pytest.LogCaptureFixture) -> None:
    """Steps of several rooms in one commit: the one whose room was taken over is
    refused, with its log row; the others land (the group is written again step by
    step)."""
    caplog.set_level(logging.INFO, "stammtisch.db")

    async def scenario() -> None:
        async with two_processes(pg_url, a_lease_s=1.0) as (a, b):
            kept, _ = await _started(a)
            lost, _ = await _started(a)
            await asyncio.sleep(1.3)
            assert a.leases is not None
            await a.leases.take(kept)  # both ran out; a takes ``kept``'s again
            await b.load(lost)
            before = {r: len(_log(a.db, r)) for r in (kept, lost)}
            results = await asyncio.gather(_move(a, kept), _move(a, lost),
                                           return_exceptions=True)
            assert isinstance(results[0], str)
            assert isinstance(results[1], ServedElsewhere)
            assert len(_log(a.db, kept)) == before[kept] + 1
            assert len(_log(a.db, lost)) == before[lost], "its log row did not land"
            assert kept in a.rooms and lost not in a.rooms
            assert "a group of 2 steps failed (1 of 2 steps refused" in caplog.text

    run(scenario())


def test_a_room_that_leaves_memory_idle_gives_its_lease_up(pg_url: str) -> None:
    def owner(db: Database, room_id: str) -> str | None:
        return db.run_sync(lambda session: session.get(MatchRow, room_id).owner)

    async def scenario() -> None:
        async with two_processes(pg_url) as (a, _b):
            assert a.leases is not None
            room_id, _ = await _started(a)
            assert owner(a.db, room_id) == a.leases.me
            a.quota.idle_seconds = 0  # nobody's page is open: idle at once
            assert await a.sweep_idle() == 1
            assert room_id not in a.rooms and room_id not in a.leases.held
            assert owner(a.db, room_id) is None

    run(scenario())

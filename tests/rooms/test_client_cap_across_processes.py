"""With room leases the cap on open rooms per client (``MAX_ROOMS_PER_CLIENT``) holds
over every server process: it is counted in the database (``repo.rooms_opened_by``),
not in one process's memory, since behind a proxy a client's rooms are opened on
any process and move to the one their id is routed to. A rematch takes its room's
place; a room that left memory, or whose process died, counts no more. Two server
processes are played as two room services on one PostgreSQL schema, as in
tests/rooms/test_room_leases.py."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import func, update

from app.db.models import MatchRow
from app.rooms.errors import TooMany
from app.rooms.room import Room
from app.rooms.service import RoomService
from tests.loops import run
from tests.rooms.test_room_leases import two_processes

pytestmark = pytest.mark.postgres
ANNA, BERT = "203.0.113.7", "2001:db8:1:200::/56"


async def _open(service: RoomService, client: str) -> tuple[Room, str]:
    return await service.create(game="mauscheln", players=3, client=client)


async def _finish(service: RoomService, room: Room, host: str) -> None:
    await service.join(room.id, "Anna")
    for _ in range(2):
        await service.add_bot(room.id, host)
    await service.start(room.id, host)
    await service.end_match(room.id, host)


def test_the_cap_per_client_counts_the_rooms_of_every_process(pg_url: str) -> None:
    async def scenario() -> None:
        async with two_processes(pg_url) as (a, b):
            for service in (a, b):
                service.quota.max_rooms_per_client = 3
            first, host = await _open(a, ANNA)
            await _open(b, ANNA)
            await _open(b, BERT)  # another client's counts for them
            last, _host = await _open(a, ANNA)  # Anna's third, on either process
            for service in (a, b):
                with pytest.raises(TooMany) as refused:
                    await _open(service, ANNA)
                assert refused.value.status == 429 and refused.value.retry_after == 60
                assert "3 tables opened from your address are still open" in str(
                    refused.value)
            await _open(b, BERT)  # Bert still may
            assert sum(r.opened_by == ANNA for r in a.rooms.values()) == 2, (
                "each process alone would have let her open more")

            # a rematch takes its room's place: still three
            await _finish(a, first, host)
            new, opened = await a.rematch(first.id, host)
            assert opened and new.id in a.rooms
            with pytest.raises(TooMany):
                await _open(b, ANNA)

            # a room that leaves memory counts no more
            a.quota.unstarted_idle_seconds = 0
            for other in a.rooms.values():
                other.last_left = a.clock.now() + 10**6  # only ``last`` is idle
            last.last_left = 0.0
            assert await a.sweep_idle() == 1 and last.id not in a.rooms
            await _open(b, ANNA)  # her third again
            with pytest.raises(TooMany):
                await _open(a, ANNA)

            # nor the rooms of a process that died, once their leases ran out
            assert b.leases is not None
            held = sorted(b.leases.held)
            b.db.run_sync(lambda session: session.execute(
                update(MatchRow).where(MatchRow.id.in_(held))
                .values(lease_until=func.now() - timedelta(seconds=1))))
            await _open(a, ANNA)

    run(scenario())

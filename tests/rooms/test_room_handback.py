"""The handback of a room between server processes (``ROOM_LEASES``,
app.rooms.leases): a process asked for a room another live process holds asks it to
let go (NOTIFY) and takes it over within a moment, from the last committed step,
with nothing lost or applied twice; the old holder's pages are told to reconnect. A
holder that does not answer (dead, or not listening) keeps the room until its lease
runs out: the request is refused after HANDBACK_WAIT_S. Two room services with a
database each on one PostgreSQL schema stand for two processes."""

from __future__ import annotations

import asyncio
import time

import pytest

from app.rooms import leases
from app.rooms.errors import ServedElsewhere
from tests.rooms.test_room_leases import _log, _move, _started, run, two_processes

pytestmark = pytest.mark.postgres


def test_a_room_asked_for_elsewhere_is_handed_over_at_once(pg_url: str) -> None:
    async def scenario() -> None:
        async with two_processes(pg_url) as (a, b):
            assert a.leases is not None and b.leases is not None
            listening = asyncio.create_task(a.leases.listen())
            try:
                await asyncio.wait_for(a.leases.listening.wait(), 10)
                room_id, _ = await _started(a)  # opened on a, asked for on b
                made = [await _move(a, room_id) for _ in range(3)]
                old = a.get(room_id)
                began = time.monotonic()
                # several requests at once: one wait, one take
                await asyncio.gather(*(b.load(room_id) for _ in range(5)))
                took = time.monotonic() - began
                assert took < leases.HANDBACK_WAIT_S, took
                assert room_id in b.rooms and room_id not in a.rooms
                assert old.closed and old.handed_over, "a's pages reconnect (1012)"
                assert room_id not in a.leases.held and room_id in b.leases.held
                taken = b.get(room_id)
                assert taken.version == old.version
                before = taken.version
                assert [action for _, action in _log(b.db, room_id)][-3:] == made
                following = await _move(b, room_id)
                logged = _log(b.db, room_id)
                assert logged[-1] == (before + 1, following)
                seqs = [seq for seq, _ in logged]
                assert seqs == list(range(seqs[0], seqs[0] + len(seqs)))
                # and back again, the same way, when a is asked
                listening_b = asyncio.create_task(b.leases.listen())
                try:
                    await asyncio.wait_for(b.leases.listening.wait(), 10)
                    await a.load(room_id)
                    assert room_id in a.rooms and room_id not in b.rooms
                    assert a.get(room_id).version == before + 1
                finally:
                    listening_b.cancel()
            finally:
                listening.cancel()

    run(scenario())


def test_a_holder_that_does_not_answer_keeps_the_room_until_its_lease_runs_out(
        pg_url: str) -> None:
    async def scenario() -> None:
        async with two_processes(pg_url, a_lease_s=3.0) as (a, b):
            room_id, _ = await _started(a)  # a hears nothing (no listener): as if dead
            began = time.monotonic()
            with pytest.raises(ServedElsewhere) as refused:
                await b.load(room_id)
            waited = time.monotonic() - began
            assert leases.HANDBACK_WAIT_S <= waited < leases.HANDBACK_WAIT_S + 1, waited
            assert refused.value.retry_after == leases.RETRY_AFTER_S
            assert room_id in a.rooms and room_id not in b.rooms

    run(scenario())


def test_a_process_does_not_hand_over_what_it_asked_for_itself(pg_url: str) -> None:
    """A process hears its own NOTIFY too, maybe after it took the room meanwhile."""
    async def scenario() -> None:
        async with two_processes(pg_url) as (a, b):
            assert a.leases is not None and b.leases is not None
            room_id, _ = await _started(a)
            a.leases.heard(f"{room_id} {a.leases.me}")
            await asyncio.sleep(0.2)
            assert room_id in a.rooms and room_id in a.leases.held
            a.leases.heard(f"{room_id} {b.leases.me}")  # b asks: a lets go
            for _ in range(50):
                if room_id not in a.rooms:
                    break
                await asyncio.sleep(0.05)
            assert room_id not in a.rooms and room_id not in a.leases.held

    run(scenario())

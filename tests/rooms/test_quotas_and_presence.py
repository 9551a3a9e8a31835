"""Rooms on a server anyone can reach: a match needs a person, bots pause while no
seated person is at the table, only seated people keep a room alive, never-started
rooms are deleted when idle, the number of open rooms is capped, and look-alike
names are one name. Time moves with the ManualClock."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy import update

from app.db import Database, repo
from app.db.models import MatchRow
from app.rooms import presence
from app.rooms.clock import ManualClock
from app.rooms.errors import BadRequest, TooMany
from app.rooms.service import RoomService, clean_name
from tests.conftest import migrate
from tests.rooms.test_service_durability import run

AWAY = 45


@pytest.fixture
def service(tmp_path: Path) -> RoomService:
    url = f"sqlite:///{tmp_path / 'quota.db'}"
    migrate(url)
    svc = RoomService(Database(url), bot_delay_ms=10, clock=ManualClock(start=0.0))
    svc.quota.idle_seconds = 600
    svc.quota.unstarted_idle_seconds = 120
    return svc


async def tick(clock: ManualClock, times: int, seconds: float = 1.0) -> None:
    """Move the clock on, letting the database thread finish each write."""
    for _ in range(times):
        await clock.advance(seconds)
        await asyncio.sleep(0.02)


def _clock(service: RoomService) -> ManualClock:
    assert isinstance(service.clock, ManualClock)
    return service.clock


def test_a_match_needs_a_person_in_a_seat(service: RoomService) -> None:
    async def scenario() -> None:
        room, host = await service.create(game="mauscheln", players=3)
        for _ in range(3):
            await service.add_bot(room.id, host)
        with pytest.raises(BadRequest) as refused:
            await service.start(room.id, host)
        assert "at least one person" in refused.value.message
        assert room.match is None and room.version == 3
        service.db.close()

    run(scenario())


def test_bots_pause_while_nobody_seated_is_here_and_go_on_when_one_is(
        service: RoomService) -> None:
    async def scenario() -> None:
        clock = _clock(service)
        # dealer 0: seat 1 (a bot) leads; Anna (seat 0) plays last in the trick
        room, host = await service.create(game="schafkopf", options={"dealer": 0}, seed=3)
        await service.join(room.id, "Anna")
        for _ in range(3):
            await service.add_bot(room.id, host)
        await clock.advance(AWAY + 1)  # Anna has no page open and made no API call
        assert not presence.humans_present(room)
        await service.start(room.id, host)
        started = room.version
        await tick(clock, 20)
        assert room.version == started, "no bot moved while nobody was at the table"
        presence.seen(room, 0)  # Anna reads her table over the API
        service.bots.wake(room)
        await tick(clock, 20)
        assert room.version == started + 3, "the three bots played up to Anna's turn"
        assert room.state(0)["legal"], "and now it is Anna's turn"
        # a page (socket) keeps her here however long she thinks
        room.arrive(0)
        await clock.advance(10 * AWAY)
        assert presence.humans_present(room)
        room.leave(0)
        service.db.close()

    run(scenario())


def test_only_seated_people_keep_a_room_alive(service: RoomService) -> None:
    async def scenario() -> None:
        clock = _clock(service)
        room, host = await service.create(game="schafkopf", seed=1)
        await service.join(room.id, "Anna")
        for _ in range(3):
            await service.add_bot(room.id, host)
        await service.start(room.id, host)
        told: list[bool] = []
        room.listeners.add(lambda r: told.append(r.closed))  # a spectator's socket
        room.arrive(0)  # Anna's page
        await tick(clock, 20)  # the bots play up to Anna's turn (each move written)
        assert room.state(0)["legal"], "nothing is in flight: it is Anna's turn"
        await clock.advance(2 * service.quota.idle_seconds)
        assert await service.sweep_idle() == 0, "Anna's open page keeps the room"
        room.leave(0)
        await clock.advance(service.quota.idle_seconds + AWAY)
        assert await service.sweep_idle() == 1, "the spectator does not keep it"
        assert room.closed and room.id not in service.rooms
        assert told and told[-1] is True, "the spectator's socket hears that it closed"
        assert await service.db.read(repo.match_status, match_id=room.id) == "closed"
        service.db.close()

    run(scenario())


def test_a_never_started_room_is_deleted_when_idle(service: RoomService) -> None:
    async def scenario() -> None:
        clock = _clock(service)
        room, _ = await service.create(game="schafkopf")
        await service.join(room.id, "Anna")
        presence.seen(room, 0)
        await clock.advance(AWAY + service.quota.unstarted_idle_seconds / 2)
        assert await service.sweep_idle() == 0
        await clock.advance(service.quota.unstarted_idle_seconds)
        assert await service.sweep_idle() == 1
        assert await service.db.read(repo.match_status, match_id=room.id) is None
        assert await service.db.read(repo.get_match, match_id=room.id) is None
        service.db.close()

    run(scenario())


def test_a_restart_deletes_stale_never_started_rooms_instead_of_restoring_them(
        service: RoomService) -> None:
    async def scenario() -> None:
        old, _ = await service.create(game="schafkopf")
        fresh, _ = await service.create(game="schafkopf")
        stamp = repo.now() - timedelta(seconds=service.quota.unstarted_idle_seconds + 60)

        def age(session: repo.Session) -> None:
            session.execute(update(MatchRow).where(MatchRow.id == old.id)
                            .values(last_active=stamp))

        await service.db.run(age)
        again = RoomService(service.db, bot_delay_ms=0, clock=ManualClock())
        again.quota.unstarted_idle_seconds = service.quota.unstarted_idle_seconds
        assert await again.restore_open_rooms() == 1
        assert set(again.rooms) == {fresh.id}
        assert await service.db.read(repo.match_status, match_id=old.id) is None
        service.db.close()

    run(scenario())


def test_the_number_of_open_rooms_is_capped(service: RoomService) -> None:
    async def scenario() -> None:
        service.quota.max_open_rooms = 2
        await service.create(game="schafkopf")
        await service.create(game="schafkopf")
        with pytest.raises(TooMany) as refused:
            await service.create(game="schafkopf")
        assert refused.value.status == 429
        assert "as many open tables" in refused.value.message
        assert len(service.rooms) == 2
        service.db.close()

    run(scenario())


def test_look_alike_names_are_one_name(service: RoomService) -> None:
    assert clean_name("\uff21nna") == "Anna"  # fullwidth A
    assert clean_name("  Ｂｅｒｔ  ") == "Bert"
    for bad in ("An\u200bna", "\u202eanna", "A\x00"):  # zero width, bidi override, NUL
        with pytest.raises(BadRequest):
            clean_name(bad)

    async def scenario() -> None:
        room, _ = await service.create(game="schafkopf")
        await service.join(room.id, "Anna")
        for twin in ("\uff21nna", "ANNA", "anna"):
            with pytest.raises(BadRequest) as refused:
                await service.join(room.id, twin)
            assert "already has that name" in refused.value.message
        assert room.names() == ["Anna", None, None, None]
        service.db.close()

    run(scenario())


def test_manual_clock_has_no_sleepers_left_after_bots_pause(service: RoomService) -> None:
    """A paused bot driver ends instead of polling (a bot-only table costs nothing)."""
    async def scenario() -> None:
        clock = _clock(service)
        room, host = await service.create(game="schafkopf", options={"dealer": 0}, seed=3)
        await service.join(room.id, "Anna")
        for _ in range(3):
            await service.add_bot(room.id, host)
        await clock.advance(AWAY + 1)
        await service.start(room.id, host)
        await tick(clock, 5)
        assert clock.sleeping == 0
        service.db.close()

    run(scenario())

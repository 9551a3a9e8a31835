"""Rooms on a server anyone can reach: a match needs a person, bots pause while no
seated person is at the table, only seated people keep a room alive, never-started
rooms are deleted when idle, the number of open rooms is capped, and look-alike
names are one name. Time moves with the ManualClock."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy import update

from app.db import Database, repo
from app.db.models import MatchRow
from app.rooms import presence
from app.rooms.chat import TableChat
from app.rooms.clock import ManualClock
from app.rooms.errors import BadRequest, TooMany
from app.rooms.room import Room
from app.rooms.service import RoomService, clean_name
from tests.conftest import migrate
from tests.loops import run

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


# ----- what keeps a room alive (issue 25 item 4) -------------------------------------
async def _sweep_until_gone(service: RoomService, room_id: str, every: float, times: int,
                            between: Callable[[], Awaitable[None]]) -> float | None:
    """Move the clock on by ``every`` seconds ``times`` times, doing ``between`` each
    time and sweeping; the clock time at which the room left memory, or None."""
    clock = _clock(service)
    for _ in range(times):
        await clock.advance(every)
        await asyncio.sleep(0.02)
        if room_id not in service.rooms:
            return clock.now()
        await between()
        await service.sweep_idle()
        if room_id not in service.rooms:
            return clock.now()
    return None


def test_what_is_done_over_the_api_does_not_keep_a_waiting_room(
        service: RoomService) -> None:
    """The issue's case: with away_seconds 600 one API join counted as somebody at the
    table for 10 minutes (then the idle limit began), and a view every 10 minutes, or
    the host seating and removing a bot, kept the room for ever."""
    async def scenario() -> None:
        room, host = await service.create(game="schafkopf", options={"away_seconds": 600})
        seat, _token = await service.join(room.id, "Anna")

        async def busy() -> None:
            service.seen(room, seat)  # GET /view with her seat token
            bot = await service.add_bot(room.id, host)
            await service.remove_bot(room.id, host, bot)

        gone = await _sweep_until_gone(service, room.id, 30, 40, busy)
        limit = service.quota.unstarted_idle_seconds
        assert gone is not None, "never swept: the API kept the room"
        assert limit < gone <= limit + 30, "gone once the limit passed after its opening"
        assert await service.db.read(repo.get_match, match_id=room.id) is None
        service.db.close()

    run(scenario())


def test_the_hosts_own_page_keeps_a_waiting_room_until_it_closes(
        service: RoomService) -> None:
    async def scenario() -> None:
        clock = _clock(service)
        room, _host = await service.create(game="schafkopf")
        service.connected(room, None, host=True)  # the host waits for friends, unseated
        service.connected(room, None)  # somebody else looking: keeps nothing
        await clock.advance(10 * service.quota.unstarted_idle_seconds)
        assert await service.sweep_idle() == 0, "the host's open page keeps it"
        service.disconnected(room, None, host=True)
        await clock.advance(service.quota.unstarted_idle_seconds / 2)
        assert await service.sweep_idle() == 0, "counted from the page's closing"
        await clock.advance(service.quota.unstarted_idle_seconds / 2 + 1)
        assert await service.sweep_idle() == 1
        service.db.close()

    run(scenario())


async def _playing(service: RoomService, **options: object) -> tuple[Room, str]:
    """Anna and three bots, started; Anna's page opens and the bots play up to her
    turn, then her page closes (dealer 0: seat 1 leads)."""
    room, host = await service.create(game="schafkopf", seed=3,
                                      options={"dealer": 0, **options})
    await service.join(room.id, "Anna")
    for _ in range(3):
        await service.add_bot(room.id, host)
    await service.start(room.id, host)
    service.connected(room, 0)
    await tick(_clock(service), 20)
    assert room.state(0)["legal"], "the bots played up to Anna's turn"
    return room, host


def test_a_paused_table_stays_while_its_page_is_open_and_a_while_after(
        service: RoomService) -> None:
    """A table paused for dinner, its pages open, is never closed; once the pages close
    it keeps its place ROOM_IDLE_MINUTES from then (not from the last move)."""
    async def scenario() -> None:
        clock = _clock(service)
        room, _host = await _playing(service)
        await clock.advance(10 * service.quota.idle_seconds)
        assert await service.sweep_idle() == 0, "an open page keeps the table"
        service.disconnected(room, 0)  # the laptop's lid closed
        await clock.advance(service.quota.idle_seconds / 2)
        assert await service.sweep_idle() == 0, "counted from the page's closing"
        service.connected(room, 0)  # back after dinner
        await clock.advance(3 * service.quota.idle_seconds)
        assert await service.sweep_idle() == 0
        service.disconnected(room, 0)
        await clock.advance(service.quota.idle_seconds + 1)
        assert await service.sweep_idle() == 1
        assert await service.db.read(repo.match_status, match_id=room.id) == "closed"
        service.db.close()

    run(scenario())


def test_reading_and_chatting_over_the_api_does_not_keep_a_match_nobody_plays(
        service: RoomService) -> None:
    """A seat's view every 10 minutes (away_seconds 600) keeps Anna present, so the
    bots would play on, but not the room: with no page open and nothing played it is
    closed ROOM_IDLE_MINUTES after the last step. Chat lines do not keep it either."""
    async def scenario() -> None:
        service.chat = TableChat(service.db, rate="100/second")  # the clock is manual
        room, _host = await _playing(service, away_seconds=600)
        service.disconnected(room, 0)
        last_step = _clock(service).now()

        async def reads() -> None:
            service.seen(room, 0)
            await service.chat.post(room, 0, text="still here")

        gone = await _sweep_until_gone(service, room.id, 60, 40, reads)
        assert gone is not None, "the view and the chat kept the room"
        assert gone - last_step <= service.quota.idle_seconds + 60
        assert await service.db.read(repo.match_status, match_id=room.id) == "closed"
        service.db.close()

    run(scenario())


async def _finished(service: RoomService, client: str | None = None) -> tuple[Room, str]:
    """A Mauscheln table of Anna and two bots that the host ended."""
    room, host = await service.create(game="mauscheln", players=3, client=client)
    await service.join(room.id, "Anna")
    for _ in range(2):
        await service.add_bot(room.id, host)
    await service.start(room.id, host)
    await service.end_match(room.id, host)
    assert room.status == "finished"
    return room, host


def test_a_finished_table_nobody_has_open_leaves_memory_sooner(
        service: RoomService) -> None:
    async def scenario() -> None:
        clock = _clock(service)
        room, _host = await _finished(service)
        watched, _host = await _finished(service)
        service.connected(watched, 0)  # the result on Anna's screen
        await clock.advance(service.quota.unstarted_idle_seconds + 1)
        assert await service.sweep_idle() == 1, "not ROOM_IDLE_MINUTES: it is over"
        assert room.id not in service.rooms
        assert await service.db.read(repo.match_status, match_id=room.id) == "finished"
        await clock.advance(10 * service.quota.idle_seconds)
        assert await service.sweep_idle() == 0, "an open page keeps the result on show"
        service.disconnected(watched, 0)
        await clock.advance(service.quota.unstarted_idle_seconds + 1)
        assert await service.sweep_idle() == 1
        service.db.close()

    run(scenario())


def test_the_rooms_one_client_has_open_are_capped(service: RoomService) -> None:
    """Waiting, played and finished rooms count for the client that opened them; a
    rematch takes its table's place; a room that left memory counts no more."""
    async def scenario() -> None:
        clock = _clock(service)
        service.quota.max_rooms_per_client = 2
        finished, host = await _finished(service, client="198.51.100.7")
        waiting, _ = await service.create(game="schafkopf", client="198.51.100.7")
        with pytest.raises(TooMany) as refused:
            await service.create(game="schafkopf", client="198.51.100.7")
        assert refused.value.status == 429 and refused.value.retry_after
        assert refused.value.message.startswith("2 tables opened from your address are "
                                                "still open, as many as one address")
        assert len(service.rooms) == 2
        await service.create(game="schafkopf", client="203.0.113.9")  # somebody else
        await service.create(game="schafkopf")  # nobody's (not counted for anybody)
        rematch, _fresh = await service.rematch(finished.id, host)
        assert rematch.opened_by == "198.51.100.7"
        with pytest.raises(TooMany):  # the rematch counts instead of the finished one
            await service.create(game="schafkopf", client="198.51.100.7")
        await clock.advance(service.quota.unstarted_idle_seconds + 1)
        await service.sweep_idle()
        assert waiting.id not in service.rooms and rematch.id in service.rooms
        await service.create(game="schafkopf", client="198.51.100.7")
        service.db.close()

    run(scenario())

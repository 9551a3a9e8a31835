"""Nobody stalls a table, and people can follow it: the away rule, the turn clock,
the host releasing a seat and somebody taking it over, seat choice, the trick pause
and the held result of a deal. Time moves on a ManualClock, never by sleeping."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from app.db import Database, repo
from app.rooms.clock import ManualClock
from app.rooms.errors import BadRequest, Conflict, Forbidden, Stale
from app.rooms.pacing import pause_left, waiting_for
from app.rooms.room import Room
from app.rooms.service import RoomService
from app.rooms.turns import clock_left, movers
from tests.conftest import migrate
from tests.loops import run
from tests.rooms.test_service_durability import GatedDatabase

NAMES = ("Anna", "Bert", "Cilli", "Done")
NO_PAUSES = {"trick_pause_ms": 0, "next_deal_s": 0}


def scenario(tmp_path: Path, body: Callable[[RoomService, ManualClock], Awaitable[None]],
             *, gated: bool = False, delay_ms: int = 700) -> None:
    url = f"sqlite:///{tmp_path / 'turns.db'}"
    migrate(url)

    async def go() -> None:
        clock = ManualClock(start=100.0)
        db = GatedDatabase(url) if gated else Database(url)
        service = RoomService(db, bot_delay_ms=delay_ms, clock=clock)
        try:
            await body(service, clock)
        finally:
            await service.close()
            db.close()

    run(go())


async def seated(service: RoomService, options: dict[str, Any],
                 connected: tuple[int, ...] = (0, 1, 2, 3)) -> tuple[Room, str, list[str]]:
    """A started Schafkopf table (dealer 3: seat 0 leads) of four people; the
    ``connected`` seats have the table open."""
    room, host = await service.create(game="schafkopf", options={"dealer": 3, **options},
                                      seed=5)
    tokens = [(await service.join(room.id, n, seat=s))[1] for s, n in enumerate(NAMES)]
    for s in connected:
        service.connected(room, s)
    await service.start(room.id, host)
    return room, host, tokens


async def tick(clock: ManualClock, seconds: float, room: Room) -> None:
    """Move the clock on, then let whatever woke finish writing (database writes
    run on their own thread in real time). Tasks that were just created get to
    their first sleep before the clock moves."""
    await clock.advance(0)
    await clock.advance(seconds)
    quiet = 0
    for _ in range(400):
        if room.lock.locked():
            quiet = 0
            await asyncio.sleep(0.005)
            continue
        before = room.version
        await clock.advance(0)
        quiet = quiet + 1 if room.version == before and not room.lock.locked() else 0
        if quiet >= 3:
            return
        await asyncio.sleep(0.002)


async def logged(service: RoomService, room: Room) -> list[repo.LoggedAction]:
    return await service.db.read(repo.action_log, match_id=room.id)


async def play(service: RoomService, room: Room, seat: int | None = None) -> str:
    """The awaited seat (or ``seat``) plays its first legal card."""
    assert room.match is not None
    if seat is None:
        seat = min(room.match.to_act())
    action = room.match.legal_actions(seat)[0]
    await service.act(room.id, seat, action, room.version)
    return action


# ----- the away rule ------------------------------------------------------------------

def test_an_absent_player_is_played_for_after_away_seconds(tmp_path: Path) -> None:
    async def body(service: RoomService, clock: ManualClock) -> None:
        room, _, _ = await seated(service, {"away_seconds": 10, **NO_PAUSES},
                                  connected=(1, 2, 3))
        assert room.match is not None and room.match.to_act() == {0}
        await tick(clock, 9.5, room)
        assert room.version == 5 and not room.stand_ins, "not yet away"
        await tick(clock, 0.5, room)  # away now; the bot waits its delay like any bot
        assert room.version == 5 and movers(room) == {0: "away"}
        await tick(clock, 0.7, room)
        assert room.version == 6, "a bot played for Anna"
        assert room.stand_ins == {0: "away"}
        last = (await logged(service, room))[-1]
        assert last.seat == 0 and last.events[0] == {"type": "stand_in", "seat": 0,
                                                     "reason": "away"}
        assert room.match.to_act() == {1}
        # Bert (connected) plays; nobody plays for him
        await play(service, room)
        assert 1 not in room.stand_ins
        # Anna opens the table again: no bot plays for her any more
        service.connected(room, 0)
        assert room.stand_ins == {}

    scenario(tmp_path, body)


def test_an_absent_players_turn_that_comes_later_is_taken_over_at_once(tmp_path: Path) -> None:
    async def body(service: RoomService, clock: ManualClock) -> None:
        room, _, _ = await seated(service, {"away_seconds": 10, **NO_PAUSES},
                                  connected=(0, 2, 3))
        await tick(clock, 60, room)  # Bert (seat 1) has been away for a while
        assert room.version == 5, "nobody waits for Bert yet"
        await play(service, room, 0)
        assert room.match is not None and room.match.to_act() == {1}
        await tick(clock, 0.7, room)
        assert room.stand_ins == {1: "away"} and room.match.to_act() == {2}
        # Bert acts over the API again: he is back and plays himself next time
        service.seen(room, 1)
        assert room.stand_ins == {}

    scenario(tmp_path, body)


# ----- the turn clock ---------------------------------------------------------------

def test_the_turn_clock_runs_out_and_a_bot_plays_until_the_player_is_back(
        tmp_path: Path) -> None:
    async def body(service: RoomService, clock: ManualClock) -> None:
        room, _, _ = await seated(service, {"turn_clock": 30, **NO_PAUSES})
        left = clock_left(room)
        assert left == pytest.approx(30)
        await tick(clock, 29.9, room)
        assert room.version == 5
        await tick(clock, 0.1 + 0.7, room)
        assert room.version == 6 and room.stand_ins == {0: "clock"}
        last = (await logged(service, room))[-1]
        assert last.events[0]["reason"] == "clock"
        assert clock_left(room) == pytest.approx(30), "Bert's clock starts afresh"
        await play(service, room)  # Bert
        await play(service, room)  # Cilli
        await play(service, room)  # Done: the trick is Anna's or someone else's
        assert room.match is not None
        if room.match.to_act() == {0}:
            await tick(clock, 0.7, room)
            assert (await logged(service, room))[-1].seat == 0, "the bot goes on for her"
        await service.back(room.id, 0)  # "I'm back"
        assert 0 not in room.stand_ins

    scenario(tmp_path, body)


def test_the_turn_clock_deadline_survives_a_restart(tmp_path: Path) -> None:
    async def body(service: RoomService, clock: ManualClock) -> None:
        room, _, _ = await seated(service, {"turn_clock": 60, **NO_PAUSES})
        began = time.time()  # the wall clock when Anna's turn began
        await tick(clock, 20, room)  # (the manual clock moves, the wall clock hardly)
        await asyncio.sleep(0.05)  # the room state is written in the background
        saved = {m.id: m for m in await service.db.read(repo.open_matches)}[room.id]
        assert saved.room_state is not None
        deadline_at = saved.room_state["turn"]["deadline_at"]
        assert deadline_at == pytest.approx(began + 60, abs=2)
        later = ManualClock(start=5000.0)
        again = RoomService(service.db, bot_delay_ms=700, clock=later)
        await again.restore_open_rooms()
        back = again.get(room.id)
        again.connected(back, 0)  # Anna's page reconnects after the restart
        left = clock_left(back)
        assert left == pytest.approx(deadline_at - time.time(), abs=1)
        await tick(later, (left or 0) - 1, back)
        assert back.version == room.version, "the same deadline, not a fresh clock"
        await tick(later, 1 + 0.7, back)
        assert back.version == room.version + 1 and back.stand_ins == {0: "clock"}
        await again.close()

    scenario(tmp_path, body)


def test_a_bot_never_moves_for_a_seat_while_the_persons_own_move_is_written(
        tmp_path: Path) -> None:
    async def body(service: RoomService, clock: ManualClock) -> None:
        room, _, _ = await seated(service, {"turn_clock": 30, **NO_PAUSES})
        db = service.db
        assert isinstance(db, GatedDatabase)
        await tick(clock, 29, room)
        db.gate = asyncio.Event()
        assert room.match is not None
        mine = asyncio.create_task(
            service.act(room.id, 0, room.match.legal_actions(0)[0], room.version))
        await asyncio.sleep(0.01)
        await tick(clock, 5, room)  # the clock runs out while her move is being written
        assert not mine.done()
        db.gate.set()
        await mine
        await tick(clock, 5, room)
        log = await logged(service, room)
        anna = [e for e in log if e.seat == 0]
        assert len(anna) == 1 and all(ev.get("type") != "stand_in" for ev in anna[0].events)
        assert 0 not in room.stand_ins

    scenario(tmp_path, body, gated=True)


# ----- releasing a seat and taking it over ---------------------------------------------

def test_the_host_releases_a_seat_and_a_new_person_takes_it_over(tmp_path: Path) -> None:
    async def body(service: RoomService, clock: ManualClock) -> None:
        room, host, tokens = await seated(service, NO_PAUSES)
        with pytest.raises(Forbidden):
            await service.release(room.id, tokens[0], 1)  # a seat token is not the host's
        await play(service, room, 0)
        await service.release(room.id, host, 1)
        assert room.seat_of(tokens[1]) is None, "Bert's token stops working at once"
        assert room.stand_ins == {1: "released"}
        with pytest.raises(BadRequest):
            await service.release(room.id, host, 1)
        await tick(clock, 0.7, room)
        assert room.match is not None and room.match.to_act() == {2}, "a bot played Bert's"
        with pytest.raises(Conflict):
            await service.join(room.id, "Vroni", seat=2)
        with pytest.raises(BadRequest):
            await service.join(room.id, "anna", seat=1)  # names stay unique
        seat, token = await service.join(room.id, "Vroni", seat=1)
        assert seat == 1 and room.seat_of(token) == 1 and room.stand_ins == {}
        assert room.names()[1] == "Vroni"
        view = room.state(1)["view"]
        assert len(view["hand"]) == 7, "the seat's own cards, as the bot left them"
        rows = {s.seat: s for s in (await service.db.read(repo.open_matches))[0].seats}
        assert rows[1].name == "Vroni" and not rows[1].is_bot
        with pytest.raises(Forbidden):  # nothing left to take over
            await service.join(room.id, "Xaver")

    scenario(tmp_path, body)


# ----- choosing, swapping and freeing seats before the start -------------------------

def test_seat_choice_swap_and_removing_a_bot(tmp_path: Path) -> None:
    async def body(service: RoomService, clock: ManualClock) -> None:
        room, host = await service.create(game="schafkopf")
        assert room.teams() == [[0, 2], [1, 3]]
        assert (await service.join(room.id, "Anna", seat=2))[0] == 2
        with pytest.raises(Conflict):
            await service.join(room.id, "Bert", seat=2)
        with pytest.raises(BadRequest):
            await service.join(room.id, "Bert", seat=4)
        assert (await service.join(room.id, "Bert"))[0] == 0
        bot = await service.add_bot(room.id, host)
        assert bot == 3, "a bot sits in the team nobody sits in, from its far end"
        with pytest.raises(Forbidden):
            await service.remove_bot(room.id, "not the host", bot)
        with pytest.raises(BadRequest):
            await service.remove_bot(room.id, host, 0)  # Bert is no bot
        await service.remove_bot(room.id, host, bot)
        assert room.seats[bot] is None
        await service.swap(room.id, host, 0, 1)  # Bert moves to the free seat 1
        await service.swap(room.id, host, 1, 2)  # and changes places with Anna
        assert room.names() == [None, "Anna", "Bert", None]
        with pytest.raises(BadRequest):
            await service.swap(room.id, host, 0, 3)  # both free
        saved = {s.seat: s.name for s in (await service.db.read(repo.open_matches))[0].seats}
        assert saved == {1: "Anna", 2: "Bert"}

    scenario(tmp_path, body)


# ----- the trick pause ------------------------------------------------------------------

def test_a_finished_trick_stays_on_show_before_a_bot_leads(tmp_path: Path) -> None:
    async def body(service: RoomService, clock: ManualClock) -> None:
        room, host = await service.create(game="schafkopf",
                                          options={"dealer": 3, "trick_pause_ms": 1500},
                                          seed=11)
        await service.join(room.id, "Anna")
        for _ in range(3):
            await service.add_bot(room.id, host)
        service.connected(room, 0)
        shown: list[tuple[float, int, int]] = []  # (time, version, cards in the trick)

        def watch(r: Room) -> None:
            assert r.match is not None
            shown.append((clock.now(), r.version, len(r.match.view(None)["trick"])))

        await service.start(room.id, host)
        room.listeners.add(watch)
        for _ in range(60):  # Anna plays whenever it is her turn, bots the rest
            assert room.match is not None
            if room.match.deal_no > 1:
                break
            if 0 in room.match.to_act() and pause_left(room) == 0:
                await play(service, room, 0)
            await tick(clock, 0.1, room)
        ends = [i for i in range(1, len(shown))
                if shown[i][1] > shown[i - 1][1] and shown[i][2] == 0 and shown[i - 1][2] == 3]
        assert ends, "tricks were completed"
        for i in ends:
            at = shown[i][0]
            after = [t for t, v, n in shown if v > shown[i][1] and n > 0]
            if after:
                assert after[0] - at >= 1.5 - 1e-9, "the next card waited for the pause"

    scenario(tmp_path, body)


def test_a_card_played_during_the_pause_is_accepted_and_applied_after_it(
        tmp_path: Path) -> None:
    async def body(service: RoomService, clock: ManualClock) -> None:
        room, _, _ = await seated(service, {"trick_pause_ms": 1500, "next_deal_s": 0})
        for _ in range(4):
            await play(service, room)
        assert room.match is not None and pause_left(room) == pytest.approx(1.5)
        version = room.version
        leader = min(room.match.to_act())
        card = room.match.legal_actions(leader)[0]
        with pytest.raises(Stale):  # the version rules stay
            await service.act(room.id, leader, card, version - 1)
        assert await service.act(room.id, leader, card, version) == []
        assert room.queued == {leader: (card, version)} and room.version == version
        other = room.match.legal_actions(leader)[1]
        await service.act(room.id, leader, other, version)  # a second click replaces it
        assert room.queued == {leader: (other, version)}
        await tick(clock, 1.0, room)
        assert room.version == version, "not before the pause ends"
        await tick(clock, 0.5, room)
        assert room.version == version + 1 and not room.queued
        assert room.match.view(None)["trick"] == [{"seat": leader, "card": other[5:]}]

    scenario(tmp_path, body)


# ----- the result of a deal -------------------------------------------------------------

async def finish_deal(service: RoomService, room: Room) -> None:
    assert room.match is not None
    while room.match.deal_no == 1:
        if pause_left(room) > 0:
            clock = service.clock
            assert isinstance(clock, ManualClock)
            await tick(clock, pause_left(room), room)
        await play(service, room)


def test_the_result_stays_until_everyone_at_the_table_pressed_next_deal(
        tmp_path: Path) -> None:
    async def body(service: RoomService, clock: ManualClock) -> None:
        room, _, _ = await seated(service, {"trick_pause_ms": 1500, "next_deal_s": 15},
                                  connected=(0, 1))  # Cilli and Done play over the API
        await finish_deal(service, room)
        assert room.hold is not None and room.hold.deal_no == 1
        assert waiting_for(room) == [0, 1], "API seats are always ready"
        assert room.match is not None
        mover = min(room.match.to_act())
        version = room.version
        action = room.match.legal_actions(mover)[0]
        await service.act(room.id, mover, action, version)
        assert room.queued == {mover: (action, version)}, "queued, not refused"
        await tick(clock, 5, room)
        assert room.hold is not None
        for seat in (0, 1):
            await service.next_deal(room.id, seat)
        await tick(clock, 0, room)
        assert room.hold is None and room.version == version + 1, "applied after the wait"

    scenario(tmp_path, body)


def test_a_bot_to_move_first_goes_on_as_soon_as_everybody_pressed_next_deal(
        tmp_path: Path) -> None:
    async def body(service: RoomService, clock: ManualClock) -> None:
        # dealer 3: Anna leads deal 1; the deal moves on, so seat 1 (a bot) leads deal 2
        room, host = await service.create(
            game="schafkopf", options={"dealer": 3, "trick_pause_ms": 0, "next_deal_s": 15},
            seed=5)
        for seat, name in ((0, "Anna"), (2, "Cilli"), (3, "Done")):
            await service.join(room.id, name, seat=seat)
        assert await service.add_bot(room.id, host, "easy") == 1
        for s in (0, 2, 3):
            service.connected(room, s)
        await service.start(room.id, host)
        assert room.match is not None
        while room.match.deal_no == 1:
            if min(room.match.to_act()) == 1:
                await tick(clock, 1.0, room)  # the bot plays its card
            else:
                await play(service, room)
        assert room.hold is not None and room.match.to_act() == {1}
        await tick(clock, 2.0, room)
        version = room.version
        assert room.hold is not None and room.version == version, "the result is on show"
        for seat in (0, 2, 3):
            await service.next_deal(room.id, seat)
        await tick(clock, 0, room)
        assert room.hold is None
        await tick(clock, 1.0, room)  # its delay, not the 13 s left of the result's wait
        assert room.version == version + 1, "the bot led the next deal at once"

    scenario(tmp_path, body)


def test_the_result_stays_next_deal_s_at_most(tmp_path: Path) -> None:
    async def body(service: RoomService, clock: ManualClock) -> None:
        room, _, _ = await seated(service, {"trick_pause_ms": 0, "next_deal_s": 15})
        await finish_deal(service, room)
        assert room.hold is not None and waiting_for(room) == [0, 1, 2, 3]
        version = room.version
        await service.next_deal(room.id, 2)
        assert waiting_for(room) == [0, 1, 3]
        service.disconnected(room, 3)  # Done closes the tab: nobody waits for him
        assert waiting_for(room) == [0, 1]
        await tick(clock, 14.9, room)
        assert room.hold is not None
        await tick(clock, 0.1, room)
        assert room.hold is None and room.version == version

    scenario(tmp_path, body)


def test_a_table_without_anybody_to_press_next_deal_only_pauses_for_the_trick(
        tmp_path: Path) -> None:
    async def body(service: RoomService, clock: ManualClock) -> None:
        room, _, _ = await seated(service, {"trick_pause_ms": 1500, "next_deal_s": 15},
                                  connected=())  # four seats played over the JSON API
        await finish_deal(service, room)
        assert room.hold is None and pause_left(room) == pytest.approx(1.5)

    scenario(tmp_path, body)


def test_after_a_finished_trick_the_turn_clock_starts_when_the_pause_ends(
        tmp_path: Path) -> None:
    async def body(service: RoomService, clock: ManualClock) -> None:
        room, _, _ = await seated(service, {"turn_clock": 30, "trick_pause_ms": 1500,
                                            "next_deal_s": 0})
        for _ in range(4):
            await play(service, room)
        assert pause_left(room) == pytest.approx(1.5)
        assert clock_left(room) == pytest.approx(31.5)
        version = room.version
        await tick(clock, 31.4, room)
        assert room.version == version
        await tick(clock, 0.1 + 0.7, room)
        assert room.version == version + 1 and len(room.stand_ins) == 1

    scenario(tmp_path, body)

"""Challenge windows on a clock that tests move by hand: the next player's move
waits exactly ``challenge_ms``, a challenge in the window comes first, and the end
of a round waits for everybody, then accepts for the silent. No real sleeping."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from app.db import Database
from app.rooms.clock import ManualClock
from app.rooms.errors import Stale
from app.rooms.service import RoomService
from tests.conftest import migrate
from tests.loops import run

WINDOW_MS = 800


@pytest.fixture
def service(tmp_path: Path) -> RoomService:
    url = f"sqlite:///{tmp_path / 'windows.db'}"
    migrate(url)
    return RoomService(Database(url), bot_delay_ms=0, clock=ManualClock())


async def _table(service: RoomService, players: int = 3) -> tuple[str, list[str]]:
    room, host = await service.create(
        game="luegenbeutel", players=players,
        options={"challenge_ms": WINDOW_MS, "dealer": 0}, seed=21)
    tokens = [(await service.join(room.id, n))[1] for n in ("Anna", "Bert", "Cilli")[:players]]
    await service.start(room.id, host)
    return room.id, tokens


async def _lay_and_end(service: RoomService, room_id: str, seat: int, cards: int = 1) -> None:
    room = service.get(room_id)
    for _ in range(cards):
        lay = next(a for a in room.state(seat)["legal"] if a.startswith("lay:"))
        await service.act(room_id, seat, lay, room.version)
    await service.act(room_id, seat, "end", room.version)


def _clock(service: RoomService) -> ManualClock:
    assert isinstance(service.clock, ManualClock)
    return service.clock


def test_the_next_players_move_waits_until_the_window_closes(service: RoomService) -> None:
    async def scenario() -> None:
        room_id, _ = await _table(service)
        room = service.get(room_id)
        await _lay_and_end(service, room_id, 1)  # forehand of dealer 0
        state = room.state(2)
        assert "challenge:1" in state["legal"]
        lay = next(a for a in state["legal"] if a.startswith("lay:"))
        move = asyncio.ensure_future(service.act(room_id, 2, lay, state["version"]))
        await _clock(service).advance(WINDOW_MS / 1000 * 0.9)
        assert not move.done(), "the move went through inside the window"
        assert room.version == state["version"]
        await _clock(service).advance(WINDOW_MS / 1000 * 0.2)
        await asyncio.wait_for(move, 5)
        assert room.version == state["version"] + 1
        service.db.close()

    run(scenario())


def test_a_challenge_in_the_window_comes_before_the_held_move(service: RoomService) -> None:
    async def scenario() -> None:
        room_id, _ = await _table(service)
        room = service.get(room_id)
        await _lay_and_end(service, room_id, 1)
        state = room.state(2)
        lay = next(a for a in state["legal"] if a.startswith("lay:"))
        move = asyncio.ensure_future(service.act(room_id, 2, lay, state["version"]))
        await _clock(service).advance(WINDOW_MS / 1000 / 4)
        await service.act(room_id, 0, "challenge:1", state["version"])  # no wait
        await _clock(service).advance(WINDOW_MS / 1000)
        with pytest.raises(Stale) as held:
            await asyncio.wait_for(move, 5)
        assert "challenge came first" in held.value.message
        last = room.state(None)["view"]["last_challenge"]
        assert last["challenger"] == 0 and last["accused"] == 1
        service.db.close()

    run(scenario())


def test_the_round_end_waits_for_everybody_then_accepts_for_the_silent(
        service: RoomService) -> None:
    async def scenario() -> None:
        room_id, _ = await _table(service, players=2)
        room = service.get(room_id)
        cards = len(room.state(1)["view"]["hand"])
        await _lay_and_end(service, room_id, 1, cards)  # the whole hand in one turn
        state: dict[str, Any] = room.state(0)
        assert state["view"]["phase"] == "challenge" and "accept" in state["legal"]
        await _clock(service).advance(WINDOW_MS / 1000 * 0.5)
        assert room.state(None)["view"]["phase"] == "challenge", "closed too early"
        await _clock(service).advance(WINDOW_MS / 1000 * 0.6)
        for _ in range(100):  # the accept is written on the database thread
            if room.state(None)["view"]["phase"] != "challenge":
                break
            await asyncio.sleep(0.02)
        view = room.state(0)["view"]
        assert view["last_deal"]["winner"] == 1
        assert view["scores"][1] > 0
        service.db.close()

    run(scenario())


def test_the_manual_clock_wakes_sleepers_in_order_and_only_when_due() -> None:
    async def scenario() -> None:
        clock = ManualClock(start=0.0)
        woke: list[str] = []

        async def sleeper(name: str, seconds: float) -> None:
            await clock.sleep(seconds)
            woke.append(f"{name}@{clock.now():g}")

        tasks = [asyncio.ensure_future(sleeper("b", 2)), asyncio.ensure_future(sleeper("a", 1))]
        await asyncio.sleep(0)
        assert clock.sleeping == 2
        await clock.advance(0.5)
        assert woke == []
        await clock.advance(2)
        assert woke == ["a@1", "b@2"] and clock.now() == 2.5
        await asyncio.gather(*tasks)

    run(scenario())

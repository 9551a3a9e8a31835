"""The room service shows only what is written: while a step is being written the
room still shows the state before it, and a step that cannot be written leaves
the room exactly where it was (stopped, with a message)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import pytest

from app.db import Database, repo
from app.rooms.errors import Illegal
from app.rooms.service import RoomService
from tests.conftest import migrate
from tests.loops import run

T = TypeVar("T")


class GatedDatabase(Database):
    """A real SQLite database whose step writes can be held or made to fail."""

    def __init__(self, url: str) -> None:
        super().__init__(url)
        self.gate: asyncio.Event | None = None
        self.fail = False

    async def write(self, fn: Callable[..., T], /, **kwargs: Any) -> T:
        if fn is repo.record_step:
            if self.gate is not None:
                await self.gate.wait()
            if self.fail:
                raise OSError("disk full")
        return await super().write(fn, **kwargs)


@pytest.fixture
def service(tmp_path: Path) -> RoomService:
    url = f"sqlite:///{tmp_path / 'svc.db'}"
    migrate(url)
    return RoomService(GatedDatabase(url), bot_delay_ms=0)


async def _started(service: RoomService) -> tuple[str, list[str]]:
    room, host = await service.create(game="schafkopf", options={"dealer": 3}, seed=2)
    tokens = [(await service.join(room.id, n))[1] for n in ("A", "B", "C", "D")]
    await service.start(room.id, host)
    return room.id, tokens


def test_a_step_being_written_is_not_shown_yet(service: RoomService) -> None:
    async def scenario() -> None:
        room_id, _ = await _started(service)
        room = service.get(room_id)
        before = room.state(1)
        db = service.db
        assert isinstance(db, GatedDatabase)
        db.gate = asyncio.Event()
        legal = room.state(0)["legal"]
        move = asyncio.create_task(service.act(room_id, 0, legal[0], room.version))
        await asyncio.sleep(0.05)
        assert not move.done()
        assert room.state(1) == before, "nothing shows before it is written"
        db.gate.set()
        await move
        after = room.state(1)
        assert after["version"] == before["version"] + 1
        assert after["view"]["trick"] == [{"seat": 0, "card": legal[0][5:]}]
        db.close()

    run(scenario())


def test_a_step_that_cannot_be_written_changes_nothing(service: RoomService) -> None:
    async def scenario() -> None:
        room_id, _ = await _started(service)
        room = service.get(room_id)
        before = room.state(2)
        db = service.db
        assert isinstance(db, GatedDatabase)
        db.fail = True
        legal = room.state(0)["legal"]
        with pytest.raises(Illegal) as refused:
            await service.act(room_id, 0, legal[0], room.version)
        assert "stopped" in refused.value.message
        now = room.state(2)
        assert now["view"] == before["view"], "the unsaved move is not on the table"
        assert room.error
        saved = db.run_sync(repo.open_matches)
        assert saved[0].version == before["version"]
        db.close()

    run(scenario())


def test_bots_get_a_free_name_whatever_the_case_of_the_players(service: RoomService) -> None:
    async def scenario() -> None:
        room, host = await service.create(game="schafkopf")
        await service.join(room.id, "alois")
        seats = await asyncio.gather(*(service.add_bot(room.id, host) for _ in range(3)))
        names = [s.name for s in room.seats if s is not None]
        assert sorted(seats) == [1, 2, 3]
        assert len({n.casefold() for n in names}) == 4
        service.db.close()

    run(scenario())

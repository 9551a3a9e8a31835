"""The table's own options (the same for every game) and who counts as present."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.db import Database, repo
from app.rooms.clock import ManualClock
from app.rooms.errors import BadRequest
from app.rooms.presence import humans_present, is_away, seen
from app.rooms.room import Room, Seat
from app.rooms.service import RoomService
from app.rooms.table_options import TABLE_DEFAULTS, split_options
from tests.conftest import migrate
from tests.loops import run


def test_table_options_are_split_from_the_games_and_checked() -> None:
    game, table = split_options({"target": 7, "turn_clock": 60, "away_seconds": 30})
    assert game == {"target": 7}
    assert table == {**TABLE_DEFAULTS, "turn_clock": 60, "away_seconds": 30}
    for bad in ({"turn_clock": 45}, {"away_seconds": 5}, {"trick_pause_ms": 150},
                {"spectator_chat": "yes"}, {"next_deal_s": True}):
        with pytest.raises(ValueError):
            split_options(bad)


def test_a_room_keeps_its_table_options_across_a_restart(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'opts.db'}"
    migrate(url)

    async def scenario() -> None:
        service = RoomService(Database(url), bot_delay_ms=0)
        room, _ = await service.create(game="schafkopf",
                                       options={"target": 5, "turn_clock": 30})
        assert room.options["target"] == 5 and "turn_clock" not in room.options
        assert room.table["turn_clock"] == 30
        with pytest.raises(BadRequest):
            await service.create(game="schafkopf", options={"turn_clock": 31})
        again = RoomService(service.db, bot_delay_ms=0)
        await again.restore_open_rooms()
        assert again.get(room.id).table == room.table
        await service.db.run(repo.save_room_state, match_id=room.id, state={"k": 1})
        saved = await service.db.read(repo.open_matches)
        assert saved[0].room_state == {"k": 1}
        service.db.close()

    run(scenario())


def test_a_person_is_away_after_away_seconds_without_page_or_api_call() -> None:
    clock = ManualClock(start=0.0)
    room = Room(id="r", game="schafkopf", players=4, options={}, host_token_hash="h",
                clock=clock, table={"away_seconds": 45})
    room.seats = [Seat(0, "Anna", "a"), Seat(1, "Bot", "b", is_bot=True), None, None]
    assert not is_away(room, 0) and humans_present(room)
    clock._now = 44.0
    assert not is_away(room, 0)
    clock._now = 45.0
    assert is_away(room, 0) and not humans_present(room)
    assert not is_away(room, 1), "bots are never away"
    seen(room, 0)  # an API call
    assert not is_away(room, 0)
    room.arrive(0)  # a page opened
    clock._now = 1000.0
    assert not is_away(room, 0), "an open page keeps a person here"
    room.leave(0)
    clock._now = 1044.0
    assert not is_away(room, 0)
    clock._now = 1045.0
    assert is_away(room, 0)

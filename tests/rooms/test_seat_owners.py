"""A seat belongs to its token: when the host releases a seat or somebody takes it
over, a move the old holder sent that was still waiting for the room is not made for
the seat (the bot or the new holder plays it)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from app.rooms.clock import ManualClock
from app.rooms.errors import Forbidden
from app.rooms.room import token_hash
from app.rooms.service import RoomService
from tests.rooms.test_turns_and_pacing import NO_PAUSES, scenario


def test_a_move_waiting_for_the_room_is_not_made_once_the_seat_was_released(
        tmp_path: Path) -> None:
    async def body(service: RoomService, clock: ManualClock) -> None:
        room, host = await service.create(game="schafkopf",
                                          options={"dealer": 3, **NO_PAUSES}, seed=5)
        anna = (await service.join(room.id, "Anna", seat=0))[1]
        await service.join(room.id, "Bert", seat=1)
        for _ in range(2):
            await service.add_bot(room.id, host)
        service.connected(room, 1)
        await service.start(room.id, host)
        assert room.match is not None and room.match.to_act() == {0}
        version, card = room.version, room.match.legal_actions(0)[0]
        async with room.lock:  # the room is busy: both requests wait for it, in order
            released = asyncio.ensure_future(service.release(room.id, host, 0))
            await asyncio.sleep(0)
            move = asyncio.ensure_future(
                service.act(room.id, 0, card, version, token_hash(anna)))
            await asyncio.sleep(0)
        await released
        with pytest.raises(Forbidden, match="no longer yours"):
            await move
        assert room.version == version and not room.match.trick_plays(), "no card played"

    scenario(tmp_path, body)


"""When no person at a Mauscheln table has chips left, the bots do not play on alone:
once the last person's bust deal has been shown, the room ends the match (logged as
such, the called-off deal marked ``nobody_plays_on``). Time moves on a ManualClock."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from app.db import repo
from app.games import NOBODY_PLAYS_ON
from app.rooms.clock import ManualClock
from app.rooms.quotas import NOBODY_PLAYS_ON_ACTION, nobody_plays_on
from app.rooms.room import Room
from app.rooms.service import RoomService
from app.web import replay
from app.web.fragments import render_frame
from tests.rooms.test_turns_and_pacing import scenario, tick

# five seats, 4 chips each and a stake of 4: Anna deals first and stakes her last
# chips; she only ever passes or folds, so she is out from deal 2 on (seed 1: the
# easy bots play the same way whatever their dice, and three of them keep chips)
OPTIONS = {"chips": 4, "stake": 4, "dealer": 0}


def cautious(legal: list[str]) -> str:
    return next((a for a in ("no_knock", "pass", "fold") if a in legal), legal[0])


async def anna_and_four_bots(service: RoomService, table: dict[str, Any]) -> Room:
    room, host = await service.create(game="mauscheln", players=5,
                                      options={**OPTIONS, **table}, seed=1)
    await service.join(room.id, "Anna", seat=0)
    for seat in range(1, 5):
        await service.join(room.id, None, is_bot=True, seat=seat, level="easy")
    service.connected(room, 0)
    await service.start(room.id, host)
    return room


async def play_until(service: RoomService, clock: ManualClock, room: Room,
                     done: Any) -> None:
    """Anna plays cautiously whenever the match waits for her; the bots the rest."""
    for _ in range(400):
        match = room.match
        assert match is not None
        if done():
            return
        if match.must_act(0) and not match.is_over:
            await service.act(room.id, 0, cautious(match.legal_actions(0)), room.version)
        else:
            await tick(clock, 1.0, room)
    raise AssertionError("the table did not get there")


def test_the_match_ends_when_the_last_person_is_out_of_chips(tmp_path: Path) -> None:
    async def body(service: RoomService, clock: ManualClock) -> None:
        room = await anna_and_four_bots(service, {"trick_pause_ms": 0, "next_deal_s": 0})
        await play_until(service, clock, room,
                         lambda: room.match is not None and room.match.is_over)
        match = room.match
        assert match is not None
        view = match.view(None)
        assert view["deal_no"] == 2, "no deal was played without a person at the table"
        assert view["last_deal"]["kind"] == "cancelled"
        assert view["last_deal"]["called_off"] == NOBODY_PLAYS_ON
        assert sum(1 for c in match.scores if c > 0) >= 2, "the bots could have played on"
        assert match.scores[0] == 0 and 0 not in match.winners
        log = await service.db.read(repo.action_log, match_id=room.id)
        assert log[-1].action == NOBODY_PLAYS_ON_ACTION and log[-1].seat is None
        told = replay.build("mauscheln", log, room.names())[-1].lines  # type: ignore[arg-type]
        assert told[:2] == ["Only bots could play on, so the game ends.",
                            "Deal 2 called off: only bots were left to play on."]
        assert await service.db.read(repo.match_status, match_id=room.id) == "finished"

    scenario(tmp_path, body, delay_ms=0)


def test_the_bust_deal_is_shown_first_and_the_bots_wait(tmp_path: Path) -> None:
    async def body(service: RoomService, clock: ManualClock) -> None:
        room = await anna_and_four_bots(service, {"trick_pause_ms": 0, "next_deal_s": 20})
        await play_until(service, clock, room, lambda: room.hold is not None
                         and room.match is not None and 0 in room.match.seats_out())
        assert nobody_plays_on(room) and room.hold is not None
        page = render_frame(room, 0, False)  # what Anna's page shows meanwhile
        assert "None of you can play on any more, so the game ends in" in page
        assert "You are out of this game. You have no chips left." in " ".join(
            page.replace("<strong>", "").replace("</strong>", "").split())
        assert "Show the final result" in page and "Your cards for the next deal" not in page
        version = room.version
        await tick(clock, 5.0, room)
        assert room.version == version and room.status == "playing", \
            "the result of Anna's last deal is on show; the bots wait"
        await service.next_deal(room.id, 0)  # Anna has seen it
        await tick(clock, 0.1, room)
        assert room.status == "finished" and room.version == version + 1

    scenario(tmp_path, body, delay_ms=0)

""""Any free seat" in a game with teams: people who join one after the other sit
together as partners, for any team layout a game declares; bots fill the seats from
the other end; a chosen seat is the seat."""

from __future__ import annotations

from pathlib import Path

from app.rooms.clock import ManualClock
from app.rooms.room import Room, Seat
from app.rooms.seating import next_free_seat, partner_order
from app.rooms.service import RoomService
from tests.rooms.test_turns_and_pacing import scenario


def test_the_first_two_friends_become_partners_at_schafkopf(tmp_path: Path) -> None:
    async def body(service: RoomService, clock: ManualClock) -> None:
        room, host = await service.create(game="schafkopf")
        assert room.teams() == [[0, 2], [1, 3]]
        seats = [(await service.join(room.id, name))[0] for name in ("Anna", "Bert")]
        assert seats == [0, 2], "Anna and Bert sit opposite: partners"
        assert (await service.join(room.id, "Cilli"))[0] == 1
        assert (await service.join(room.id, "Done"))[0] == 3

    scenario(tmp_path, body)


def test_a_bot_seated_between_two_joins_leaves_the_partners_seat_free(
        tmp_path: Path) -> None:
    async def body(service: RoomService, clock: ManualClock) -> None:
        room, host = await service.create(game="schafkopf")
        assert (await service.join(room.id, "Anna"))[0] == 0
        assert [await service.add_bot(room.id, host) for _ in range(2)] == [3, 1]
        assert (await service.join(room.id, "Bert"))[0] == 2, "Anna's partner"

    scenario(tmp_path, body)


def test_a_friend_of_somebody_who_picked_a_seat_sits_with_them(tmp_path: Path) -> None:
    async def body(service: RoomService, clock: ManualClock) -> None:
        room, host = await service.create(game="schafkopf")
        assert (await service.join(room.id, "Anna", seat=1))[0] == 1
        assert (await service.join(room.id, "Bert"))[0] == 3, "Anna's partner"
        assert (await service.join(room.id, "Cilli", seat=2))[0] == 2, "as picked"
        assert (await service.join(room.id, "Done"))[0] == 0

    scenario(tmp_path, body)


def room_with_teams(players: int, teams: list[list[int]]) -> Room:
    """A waiting room whose game declares ``teams`` (any layout)."""
    room = Room(id="r", game="luegenbeutel", players=players, options={},
                host_token_hash="h")
    room.teams_cache = teams
    return room


def fill(room: Room, joins: str) -> list[int]:
    """Seat a person (``p``) or a bot (``b``) for each letter; the seats they got."""
    got = []
    for n, kind in enumerate(joins):
        seat = next_free_seat(room, is_bot=kind == "b")
        room.seats[seat] = Seat(index=seat, name=f"{kind}{n}", token_hash=str(n),
                                is_bot=kind == "b")
        got.append(seat)
    return got


def test_people_fill_any_team_layout_team_by_team() -> None:
    three_pairs = [[0, 3], [1, 4], [2, 5]]
    assert partner_order(three_pairs, 6) == [0, 3, 1, 4, 2, 5]
    assert fill(room_with_teams(6, three_pairs), "pppppp") == [0, 3, 1, 4, 2, 5]
    two_threes = [[0, 2, 4], [1, 3, 5]]
    assert fill(room_with_teams(6, two_threes), "pppppp") == [0, 2, 4, 1, 3, 5]
    # a team listed in another order, and a seat in no team (filled last by people)
    assert partner_order([[3, 1], [0, 2]], 5) == [3, 1, 0, 2, 4]
    assert fill(room_with_teams(5, [[3, 1], [0, 2]]), "ppppp") == [3, 1, 0, 2, 4]
    # bots go to the teams nobody sits in, from the far end
    assert fill(room_with_teams(6, three_pairs), "pbbpbp") == [0, 5, 2, 3, 4, 1]


def test_a_game_without_teams_fills_the_first_free_seat() -> None:
    room = room_with_teams(4, [])
    assert fill(room, "pbpb") == [0, 1, 2, 3]

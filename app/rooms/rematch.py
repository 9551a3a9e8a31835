"""Play again: the host of a finished match opens the next one with the same people.

The new room has the same game, number of players, seats (names, bots) and options,
unless the host changes some options. It keeps the host token's hash and every
seat's token hash, so each token of the old table is valid at the same seat of the
new one (the JSON API needs nothing new; browsers carry their cookies over when they
follow the link, see ``app.web.share``). Both matches are linked in the database
(``prev_match_id`` / ``next_match_id``); the old room tells its open pages where the
table went, and the new match starts at once: everybody is seated already.
"""

from __future__ import annotations

from typing import Any

from app.db import repo
from app.games import GAMES
from app.i18n import _
from app.rooms.clock import Clock
from app.rooms.errors import BadRequest, Forbidden, Unauthorized
from app.rooms.room import Room, Seat, new_room_id
from app.rooms.table_options import split_options
from app.rooms.writes import RoomWrites


def check_host(room: Room, host_token: str | None) -> None:
    """Only the host starts a rematch."""
    if not host_token:
        raise Unauthorized(_("Only the host can start a rematch."))
    if not room.is_host(host_token):
        raise Forbidden(_("Only the host can start a rematch."))


def rematch_options(room: Room, changes: dict[str, Any] | None) -> tuple[dict[str, Any],
                                                                          dict[str, Any]]:
    """``(game options, table options)`` of the next match: the room's own, with the
    host's ``changes`` on top (checked like a new room's; ValueError says why)."""
    if changes is not None and not isinstance(changes, dict):
        raise ValueError(_("Options are given as an object of names and values."))
    merged = {**room.options, **room.table, **(changes or {})}
    game_options, table = split_options(merged)
    checked = GAMES[room.game].match_class.check_options(room.players, game_options)
    return checked, table


def next_room(room: Room, changes: dict[str, Any] | None, clock: Clock) -> Room:
    """The room of the next match of the finished ``room`` (the caller holds its
    lock): the same game, seats and host, options changed by ``changes``."""
    if room.status != "finished":
        raise BadRequest(_("The match is not over yet; a rematch starts when it is."))
    try:
        options, table = rematch_options(room, changes)
    except ValueError as exc:
        raise BadRequest(str(exc)) from None
    new = Room(id=new_room_id(), game=room.game, players=room.players, options=options,
               host_token_hash=room.host_token_hash,
               # a seeded room (tests) deals a different but still known deck
               seed=None if room.seed is None else (room.seed + 1) % 2**63,
               clock=clock, table=table, prev_id=room.id,
               opened_by=room.opened_by)  # in place of the old one, for the same client
    for s in room.seats:
        if s is not None:
            new.seats[s.index] = Seat(index=s.index, name=s.name, token_hash=s.token_hash,
                                      is_bot=s.is_bot, level=s.level)
    return new


async def save_rematch(writes: RoomWrites, room: Room, new: Room) -> None:
    """Write ``new`` and link both matches (``prev_match_id`` / ``next_match_id``), a
    write of the old room's (fenced with room leases)."""
    await writes.run(
        room.id, repo.create_rematch, old_id=room.id, new_id=new.id, options=new.options,
        table_options=new.table, seed=new.seed,
        seats=[repo.SeatState(s.index, s.name, s.is_bot, s.token_hash, s.level)
               for s in new.seats if s is not None])

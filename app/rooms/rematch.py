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

import logging
from typing import Any

from app.db import repo
from app.games import GAMES
from app.i18n import _
from app.rooms.errors import BadRequest, Forbidden, RoomError, Unauthorized
from app.rooms.room import Room, Seat
from app.rooms.table_options import split_options

log = logging.getLogger("stammtisch.rooms")


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


async def open_rematch(service: Any, room_id: str, host_token: str | None,
                       changes: dict[str, Any] | None = None) -> tuple[Room, bool]:
    """The next room of ``room_id`` and whether it was opened just now (a second
    request gets the one already opened). ``service`` is the RoomService."""
    from app.rooms.service import new_room_id  # the service composes this part

    room: Room = service.get(room_id)
    if not host_token:
        raise Unauthorized(_("Only the host can start a rematch."))
    if not room.is_host(host_token):
        raise Forbidden(_("Only the host can start a rematch."))
    async with room.lock:
        if room.next_id is not None and room.next_id in service.rooms:
            return service.rooms[room.next_id], False
        if room.status != "finished":
            raise BadRequest(_("The match is not over yet; a rematch starts when it is."))
        try:
            options, table = rematch_options(room, changes)
        except ValueError as exc:
            raise BadRequest(str(exc)) from None
        seats = [Seat(index=s.index, name=s.name, token_hash=s.token_hash, is_bot=s.is_bot,
                      level=s.level) for s in room.seats if s is not None]
        new = Room(id=new_room_id(), game=room.game, players=room.players, options=options,
                   host_token_hash=room.host_token_hash,
                   # a seeded room (tests) deals a different but still known deck
                   seed=None if room.seed is None else (room.seed + 1) % 2**63,
                   clock=service.clock, table=table, prev_id=room.id,
                   opened_by=room.opened_by)  # in place of the old one, for the same client
        for seat in seats:
            new.seats[seat.index] = seat
        await service.db.run(
            repo.create_rematch, old_id=room.id, new_id=new.id, options=options,
            table_options=table, seed=new.seed,
            seats=[repo.SeatState(s.index, s.name, s.is_bot, s.token_hash, s.level)
                   for s in seats])
        service.rooms[new.id] = new
        room.next_id = new.id
    log.info("rematch opened game=%s", room.game)
    try:
        await service.start(new.id, host_token)
    except RoomError as exc:  # the new table waits for the host's start instead
        log.warning("rematch %s did not start: %s", new.id, exc.message)
    room.moved_to(new.id)
    return new, True

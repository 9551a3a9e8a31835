"""Who is at the table: a seated person is present while a page or socket of
theirs is open, or while they acted over the JSON API within ``away_seconds``
(bots play while somebody is present). Bots are always present. Only an open page
keeps a room alive (:func:`pages_open`). Everything here reads the room's clock."""

from __future__ import annotations

from app.rooms.room import Room


def seen(room: Room, seat: int) -> None:
    """The person at ``seat`` just did something (an API call, a connection that
    opened or closed): they count as here for ``away_seconds`` from now."""
    room.last_seen[seat] = room.clock.now()


def is_connected(room: Room, seat: int) -> bool:
    return bool(room.present.get(seat))


def away_at(room: Room, seat: int) -> float:
    """The clock time from which a person with no open page or socket counts as away:
    ``away_seconds`` after they were last seen."""
    return room.last_seen.get(seat, room.created) + room.table["away_seconds"]


def is_away(room: Room, seat: int) -> bool:
    """A seated person with no open page or socket and nothing done over the API
    for ``away_seconds``. Bots and free seats are never away."""
    player = room.seats[seat]
    if player is None or player.is_bot or is_connected(room, seat):
        return False
    return room.clock.now() >= away_at(room, seat)


def humans_present(room: Room) -> bool:
    """Whether at least one seated person is at the table."""
    return any(s is not None and not s.is_bot and not is_away(room, s.index)
               for s in room.seats)


def pages_open(room: Room) -> bool:
    """Whether a person has the table open: a page or socket of a seated person, or,
    before the match starts, the host's page (a host waiting for friends). This is
    what keeps a room alive (``app.rooms.quotas``); an API call does not."""
    if any(is_connected(room, s.index) for s in room.seats if s is not None and not s.is_bot):
        return True
    return room.match is None and room.host_pages > 0

"""What a server on the open internet must bound in the room layer: how many rooms
are open at once, which rooms count as idle, and that a match has a person at it.

* At most ``MAX_OPEN_ROOMS`` rooms are in memory; opening one more is refused (429)
  after the idle ones were swept.
* Only seated people keep a room alive: a room with no seated person present
  (``app.rooms.presence``: an open page or socket, or an API call within
  ``away_seconds``) is idle once ``last_active`` is older than the idle limit;
  spectators' sockets do not count. Bots pause meanwhile (``app.rooms.bot_driver``),
  so a bot-only table cannot keep itself busy.
* A room whose match never started is deleted when idle (its rows removed), after
  ``UNSTARTED_ROOM_IDLE_MINUTES``; a started one is closed as before (its finished
  deals stay in the history).
* A match in which no person can play on any more (every person's seat is out,
  ``Match.seats_out``: players without chips, say) is not played on by the bots
  alone: the room ends it (:func:`nobody_plays_on`, ``app.rooms.service``).
"""

from __future__ import annotations

from app.games import GAMES
from app.i18n import _
from app.rooms import presence
from app.rooms.errors import BadRequest, TooMany
from app.rooms.room import Room


class RoomQuota:
    def __init__(self, *, max_open_rooms: int, idle_seconds: float,
                 unstarted_idle_seconds: float) -> None:
        self.max_open_rooms = max_open_rooms
        self.idle_seconds = idle_seconds
        self.unstarted_idle_seconds = unstarted_idle_seconds

    def check_room_can_open(self, open_rooms: int) -> None:
        if open_rooms >= self.max_open_rooms:
            raise TooMany(_("This server has as many open tables as it can keep "
                            "({limit}); please try again later.").format(
                                limit=self.max_open_rooms), retry_after=60)

    def is_idle(self, room: Room, now: float) -> bool:
        """Nobody seated is at the table and nothing happened for the idle limit."""
        if presence.humans_present(room):
            return False
        limit = self.unstarted_idle_seconds if room.match is None else self.idle_seconds
        return now - room.last_active > limit

    def idle_rooms(self, rooms: dict[str, Room], now: float) -> list[Room]:
        return [r for r in rooms.values() if self.is_idle(r, now)]


# the action logged for the step that ends such a match (the host's own is "end_game")
NOBODY_PLAYS_ON_ACTION = "end_nobody_plays_on"


def nobody_plays_on(room: Room) -> bool:
    """The match runs, but no person at the table can play in it any more: every seat
    of a person (a bot may be playing for them) is out (``Match.seats_out``), so only
    bots would play on. The room ends such a match as its host could: only a game
    whose host may end it (``GameInfo.host_can_end``) counts (another one plays on)."""
    match = room.match
    if (match is None or match.is_over or room.error or room.closed
            or not GAMES[room.game].host_can_end):
        return False
    people = [s.index for s in room.seats if s is not None and not s.is_bot]
    out = match.seats_out()
    return bool(people and out) and all(s in out for s in people)


def check_someone_plays(room: Room) -> None:
    """A match needs at least one person in a seat: bots do not play alone."""
    if all(s is None or s.is_bot for s in room.seats):
        raise BadRequest(_("A match needs at least one person at the table; "
                           "bots do not play by themselves."))

"""What a server on the open internet must bound in the room layer: how many rooms
are open at once, which rooms count as idle, and that a match has a person at it.

* At most ``MAX_OPEN_ROOMS`` rooms are in memory, and at most
  ``MAX_ROOMS_PER_CLIENT`` of them opened by one client (its address; IPv6 by /56)
  that are still open: waiting, being played, or finished without a rematch (a
  rematch takes its place and counts for the same client). Opening one more is
  refused (429). With room leases (several processes on PostgreSQL) the first is
  each process's own (its memory), and the second is counted in the database over
  every process (``repo.rooms_opened_by``: rooms in a live process's memory).
* Only people keep a room alive, and only with the table open (``presence.
  pages_open``: a seated person's page or socket, or before the start the host's
  page). With none open a room is idle after

  - ``UNSTARTED_ROOM_IDLE_MINUTES`` from its opening or the last page that closed,
    if its match never started (joins, bots and API calls do not count): it is
    deleted (its rows removed);
  - ``ROOM_IDLE_MINUTES`` from the last step or the last page that closed, while its
    match is played (a table paused for dinner, its pages closed, keeps its place
    that long; with a page open it is never idle): it is closed, its finished deals
    stay in the history;
  - ``UNSTARTED_ROOM_IDLE_MINUTES`` likewise once the match is over (the result is
    in the history).

  An API call with a seat token keeps its person *present* for ``away_seconds``
  (so the bots play on), but never keeps a room alive, nor do chat lines or
  spectators' sockets. Bots pause while no seated person is present
  (``app.rooms.bot_driver``), so a bot-only table cannot keep itself busy.
* A match in which no person can play on any more (every person's seat is out,
  ``Match.seats_out``: players without chips, say) is not played on by the bots
  alone: the room ends it (:func:`nobody_plays_on`, ``app.rooms.service``).
"""

from __future__ import annotations

from app.games import GAMES
from app.i18n import _, ngettext
from app.rooms import presence
from app.rooms.errors import BadRequest, TooMany
from app.rooms.room import Room


class RoomQuota:
    def __init__(self, *, max_open_rooms: int, idle_seconds: float,
                 unstarted_idle_seconds: float, max_rooms_per_client: int = 0) -> None:
        self.max_open_rooms = max_open_rooms
        self.idle_seconds = idle_seconds
        self.unstarted_idle_seconds = unstarted_idle_seconds
        self.max_rooms_per_client = max_rooms_per_client  # 0: no cap per client

    def check_room_can_open(self, open_rooms: int) -> None:
        if open_rooms >= self.max_open_rooms:
            raise TooMany(_("This server has as many open tables as it can keep "
                            "({limit}); please try again later.").format(
                                limit=self.max_open_rooms), retry_after=60)

    @staticmethod
    def opened_by(rooms: dict[str, Room], client: str) -> int:
        """Rooms ``client`` opened that are still open: waiting, being played, or
        finished without a rematch (a rematch counts instead)."""
        return sum(1 for r in rooms.values()
                   if r.opened_by == client and not r.closed and r.next_id is None)

    def check_client_can_open(self, rooms: dict[str, Room], client: str | None) -> None:
        """429 once ``client`` has ``MAX_ROOMS_PER_CLIENT`` rooms open (in ``rooms``:
        one process's memory)."""
        if self.caps_clients(client):
            assert client is not None
            self.check_client_opened(self.opened_by(rooms, client))

    def caps_clients(self, client: str | None) -> bool:
        """Whether a room opened by ``client`` counts against a cap."""
        return client is not None and self.max_rooms_per_client > 0

    def check_client_opened(self, opened: int) -> None:
        """429 when a client has ``opened`` rooms open, as many as it may: counted in
        one process's memory (:meth:`check_client_can_open`), or with room leases
        in the database over every process (``repo.rooms_opened_by``)."""
        if opened >= self.max_rooms_per_client:
            cap = self.max_rooms_per_client
            raise TooMany(ngettext(
                "{count} table opened from your address is still open, as many as one "
                "address may have at once. Play it to the end, or close its pages if you "
                "do not need it: a table nobody has open closes by itself after a while.",
                "{count} tables opened from your address are still open, as many as one "
                "address may have at once. Play one to the end, or close the pages of one "
                "you do not need: a table nobody has open closes by itself after a while.",
                cap).format(count=cap), retry_after=60)

    def idle_limit(self, room: Room) -> tuple[float, float]:
        """``(since, seconds)``: with no page open the room is idle ``seconds`` after
        the clock time ``since``."""
        if room.match is None:  # only the people's pages count, not what is done
            return max(room.created, room.last_left), self.unstarted_idle_seconds
        since = max(room.last_active, room.last_left)
        if room.match.is_over:
            return since, self.unstarted_idle_seconds
        return since, self.idle_seconds

    def is_idle(self, room: Room, now: float) -> bool:
        """Nobody has the table open and nothing happened for its idle limit."""
        if presence.pages_open(room):
            return False
        since, limit = self.idle_limit(room)
        return now - since > limit

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

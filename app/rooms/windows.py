"""Challenge windows, for games that declare them (``GameInfo.challenge_windows``):
after a turn that can be challenged, every other seat gets ``challenge_ms`` to call
the liar before the next player's own move takes effect; at the end of a deal,
whoever stayed silent accepts when the window closes."""

from __future__ import annotations

import logging

from app.games import GAMES
from app.games.actions import Accept, Challenge
from app.rooms.errors import Illegal
from app.rooms.events import RoomEvents, Spawn
from app.rooms.room import Room

log = logging.getLogger("stammtisch.rooms")


def open_window(room: Room) -> int | None:
    """The id of the challenge window open in the room's match, if any."""
    match = room.match
    if match is None or match.is_over or not GAMES[room.game].challenge_windows:
        return None
    return match.challenge_window()


class ChallengeWindows:
    def __init__(self, spawn: Spawn, events: RoomEvents) -> None:
        """``events`` applies a silent seat's ``accept`` and hears when the window's
        accepts are written (the bots may move on)."""
        self._spawn = spawn
        self._events = events

    @staticmethod
    def held_back(room: Room, action: str) -> float:
        """How long the next player's own move must still wait so that everybody had
        the window to challenge (challenges and accepts never wait)."""
        if isinstance(GAMES[room.game].match_class.parser.read(action), (Challenge, Accept)):
            return 0.0
        return room.window_left()

    def after_step(self, room: Room) -> None:
        """A new window opened by the step starts its timer; a turn that stood or
        was challenged leaves nothing to wait for."""
        window = open_window(room)
        if window is None:
            room.window_until = 0.0
        elif window != room.window_id:
            self.open(room, window)

    def restored(self, room: Room) -> None:
        """After a restart everybody gets a fresh window."""
        window = open_window(room)
        if window is not None:
            self.open(room, window)

    def open(self, room: Room, window: int) -> None:
        match = room.match
        assert match is not None
        room.window_id = window
        room.window_until = room.clock.now() + match.options["challenge_ms"] / 1000
        if match.phase == "challenge":
            self._spawn(self._accept_silent(room, room.window_id))

    async def _accept_silent(self, room: Room, window_id: int) -> None:
        await room.clock.sleep(room.window_left())
        async with room.lock:
            match = room.match
            if match is None or room.window_id != window_id or match.phase != "challenge":
                return
            accept = Accept().wire
            for seat in sorted(match.to_act()):
                current = room.match  # each accept replaces the room's match
                if (current is not None and current.phase == "challenge"
                        and accept in current.legal_actions(seat)):
                    try:
                        await self._events.apply_locked(room, seat, accept)
                    except Illegal:  # the room stopped (it says why); nothing to accept
                        return
        self._events.window_closed(room)

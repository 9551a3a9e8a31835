"""Challenge windows: after a turn that can be challenged, every other seat gets
``challenge_ms`` to call the liar before the next player's own move takes effect;
at the end of a deal, whoever stayed silent accepts when the window closes."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

from app.rooms.errors import Illegal
from app.rooms.room import Room

log = logging.getLogger("stammtisch.rooms")

Apply = Callable[[Room, int, str], Awaitable[Any]]
Spawn = Callable[[Awaitable[None]], None]
WINDOW_EVENTS = ("end", "skip", "last_card")


def has_windows(room: Room) -> bool:
    match = room.match
    return match is not None and "challenge_ms" in match.options and not match.is_over


def window_open(room: Room) -> bool:
    assert room.match is not None
    return bool(room.match.view(None).get("challenge", {}).get("open"))


class ChallengeWindows:
    def __init__(self, spawn: Spawn) -> None:
        self._spawn = spawn
        self._apply: Apply | None = None
        self._after: Callable[[Room], None] = lambda room: None

    def attach(self, apply: Apply, after: Callable[[Room], None]) -> None:
        """``apply`` applies a silent seat's ``accept``; ``after`` runs once the
        window's accepts are written (the bots may move on)."""
        self._apply, self._after = apply, after

    @staticmethod
    def held_back(room: Room, action: str) -> float:
        """How long the next player's own move must still wait so that everybody had
        the window to challenge (challenges and accepts never wait)."""
        if action.startswith("challenge:") or action == "accept":
            return 0.0
        return room.window_left()

    def after_step(self, room: Room, events: list[dict[str, Any]]) -> None:
        """After a turn that can be challenged, open a window; a turn that stood or
        was challenged leaves nothing to wait for."""
        if not has_windows(room):
            return
        if not window_open(room):
            room.window_until = 0.0
        elif any(e.get("type") in WINDOW_EVENTS for e in events):
            self.open(room)

    def restored(self, room: Room) -> None:
        """After a restart everybody gets a fresh window."""
        if has_windows(room) and window_open(room):
            self.open(room)

    def open(self, room: Room) -> None:
        match = room.match
        assert match is not None
        room.window_id += 1
        room.window_until = room.clock.now() + match.options["challenge_ms"] / 1000
        if match.phase == "challenge":
            self._spawn(self._accept_silent(room, room.window_id))

    async def _accept_silent(self, room: Room, window_id: int) -> None:
        await room.clock.sleep(room.window_left())
        assert self._apply is not None
        async with room.lock:
            match = room.match
            if match is None or room.window_id != window_id or match.phase != "challenge":
                return
            for seat in sorted(match.to_act()):
                current = room.match  # each accept replaces the room's match
                if (current is not None and current.phase == "challenge"
                        and "accept" in current.legal_actions(seat)):
                    try:
                        await self._apply(room, seat, "accept")
                    except Illegal:  # the room stopped (it says why); nothing to accept
                        return
        self._after(room)

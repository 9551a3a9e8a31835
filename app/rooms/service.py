"""The room service: the one place that decides who may do what in a room.

The JSON API, the table WebSocket and the bots all go through it. An action is
checked (seat, version), applied by the pure engine under the room's lock, made
durable, and only then announced to the room's listeners.
"""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
import unicodedata
from typing import Any

from app.bots import BOT_NAMES, choose_action
from app.config import get_settings
from app.db import Database, repo
from app.games import GAMES, IllegalAction, Match, new_match
from app.rooms.errors import BadRequest, Forbidden, Illegal, NotFound, Stale, Unauthorized
from app.rooms.room import Room, Seat

log = logging.getLogger("stammtisch.rooms")

NAME_MAX = 24


def clean_name(raw: Any) -> str:
    """A display name: trimmed, 1..24 printable characters. HTML is not stripped
    (names are always escaped when shown) but control characters are refused."""
    if not isinstance(raw, str):
        raise BadRequest("Please type a name.")
    name = " ".join(raw.split())
    if not name:
        raise BadRequest("Please type a name.")
    if len(name) > NAME_MAX:
        raise BadRequest(f"A name has at most {NAME_MAX} characters.")
    if any(unicodedata.category(ch).startswith("C") for ch in name):
        raise BadRequest("A name cannot contain control characters.")
    return name


def uses_chips(match: Match) -> bool:
    """Games played for chips keep a ledger (Mauscheln)."""
    return "chips" in match.options and hasattr(match, "pot")


def new_room_id() -> str:
    return secrets.token_urlsafe(16)  # 128 bits


def new_token() -> str:
    return secrets.token_urlsafe(32)


class RoomService:
    def __init__(self, db: Database, bot_delay_ms: int | None = None) -> None:
        self.db = db
        self.rooms: dict[str, Room] = {}
        delay = get_settings().bot_delay_ms if bot_delay_ms is None else bot_delay_ms
        self.bot_delay = max(0, delay) / 1000
        self._bot_tasks: dict[str, asyncio.Task[None]] = {}
        self._bot_rng = random.SystemRandom()

    # ----- lookups -----------------------------------------------------------
    def get(self, room_id: str) -> Room:
        room = self.rooms.get(room_id)
        if room is None:
            raise NotFound("There is no open table at this link.")
        return room

    def seat_for(self, room: Room, token: str | None) -> int | None:
        """The seat of ``token``; a token that is given but unknown is refused."""
        if token is None:
            return None
        seat = room.seat_of(token)
        if seat is None:
            raise Forbidden("This seat token does not belong to this table.")
        return seat

    # ----- lifecycle -----------------------------------------------------------
    async def create(self, *, game: str, players: int | None = None,
                     options: dict[str, Any] | None = None,
                     seed: int | None = None) -> tuple[Room, str]:
        info = GAMES.get(game)
        if info is None:
            raise BadRequest(f"Unknown game {game!r}.")
        count = info.min_players if players is None else players
        options = dict(options or {})
        cls = info.match_class
        try:
            cls.check_players(count)
            options = cls.check_options(count, options)
        except ValueError as exc:
            raise BadRequest(str(exc)) from None
        room = Room(id=new_room_id(), game=game, players=count, options=options,
                    host_token=new_token(), seed=seed)
        await self.db.run(repo.create_match, match_id=room.id, game=game, players=count,
                          options=options, host_token=room.host_token)
        self.rooms[room.id] = room
        log.info("room created game=%s players=%d", game, count)
        return room, room.host_token

    async def join(self, room_id: str, name: Any, *, is_bot: bool = False) -> tuple[int, str]:
        room = self.get(room_id)
        name = clean_name(name)
        async with room.lock:
            if room.match is not None:
                raise Forbidden("The match has already started; you can watch.")
            free = room.free_seats
            if not free:
                raise Forbidden("Every seat at this table is taken.")
            if any(s is not None and s.name.casefold() == name.casefold() for s in room.seats):
                raise BadRequest("Somebody at this table already has that name.")
            seat = Seat(index=free[0], name=name, token=new_token(), is_bot=is_bot)
            await self.db.run(repo.add_seat, match_id=room.id, seat=seat.index, name=name,
                              token=seat.token, is_bot=is_bot)
            room.seats[seat.index] = seat
            room.changed()
        return seat.index, seat.token

    def _check_host(self, room: Room, host_token: str | None, what: str) -> None:
        if not host_token:
            raise Unauthorized(f"Only the host can {what}.")
        if not room.is_host(host_token):
            raise Forbidden(f"Only the host can {what}.")

    async def add_bot(self, room_id: str, host_token: str | None) -> int:
        """The host seats a bot in the next free seat."""
        room = self.get(room_id)
        self._check_host(room, host_token, "add bots")
        taken = {s.name for s in room.seats if s is not None}
        name = next((n for n in BOT_NAMES if n not in taken), None)
        if name is None:
            name = next(f"Bot {i}" for i in range(1, 99) if f"Bot {i}" not in taken)
        seat, _token = await self.join(room_id, name, is_bot=True)
        return seat

    async def start(self, room_id: str, host_token: str | None) -> None:
        room = self.get(room_id)
        self._check_host(room, host_token, "start the match")
        async with room.lock:
            if room.match is not None:
                raise BadRequest("The match has already started.")
            if room.free_seats:
                raise BadRequest(
                    f"Waiting for {len(room.free_seats)} more player(s) before the start.")
            room.match = new_match(room.game, room.players, room.options, seed=room.seed)
            await self.db.run(repo.mark_started, match_id=room.id)
            if uses_chips(room.match):
                await self.db.run(repo.record_start_chips, match_id=room.id,
                                  chips=[room.match.options["chips"]] * room.players)
            room.changed()
        log.info("room started game=%s", room.game)
        self.wake_bots(room)

    async def end_match(self, room_id: str, host_token: str | None) -> None:
        """The host ends a game that has no natural end (Mauscheln)."""
        room = self.get(room_id)
        self._check_host(room, host_token, "end the game")
        async with room.lock:
            match = room.match
            end = getattr(match, "end_by_host", None)
            if match is None or match.is_over:
                raise BadRequest("There is no game running to end.")
            if end is None:
                raise BadRequest("This game ends by itself; the host cannot end it early.")
            events = end()
            await self._persist(room, events)
            room.changed()

    async def act(self, room_id: str, seat: int, action: Any, version: Any) -> list[dict[str, Any]]:
        room = self.get(room_id)
        if isinstance(version, str) and version.isdigit():
            version = int(version)
        if isinstance(version, bool) or not isinstance(version, int):
            raise BadRequest("An action needs the version of the view it was made from.")
        if not isinstance(action, str):
            raise BadRequest("An action is a text such as 'play:EO'.")
        async with room.lock:
            match = room.match
            if match is None:
                raise Illegal("The match has not started yet.")
            if room.error:
                raise Illegal(room.error)
            if version != room.version:
                raise Stale("The table changed before your move arrived; "
                            "here is the current table.")
            events = await self._apply_locked(room, seat, action)
        self.wake_bots(room)
        return events

    async def _apply_locked(self, room: Room, seat: int, action: str) -> list[dict[str, Any]]:
        """Apply, persist, announce. The caller holds ``room.lock``."""
        assert room.match is not None
        try:
            events = room.match.apply(seat, action)
        except IllegalAction as exc:
            raise Illegal(str(exc)) from None
        await self._persist(room, events)
        room.changed()
        return events

    # ----- bots ---------------------------------------------------------------
    def _bot_to_act(self, room: Room) -> list[int]:
        match = room.match
        if match is None or match.is_over or room.error:
            return []
        return [s for s in sorted(match.to_act())
                if (seat := room.seats[s]) is not None and seat.is_bot]

    def wake_bots(self, room: Room) -> None:
        """Make sure a bot whose turn it is will move (one driver task per room)."""
        task = self._bot_tasks.get(room.id)
        if task is not None and not task.done():
            return
        if self._bot_to_act(room):
            self._bot_tasks[room.id] = asyncio.create_task(self._drive_bots(room))

    async def _drive_bots(self, room: Room) -> None:
        while True:
            await asyncio.sleep(self.bot_delay)
            async with room.lock:
                bots = self._bot_to_act(room)
                if not bots:
                    return
                seat = bots[0]
                assert room.match is not None
                legal = room.match.legal_actions(seat)
                action = choose_action(room.game, room.match.view(seat), legal, self._bot_rng)
                try:
                    await self._apply_locked(room, seat, action)
                except Exception:  # a bot must never take the room down
                    log.exception("bot move failed game=%s", room.game)
                    return

    async def _persist(self, room: Room, events: list[dict[str, Any]]) -> None:
        match = room.match
        assert match is not None
        for event in events:
            if event.get("type") in ("deal_end", "round_end"):
                result = {k: v for k, v in event.items() if k != "type"}
                chips: dict[str, Any] = {}
                if uses_chips(match):
                    chips = dict(transfers=event["transfers"], chips_after=event["chips"],
                                 pot_after=event["pot"],
                                 chips_total=match.options["chips"] * room.players)
                try:
                    await self.db.run(
                        repo.record_deal, match_id=room.id,
                        deal_no=int(event.get("deal_no") or event.get("round")
                                    or match.deal_no),
                        result=result,
                        scores_after=list(event.get("chips") or event.get("totals")
                                          or event.get("scores") or match.scores),
                        **chips)
                except repo.LedgerMismatch as exc:
                    log.error("room %s stopped: %s", room.id, exc)
                    room.error = ("The chip balances did not add up, so this table was "
                                  "stopped before writing anything wrong.")
                    return
        if match.is_over:
            await self.db.run(repo.finish_match, match_id=room.id,
                              final_scores=list(match.scores), winners=list(match.winners))

    # ----- what a seat sees -----------------------------------------------------
    def state_for(self, room: Room, seat: int | None) -> dict[str, Any]:
        """``{"version", "view", "legal"}`` as the API returns it."""
        if room.match is None:
            view: dict[str, Any] = {"game": room.game, "phase": "waiting", "seat": seat,
                                    "players": room.players}
            legal: list[str] = []
        else:
            view = room.match.view(seat)
            legal = room.match.legal_actions(seat) if seat is not None else []
        return {"version": room.version, "view": view, "legal": legal,
                "seats": room.names(), "status": room.status}

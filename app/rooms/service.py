"""The room service: the one place that decides who may do what in a room.

The JSON API, the table WebSocket and the bots all go through it. An action is
checked (seat, version), applied by the pure engine under the room's lock, made
durable in one transaction (the action log, the snapshot to resume from, finished
deals and chip transfers), and only then announced to the room's listeners.
"""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
import time
import unicodedata
from typing import Any

from app.bots import BOT_NAMES, choose_action, choose_optional
from app.config import get_settings
from app.db import Database, repo
from app.games import GAMES, IllegalAction, Match, new_match, restore
from app.rooms.errors import BadRequest, Forbidden, Illegal, NotFound, Stale, Unauthorized
from app.rooms.room import Room, Seat, token_hash

log = logging.getLogger("stammtisch.rooms")

NAME_MAX = 24
DEAL_END_EVENTS = ("deal_end", "round_end")
STOPPED = ("Something went wrong while saving this table, so it was stopped where it "
           "was; the last move was not kept. Restarting the server tries again from the "
           "last saved move.")


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
        settings = get_settings()
        delay = settings.bot_delay_ms if bot_delay_ms is None else bot_delay_ms
        self.bot_delay = max(0, delay) / 1000
        self.idle_seconds = settings.room_idle_minutes * 60
        self._bot_tasks: dict[str, asyncio.Task[None]] = {}
        self._tasks: set[asyncio.Task[None]] = set()
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
        host_token = new_token()
        room = Room(id=new_room_id(), game=game, players=count, options=options,
                    host_token_hash=token_hash(host_token), seed=seed)
        await self.db.run(repo.create_match, match_id=room.id, game=game, players=count,
                          options=options, host_token=host_token, seed=seed)
        self.rooms[room.id] = room
        log.info("room created game=%s players=%d", game, count)
        return room, host_token

    async def join(self, room_id: str, name: Any, *, is_bot: bool = False) -> tuple[int, str]:
        """Seat ``name`` in the next free seat; a bot (``name`` None) gets a free
        bot name."""
        room = self.get(room_id)
        if not is_bot:
            name = clean_name(name)
        async with room.lock:
            if name is None:
                taken = {s.name.casefold() for s in room.seats if s is not None}
                name = next((n for n in BOT_NAMES if n.casefold() not in taken), None) or next(
                    f"Bot {i}" for i in range(1, 99) if f"bot {i}" not in taken)
            if room.match is not None:
                raise Forbidden("The match has already started; you can watch.")
            free = room.free_seats
            if not free:
                raise Forbidden("Every seat at this table is taken.")
            if any(s is not None and s.name.casefold() == name.casefold() for s in room.seats):
                raise BadRequest("Somebody at this table already has that name.")
            token = new_token()
            seat = Seat(index=free[0], name=name, token_hash=token_hash(token), is_bot=is_bot)
            await self.db.run(repo.add_seat, match_id=room.id, seat=seat.index, name=name,
                              token=token, is_bot=is_bot, version=room.version + 1)
            room.seats[seat.index] = seat
            room.changed()
        return seat.index, token

    def _check_host(self, room: Room, host_token: str | None, what: str) -> None:
        if not host_token:
            raise Unauthorized(f"Only the host can {what}.")
        if not room.is_host(host_token):
            raise Forbidden(f"Only the host can {what}.")

    async def add_bot(self, room_id: str, host_token: str | None) -> int:
        """The host seats a bot in the next free seat."""
        room = self.get(room_id)
        self._check_host(room, host_token, "add bots")
        seat, _token = await self.join(room_id, None, is_bot=True)
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
            match = new_match(room.game, room.players, room.options, seed=room.seed)
            chips = [match.options["chips"]] * room.players if uses_chips(match) else None
            await self._commit(room, match, None, "start", [], started=True,
                               start_chips=chips)
        log.info("room started game=%s", room.game)
        self.wake_bots(room)

    async def end_match(self, room_id: str, host_token: str | None) -> None:
        """The host ends a game that has no natural end (Mauscheln)."""
        room = self.get(room_id)
        self._check_host(room, host_token, "end the game")
        async with room.lock:
            if room.match is None or room.match.is_over:
                raise BadRequest("There is no game running to end.")
            if not hasattr(room.match, "end_by_host"):
                raise BadRequest("This game ends by itself; the host cannot end it early.")
            work = room.match.copy()
            await self._commit(room, work, None, "end_game", work.end_by_host())  # type: ignore[attr-defined]

    async def act(self, room_id: str, seat: int, action: Any, version: Any) -> list[dict[str, Any]]:
        room = self.get(room_id)
        if isinstance(version, str) and version.isascii() and version.isdigit():
            version = int(version)
        if isinstance(version, bool) or not isinstance(version, int):
            raise BadRequest("An action needs the version of the view it was made from.")
        if not isinstance(action, str):
            raise BadRequest("An action is a text such as 'play:EO'.")
        held = False
        while True:
            async with room.lock:
                match = room.match
                if match is None:
                    raise Illegal("The match has not started yet.")
                if room.error:
                    raise Illegal(room.error)
                if room.closed:
                    raise NotFound("This table was closed.")
                if version != room.version:
                    raise Stale("A challenge came first; have a look at the table."
                                if held else "The table changed before your move arrived; "
                                "here is the current table.")
                if action not in match.legal_actions(seat):
                    self._refuse(match, seat, action)
                wait = self._held_back(room, action)
                if wait <= 0:
                    events = await self._apply_locked(room, seat, action)
                    break
            held = True
            await asyncio.sleep(wait)
        self.wake_bots(room)
        return events

    async def _apply_locked(self, room: Room, seat: int, action: str) -> list[dict[str, Any]]:
        """Apply and commit. The caller holds ``room.lock``.

        The action is applied to a copy of the match; the room's match is replaced
        only once the step is written, so no page, view or frame can show a state
        that a restart would not bring back, and a failed write changes nothing."""
        assert room.match is not None
        if action not in room.match.legal_actions(seat):
            self._refuse(room.match, seat, action)
        work = room.match.copy()
        try:
            events = work.apply(seat, action)
        except IllegalAction as exc:
            raise Illegal(str(exc)) from None
        await self._commit(room, work, seat, action, events)
        return events

    @staticmethod
    def _refuse(match: Match, seat: int, action: str) -> None:
        """Raise the engine's own readable refusal (the match stays unchanged)."""
        try:
            match.apply(seat, action)
        except IllegalAction as exc:
            raise Illegal(str(exc)) from None
        raise AssertionError("an action outside legal_actions was applied")

    async def _commit(self, room: Room, match: Match, seat: int | None, action: str,
                      events: list[dict[str, Any]], *, started: bool = False,
                      start_chips: list[int] | None = None) -> None:
        """Make a step durable, then make ``match`` the room's match and show it.
        If it cannot be written the room stops where it was."""
        deals = [self._deal_record(room, match, e) for e in events
                 if e.get("type") in DEAL_END_EVENTS]
        finished = (list(match.scores), list(match.winners)) if match.is_over else None
        try:
            await self.db.run(
                repo.record_step, match_id=room.id, seq=room.version + 1, seat=seat,
                action=action, events=events, snapshot=match.snapshot(), deals=deals,
                started=started, start_chips=start_chips, finished=finished)
        except repo.LedgerMismatch as exc:
            log.error("room %s stopped: %s", room.id, exc)
            room.error = ("The chip balances did not add up, so this table was stopped "
                          "before writing anything wrong.")
            room.changed()
            raise Illegal(room.error) from None
        except Exception:
            log.exception("room %s stopped: could not save", room.id)
            room.error = STOPPED
            room.changed()
            raise Illegal(room.error) from None
        room.match = match
        self._open_windows(room, events)
        room.changed()

    @staticmethod
    def _deal_record(room: Room, match: Match, event: dict[str, Any]) -> repo.DealRecord:
        result = {k: v for k, v in event.items() if k != "type"}
        deal_no = int(event.get("deal_no") or event.get("round") or match.deal_no)
        scores = list(event.get("chips") or event.get("totals") or event.get("scores")
                      or match.scores)
        if not uses_chips(match):
            return repo.DealRecord(deal_no, result, scores)
        return repo.DealRecord(deal_no, result, scores, transfers=event["transfers"],
                               chips_after=event["chips"], pot_after=event["pot"],
                               chips_total=match.options["chips"] * room.players)

    # ----- challenge windows ---------------------------------------------------
    @staticmethod
    def _held_back(room: Room, action: str) -> float:
        """How long the next player's own move must still wait so that everybody had
        ``challenge_ms`` to call the liar (challenges and accepts never wait)."""
        if action.startswith("challenge:") or action == "accept":
            return 0.0
        return room.window_left()

    def _open_window(self, room: Room) -> None:
        match = room.match
        assert match is not None
        room.window_id += 1
        room.window_until = time.monotonic() + match.options["challenge_ms"] / 1000
        if match.phase == "challenge":
            self._spawn(self._accept_silent(room, room.window_id))

    def _open_windows(self, room: Room, events: list[dict[str, Any]]) -> None:
        """After a turn that can be challenged, open the window; at a round's end
        also start the timer that accepts for everybody who stayed silent."""
        match = room.match
        if match is None or "challenge_ms" not in match.options or match.is_over:
            return
        is_open = match.view(None).get("challenge", {}).get("open")
        if not is_open:
            room.window_until = 0.0  # the turn stood or was challenged: nothing to wait for
        elif any(e.get("type") in ("end", "skip", "last_card") for e in events):
            self._open_window(room)

    def _spawn(self, coro: Any) -> None:
        task = asyncio.create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _accept_silent(self, room: Room, window_id: int) -> None:
        await asyncio.sleep(room.window_left())
        async with room.lock:
            match = room.match
            if match is None or room.window_id != window_id or match.phase != "challenge":
                return
            for seat in sorted(match.to_act()):
                current = room.match  # each accept replaces the room's match
                if (current is not None and current.phase == "challenge"
                        and "accept" in current.legal_actions(seat)):
                    try:
                        await self._apply_locked(room, seat, "accept")
                    except Illegal:  # the room stopped (it says why); nothing to accept
                        return
        self.wake_bots(room)

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

    @staticmethod
    def _obliged(room: Room, seat: int) -> bool:
        """Whether the game waits for this seat. In a challenge window the other
        seats may call the liar but need not (silence is acceptance)."""
        match = room.match
        assert match is not None
        if "challenge_ms" not in match.options:
            return True
        view = match.view(seat)
        return bool(view.get("phase") == "play" and view.get("turn") == seat)

    async def _drive_bots(self, room: Room) -> None:
        decided: dict[tuple[int, int], str | None] = {}  # (seat, version) -> choice
        while True:
            await asyncio.sleep(self.bot_delay)
            async with room.lock:
                match = room.match
                bots = self._bot_to_act(room)
                if match is None or not bots:
                    return
                wait = 0.0
                for seat in bots:
                    key = (seat, room.version)
                    if key not in decided:
                        pick = (choose_action if self._obliged(room, seat)
                                else choose_optional)
                        decided[key] = pick(room.game, match.view(seat),
                                            match.legal_actions(seat), self._bot_rng)
                    action = decided[key]
                    if action is None:
                        continue
                    wait = self._held_back(room, action)
                    if wait > 0:
                        continue
                    try:
                        await self._apply_locked(room, seat, action)
                    except Exception:  # a bot must never take the room down
                        log.exception("bot move failed game=%s", room.game)
                        return
                    break
                else:
                    if wait <= 0 and all(decided.get((s, room.version)) is None
                                         for s in bots):
                        return  # every bot stays silent: wait for the people
            if wait > 0:
                await asyncio.sleep(wait)

    # ----- restart and idle rooms ------------------------------------------------
    async def restore_open_rooms(self) -> int:
        """Bring back every unfinished room exactly as it was saved: seats, token
        hashes, names, bots, the match state, the version; restart the timers."""
        saved = await self.db.run(repo.open_matches)
        for m in saved:
            try:
                self._restore_room(m)
            except Exception:  # one unreadable room must not keep the others closed
                log.exception("room %s could not be restored", m.id)
        if saved:
            log.info("restored %d open rooms", len(saved))
        return len(saved)

    def _restore_room(self, m: repo.OpenMatch) -> None:
        room = Room(id=m.id, game=m.game, players=m.players, options=m.options,
                    host_token_hash=m.host_token_hash, seed=m.seed, version=m.version)
        for s in m.seats:
            room.seats[s.seat] = Seat(index=s.seat, name=s.name, token_hash=s.token_hash,
                                      is_bot=s.is_bot)
        if m.snapshot is not None:
            room.match = restore(m.snapshot)
            if ("challenge_ms" in room.match.options and not room.match.is_over
                    and room.match.view(None).get("challenge", {}).get("open")):
                self._open_window(room)  # everybody gets a fresh window
        self.rooms[room.id] = room
        self.wake_bots(room)

    async def sweep_idle(self) -> int:
        """Rooms nobody has used for ``ROOM_IDLE_MINUTES`` leave memory; an
        unfinished one is closed (its finished deals stay in the history)."""
        now = time.monotonic()
        gone = [r for r in self.rooms.values()
                if not r.listeners and now - r.last_active > self.idle_seconds]
        for room in gone:
            async with room.lock:
                if room.status != "finished":
                    await self.db.run(repo.close_match, match_id=room.id)
                room.closed = True
                self.rooms.pop(room.id, None)
                task = self._bot_tasks.pop(room.id, None)
                if task is not None:
                    task.cancel()
        if gone:
            log.info("%d idle rooms left memory", len(gone))
        return len(gone)

    async def run_sweeper(self) -> None:
        interval = max(0.5, min(60.0, self.idle_seconds / 4))
        while True:
            await asyncio.sleep(interval)
            try:
                await self.sweep_idle()
            except Exception:
                log.exception("idle sweep failed")

    async def close(self) -> None:
        for task in [*self._tasks, *self._bot_tasks.values()]:
            task.cancel()

"""A room: one match, its seats and their secret tokens, a lock and a version.

The room is the authority while the server runs. Every accepted change bumps
``version``; an action must name the version it was made from, so a stale tab or a
double click is refused instead of being applied twice.
"""

from __future__ import annotations

import asyncio
import hmac
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from app.bots import DEFAULT_LEVEL
from app.db.repo import token_hash  # tokens are kept only as hashes
from app.games import Match, new_match
from app.rooms.clock import Clock, MonotonicClock
from app.rooms.table_options import TABLE_DEFAULTS

# the public room event a person's move carries when they were shown a hint for it
HINT_NOTE = "hint"


def new_room_id() -> str:
    return secrets.token_urlsafe(16)  # 128 bits


def new_token() -> str:
    """A seat's or the host's secret token (256 bits; kept only as its hash)."""
    return secrets.token_urlsafe(32)


@dataclass
class Seat:
    index: int
    name: str
    token_hash: str
    is_bot: bool = False
    level: str = DEFAULT_LEVEL  # a bot seat's level (app.bots.LEVELS)


Listener = Callable[["Room"], None]


class RoomTimers:
    """A room's own timers and tasks, one per name (``"pause"``: a finished trick or
    deal on show, ``"turn"``: the turn clock, ``"bots"``: the bot driver): starting
    one ends the one it replaces, and they all end with the room (:meth:`Room.close`)."""

    __slots__ = ("_tasks",)

    def __init__(self) -> None:
        self._tasks: dict[str, asyncio.Task[None]] = {}

    def start(self, name: str, task: asyncio.Task[None]) -> None:
        """Run ``task`` as the room's ``name``, ending the one before it (unless that
        is the task starting it: a timer that sets itself again)."""
        self.stop(name)
        self._tasks[name] = task

    def stop(self, name: str) -> None:
        """End the room's ``name`` task, if any (unless it is the one asking)."""
        old = self._tasks.pop(name, None)
        if old is not None and old is not asyncio.current_task():
            old.cancel()

    def running(self, name: str) -> asyncio.Task[None] | None:
        """The room's ``name`` task, if one was started and has not ended."""
        task = self._tasks.get(name)
        return task if task is not None and not task.done() else None

    def end_all(self) -> None:
        for task in self._tasks.values():
            if task is not asyncio.current_task():
                task.cancel()
        self._tasks.clear()


@dataclass
class DealHold:
    """The table shows the result of deal ``deal_no`` (the engine has dealt on
    already) until ``until`` (clock time) or until every seated person with an open
    page pressed "Next deal" (``ready``)."""

    deal_no: int
    until: float
    ready: set[int] = field(default_factory=set)


@dataclass(eq=False)
class Room:
    id: str
    game: str
    players: int
    options: dict[str, Any]  # the game's options (checked by its engine)
    host_token_hash: str
    # the table's own options (app.rooms.table_options): clock, away rule, pacing
    table: dict[str, Any] = field(default_factory=dict)
    seed: int | None = None
    seats: list[Seat | None] = field(default_factory=list)
    match: Match | None = None
    version: int = 0
    clock: Clock = field(default_factory=MonotonicClock, repr=False)
    created: float = 0.0
    last_active: float = 0.0
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    listeners: set[Listener] = field(default_factory=set)
    present: dict[int, int] = field(default_factory=dict)  # seat -> open connections
    last_seen: dict[int, float] = field(default_factory=dict)  # seat -> clock time
    # the host's own pages that have no seat (a host waiting for friends to join)
    host_pages: int = 0
    # when a person's page last closed (clock time): the idle limits count from the
    # later of this and the last step (app.rooms.quotas)
    last_left: float = 0.0
    # the client (app.web.limits.client_key) that opened the room, for the cap on
    # open rooms per client; kept in memory only (a restored room counts for nobody).
    # With room leases the cap is counted in the database instead (matches.opened_by)
    opened_by: str | None = None
    error: str | None = None
    closed: bool = False  # left memory (idle): nothing more may be written
    # left memory for another server process (app.rooms.leases): its pages reconnect
    handed_over: bool = False
    # a challenge window (``GameInfo.challenge_windows``): until this clock time the next
    # player's own move is held back; ``window_id`` tells windows apart
    window_until: float = 0.0
    window_id: int = 0
    # (deal_no, every seat's score after it) of each finished deal: the score chart
    deal_scores: list[tuple[int, list[int]]] = field(default_factory=list)
    # a rematch links the rooms: the next one's id once the host started it
    prev_id: str | None = None
    next_id: str | None = None
    # turns (app.rooms.turns): seats a bot plays for, with the reason ("away",
    # "clock": until the person acts or comes back; "released": the host released the
    # seat, until somebody takes it over), and the turn clock's deadline (clock time)
    # for the move awaited at ``turn_version``
    stand_ins: dict[int, str] = field(default_factory=dict)
    turn_deadline: float | None = None
    turn_version: int = -1
    # pacing (app.rooms.pacing): a finished trick stays until ``pause_until``; a
    # finished deal's result is shown while ``hold`` is set; moves made meanwhile wait
    # in ``queued`` (seat -> (action, version)) and take effect when the pause ends
    pause_until: float = 0.0
    hold: DealHold | None = None
    queued: dict[int, tuple[str, int]] = field(default_factory=dict)
    teams_cache: list[list[int]] | None = None
    # what ``matches.room_state`` holds of the room (app.rooms.turns writes changes)
    state_written: dict[str, Any] = field(default_factory=dict)
    # its timers and tasks: the pause, the turn clock, the bot driver
    timers: RoomTimers = field(default_factory=RoomTimers, repr=False)
    # counts the announcements to the listeners: what the table shows may differ only
    # between two moments (the web keeps what is the same for every seat per moment)
    moment: int = 0
    # the review (app.rooms.decisions): the view and legal actions last drawn for each
    # seat that may act (seat -> (version, view, legal); a shared view, read only),
    # the people's decisions of the deals not yet written, and the first deal whose
    # decisions are all here (a room restored mid-deal lost that deal's earlier ones)
    seen: dict[int, tuple[int, dict[str, Any], list[str]]] = field(
        default_factory=dict, repr=False)
    decisions: list[Any] = field(default_factory=list, repr=False)
    decisions_from: int = 0
    # hints (a practice table, app.rooms.hints): the seats shown a hint in the deal in
    # play, and of those the seats whose own next move carries the public note
    # ``{"type": HINT_NOTE, "seat": s}`` (the deal's result lists ``hints_used``)
    hints_used: set[int] = field(default_factory=set)
    hint_pending: set[int] = field(default_factory=set)
    # the seats whose person shared their reviews of the finished match with the table
    # (app.rooms.reviews; kept in the database, here for the table to show)
    shared_reviews: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        if not self.seats:
            self.seats = [None] * self.players
        self.table = {**TABLE_DEFAULTS, **self.table}
        self.created = self.last_active = self.last_left = self.clock.now()

    @property
    def status(self) -> str:
        if self.match is None:
            return "waiting"
        return "finished" if self.match.is_over else "playing"

    @property
    def free_seats(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if s is None]

    def seat_of(self, token: str | None) -> int | None:
        """The seat a secret token belongs to (compared in constant time)."""
        return self.seat_held_by(token_hash(token)) if token else None

    def seat_held_by(self, holder: str | None) -> int | None:
        """The seat whose token hashes to ``holder`` (a token's hash) now: a swap
        moves it, a release or a take-over ends it (None)."""
        if not holder:
            return None
        for seat in self.seats:
            if seat is not None and hmac.compare_digest(seat.token_hash, holder):
                return seat.index
        return None

    def is_host(self, token: str | None) -> bool:
        return bool(token) and hmac.compare_digest(self.host_token_hash,
                                                   token_hash(token or ""))

    def names(self) -> list[str | None]:
        return [s.name if s else None for s in self.seats]

    def window_left(self) -> float:
        """Seconds until the current challenge window closes (0 when none is open)."""
        return max(0.0, self.window_until - self.clock.now())

    def touch(self) -> None:
        self.last_active = self.clock.now()

    def changed(self) -> None:
        """Bump the version and tell every listener (each renders its own view)."""
        self.version += 1
        self.touch()
        self.tell()

    def moved_to(self, next_id: str) -> None:
        """The host started a rematch: every open page of this room follows it.
        Not a change of the match, so the version stays."""
        self.next_id = next_id
        self.touch()
        self.tell()

    def tell(self) -> None:
        """Tell every listener without bumping the version (presence, a move queued
        during a pause, "Next deal", a seat released: nothing a move depends on)."""
        self.moment += 1
        for listener in list(self.listeners):
            listener(self)

    def show_error(self, message: str | None) -> None:
        """Show ``message`` on every seat's page in place of the moves (None: take it
        away), say while the room waits for the database. Not a change of the match:
        the version stays, so no move becomes stale."""
        self.error = message
        self.tell()

    def close(self, handed_over: bool = False) -> None:
        """The room left memory: nothing more may be written, its timers and bots
        stop, and its open pages (a spectator's, say) hear that the table closed;
        ``handed_over``: that it is served by another server process now, where they
        reconnect (ROOM_LEASES, :mod:`app.rooms.leases`)."""
        self.closed = True
        self.handed_over = handed_over
        self.timers.end_all()
        self.tell()

    def arrive(self, seat: int | None, host: bool = False) -> None:
        """A connection for ``seat`` opened: the others see who is at the table.
        Presence is not game state, so the version stays (no move becomes stale).
        ``host``: a page of the host that has no seat."""
        if seat is None and host:
            self.host_pages += 1
        if seat is not None:
            self.present[seat] = self.present.get(seat, 0) + 1
            self.last_seen[seat] = self.clock.now()
            self.tell()

    def leave(self, seat: int | None, host: bool = False) -> None:
        if seat is None and host and self.host_pages:
            self.host_pages -= 1
            self.last_left = self.clock.now()
        if seat is not None and self.present.get(seat):
            self.last_left = self.clock.now()
            self.last_seen[seat] = self.clock.now()
            self.present[seat] -= 1
            if not self.present[seat]:
                del self.present[seat]
            self.tell()

    def state(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` (None: a spectator) may see: ``{"version", "view", "legal",
        "seats", "status"}``, as the API returns it and the table renders it."""
        view, legal = self.view_and_legal(seat, shared=True)  # read only: sent as JSON
        return {"version": self.version, "view": view, "legal": legal,
                "seats": self.names(), "status": self.status}

    def view_and_legal(self, seat: int | None, shared: bool = False
                       ) -> tuple[dict[str, Any], list[str]]:
        """The view of ``seat`` (None: a spectator) and its legal actions; ``shared``:
        a view whose records may be shared (``Match.shared_view``: not to be changed)."""
        if self.match is None:
            return {"game": self.game, "phase": "waiting", "seat": seat,
                    "players": self.players}, []
        legal = self.match.legal_actions(seat) if seat is not None else []
        return (self.match.shared_view(seat) if shared else self.match.view(seat)), legal

    def is_present(self, seat: int) -> bool:
        player = self.seats[seat]
        return bool(player and (player.is_bot or self.present.get(seat)))

    def teams(self) -> list[list[int]]:
        """The teams of the game at this table (the engine view's ``teams``; [] for
        a game without teams), known before the match starts too."""
        if self.match is not None:
            return list(self.match.view(None).get("teams") or [])
        if self.teams_cache is None:
            try:
                sample = new_match(self.game, self.players, self.options)
                self.teams_cache = list(sample.view(None).get("teams") or [])
            except ValueError:
                self.teams_cache = []
        return self.teams_cache

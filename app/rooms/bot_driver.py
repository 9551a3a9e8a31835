"""The bot driver: one task per room moves every bot whose turn it is, and every
person a bot must play for (:mod:`app.rooms.turns`: away, out of time, seat
released), one move at a time with a pause people can follow, through the same
pipeline as a person. It waits while a finished trick or deal is on show
(:mod:`app.rooms.pacing`).

A bot seat has a level (``Seat.level``, :data:`app.bots.LEVELS`): an easy bot plays
the house rules here at once (well under a millisecond); a strong bot, and every bot
playing for a person, searches in the server's :class:`app.bots.pool.BotPool`, in
another process. The room's lock is never held while a bot thinks: the driver takes
the seat's view and legal actions under the lock, lets go, waits for the answer, and
takes the lock again to apply it, only if the table is still at the version the bot
thought about (otherwise it thinks again). A worker that fails leaves the move to
the house rules. ``BOT_DELAY_MS`` counts from the moment the bot could move, its
thinking included."""

from __future__ import annotations

import asyncio
import logging
import random
from dataclasses import dataclass
from typing import Any

from app.bots import LEVELS, STAND_IN_LEVEL, choose_action, choose_optional
from app.bots.pool import BotPool
from app.games import GAMES
from app.rooms.pacing import pause_left
from app.rooms.pipeline import ActionPipeline
from app.rooms.presence import humans_present
from app.rooms.quotas import nobody_plays_on
from app.rooms.room import Room
from app.rooms.turns import movers

log = logging.getLogger("stammtisch.rooms")


def bots_to_act(room: Room) -> list[int]:
    """Bot seats that may act now, and people's seats a bot must play for now
    (``app.rooms.turns``). Bots pause while no seated person is at the table
    (``app.rooms.presence``), so a table nobody watches costs nothing and becomes
    idle; a person who comes back wakes them (``BotDriver.wake``)."""
    match = room.match
    if (match is None or match.is_over or room.error or not humans_present(room)
            or nobody_plays_on(room)):  # the room ends the match instead
        return []
    standing_in = movers(room)
    return [s for s in sorted(match.to_act())
            if (seat := room.seats[s]) is not None and (seat.is_bot or s in standing_in)
            and s not in room.queued]


def bot_kind(room: Room, seat: int) -> str:
    """The kind of bot (``app.bots.make_bot``) that plays ``seat`` now: a bot seat's
    level decides; a bot playing for a person plays strong."""
    player = room.seats[seat]
    level = player.level if player is not None and player.is_bot else STAND_IN_LEVEL
    return LEVELS.get(level, LEVELS[STAND_IN_LEVEL])


@dataclass(frozen=True)
class Question:
    """What a bot at ``seat`` is asked, taken under the room's lock."""

    seat: int
    kind: str
    view: dict[str, Any]
    legal: list[str]
    must: bool  # False: the seat may let the moment pass (None)


class BotDriver:
    def __init__(self, pipeline: ActionPipeline, delay_seconds: float,
                 pool: BotPool | None = None) -> None:
        self.pipeline = pipeline
        self.delay = delay_seconds
        self.pool = pool
        self._nudges: dict[str, asyncio.Event] = {}  # room -> a driver waiting out a pause
        self._rng = random.SystemRandom()

    def wake(self, room: Room) -> None:
        """Make sure a bot whose turn it is will move (one driver task per room, the
        room's ``"bots"`` timer: it ends with the room)."""
        if room.timers.running("bots") is not None:
            nudge = self._nudges.get(room.id)
            if nudge is not None:  # a pause ended early (everybody pressed "Next deal")
                nudge.set()
            return
        if bots_to_act(room):
            room.timers.start("bots", asyncio.create_task(self._drive(room)))

    def observe(self, room: Room) -> None:
        """After every saved move: the pool remembers what each person's seat saw of
        the deal (its view, as at the table), so that a strong bot taking the seat over
        mid-deal (away, out of time, released) knows the tricks played before. A
        seat taken over or released keeps that memory: it is the same seat in the
        same deal."""
        match = room.match
        if self.pool is None or match is None:
            return
        if match.is_over:
            self.forget(room)
            return
        public: dict[str, Any] | None = None  # what is remembered is public: one view
        for s, player in enumerate(room.seats):
            if player is not None and not player.is_bot:
                public = match.view(None) if public is None else public
                self.pool.observe((room.id, s), public, seat=s)

    def forget(self, room: Room, seat: int | None = None) -> None:
        """Drop what the pool remembers of the deal for ``seat`` (None: every seat):
        the seats changed places or a bot left before the start, or the room's match
        is over or the room leaves memory."""
        if self.pool is None:
            return
        for s in range(room.players) if seat is None else (seat,):
            self.pool.forget((room.id, s))

    async def decide(self, room: Room, q: Question) -> str | None:
        """The bot's answer to ``q``, thought out without the room's lock. A strong
        bot thinks in the pool; if that fails, the house rules answer."""
        if q.kind != "heuristic" and self.pool is not None:
            try:
                return await self.pool.choose(q.kind, room.game, q.view, q.legal,
                                              seed=self._rng.getrandbits(62),
                                              memory=(room.id, q.seat), optional=not q.must)
            except asyncio.CancelledError:
                raise
            except Exception:  # a bot must never take the room down
                log.exception("bot worker failed game=%s; the house rules answer", room.game)
        pick = choose_action if q.must else choose_optional
        return pick(room.game, q.view, q.legal, self._rng)

    async def _drive(self, room: Room) -> None:
        decided: dict[tuple[int, int], str | None] = {}  # (seat, version) -> choice
        since = room.clock.now()  # when the bots could move: the delay counts from here
        while True:
            asked: list[Question] = []
            async with room.lock:
                wait = pause_left(room)
                if wait <= 0 and room.queued:  # a person's move waited for the pause
                    before = room.version
                    await self.pipeline.pacing.flush_locked(room)
                    if room.version != before:
                        since = room.clock.now()
                        continue
                match = room.match
                if match is None or match.is_over:
                    self.forget(room)
                    return
                seats = bots_to_act(room)
                if not seats:
                    return
                version = room.version
                if wait <= 0:
                    decided = {k: v for k, v in decided.items() if k[1] == version}
                    asked = [Question(s, bot_kind(room, s), match.view(s),
                                      match.legal_actions(s), match.must_act(s))
                             for s in seats if (s, version) not in decided]
            if wait > 0:  # a finished trick or deal is on show: it counts as the delay
                await self._pause(room, wait)
                continue
            answers = await self._answers(room, asked, since + self.delay)
            for q, answer in zip(asked, answers, strict=True):
                decided[(q.seat, version)] = answer
            left = self.delay - (room.clock.now() - since)
            if left > 0:
                await room.clock.sleep(left)
            held = 0.0
            async with room.lock:
                if room.version != version or pause_left(room) > 0:
                    since = room.clock.now()  # people follow what changed first
                    continue  # the table moved on while the bot thought: think again
                bots = bots_to_act(room)
                for seat in bots:
                    action = decided.get((seat, version))
                    if action is None:
                        continue
                    held = self.pipeline.windows.held_back(room, action)
                    if held > 0:
                        continue
                    if not await self._apply(room, seat, action):
                        return
                    since = room.clock.now()
                    break
                else:
                    if held <= 0 and all(decided.get((s, version), "") is None
                                         for s in bots):
                        return  # every bot stays silent: wait for the people
            if held > 0:
                await room.clock.sleep(held)

    async def _answers(self, room: Room, asked: list[Question], until: float
                       ) -> list[str | None]:
        """The bots' answers to ``asked``. The seats the match waits for are waited
        for; a seat that may act but need not (a Kontra off turn) is given until the
        later of ``until`` (the room clock's time the move is due) and those answers,
        and is silent (None) if it has not answered by then (it is asked again at
        the next move). So the moment a move is made never depends on which other
        seats may act unasked, which may be a secret of the game (who may say
        Kontra tells who the partner is). A challenge window is timed by the room
        in public: there every answer is waited for, as when no seat is awaited."""
        if not any(q.must for q in asked) or GAMES[room.game].challenge_windows:
            # nothing awaited moves (a seat that may act unasked answers for itself),
            # or the challengers' window is the room's, timed in public: every answer
            return list(await asyncio.gather(*(self.decide(room, q) for q in asked)))
        tasks: list[asyncio.Future[str | None]] = [
            asyncio.ensure_future(self.decide(room, q)) for q in asked]
        optional = [t for q, t in zip(asked, tasks, strict=True) if not q.must]
        try:
            await asyncio.gather(*(t for q, t in zip(asked, tasks, strict=True) if q.must))
            pending: set[asyncio.Future[Any]] = {t for t in optional if not t.done()}
            left = until - room.clock.now()
            if pending and left > 0:
                sleeper: asyncio.Future[Any] = asyncio.ensure_future(room.clock.sleep(left))
                try:
                    while pending and not sleeper.done():
                        done, _ = await asyncio.wait({sleeper, *pending},
                                                     return_when=asyncio.FIRST_COMPLETED)
                        pending -= done
                finally:
                    sleeper.cancel()
        finally:
            for t in tasks:
                if not t.done():
                    t.cancel()
        return [t.result() if t.done() and not t.cancelled() else None for t in tasks]

    async def _pause(self, room: Room, seconds: float) -> None:
        """Wait out a pause, or less when :meth:`wake` says it ended early."""
        nudge = self._nudges[room.id] = asyncio.Event()
        sleeper = asyncio.ensure_future(room.clock.sleep(seconds))
        nudged = asyncio.ensure_future(nudge.wait())
        try:
            await asyncio.wait({sleeper, nudged}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            sleeper.cancel()
            nudged.cancel()
            if self._nudges.get(room.id) is nudge:
                del self._nudges[room.id]

    async def _apply(self, room: Room, seat: int, action: str) -> bool:
        """Play ``action`` for ``seat`` (the room's lock is held); False if the move
        failed (logged; the driver stops rather than take the room down)."""
        player = room.seats[seat]
        note = None
        if player is not None and not player.is_bot:  # playing for a person
            reason = movers(room).get(seat, "away")
            room.stand_ins[seat] = reason
            note = {"type": "stand_in", "seat": seat, "reason": reason}
        try:
            await self.pipeline.apply_locked(room, seat, action, note)
        except Exception:  # a bot must never take the room down
            log.exception("bot move failed game=%s", room.game)
            return False
        return True

"""How long does a Lügenbeutel match last? Rounds, turns and minutes to each target.

Whole matches are played by the engine with the bots of the room (``make_bot``:
``easy`` = the house heuristic, ``strong`` = the search) and simulated people, on a
clock that follows the room's default pacing:

- a bot moves ``BOT_DELAY_MS`` after the table last changed (``app.config``; 700 ms);
- after a turn that can be challenged, the next player's own move waits until
  ``challenge_ms`` (the game's default, 2.5 s) have passed since the window opened;
  challenges never wait; at the end of a round the room accepts for the silent
  seats when ``challenge_ms`` is up;
- after a round the result stays until every person pressed "Next deal"
  (``--read-s``, at most the table's ``next_deal_s``), and the table's
  ``trick_pause_ms`` holds the next move too;
- a simulated person takes ``--first-s`` for the first action of a turn and
  ``--next-s`` for each further card or "End my turn", and calls the liar
  ``--call-s`` after the window opened.

A table is written as its seats: ``h`` a person who plays like the house bot (true
cards first, a plausible lie now and then, calls what looks implausible), ``r`` a
person who picks any legal action at random (calling the liar as often as any one
action), ``e`` an easy bot, ``s`` a strong bot. Bots stay still at a table without
people (as in the room), so every table needs an ``h`` or ``r``.

Usage (from the repository root):

    .venv/bin/python bench/luegenbeutel_length.py                      # the default tables
    .venv/bin/python bench/luegenbeutel_length.py --tables heee,hhee --targets 250,500
    .venv/bin/python bench/luegenbeutel_length.py --tables hsss --matches 6 --budget-ms 100

Per table and target it prints the medians (and the middle half) of rounds, turns
and minutes of a match, and the share of matches that took more than one round.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.bots import make_bot  # noqa: E402
from app.config import Settings  # noqa: E402
from app.games import GAMES, Match, new_match  # noqa: E402
from app.rooms.table_options import TABLE_DEFAULTS  # noqa: E402

GAME = "luegenbeutel"
BOT_DELAY_S = Settings.model_fields["bot_delay_ms"].default / 1000
CHALLENGE_S = GAMES[GAME].default_options["challenge_ms"] / 1000
NEXT_DEAL_S = float(TABLE_DEFAULTS["next_deal_s"])
TRICK_PAUSE_S = TABLE_DEFAULTS["trick_pause_ms"] / 1000
KINDS = {"h": "heuristic", "r": "random", "e": "heuristic", "s": "search"}
PEOPLE = ("h", "r")


@dataclass(frozen=True)
class Pace:
    """A simulated person's timing, in seconds."""

    first: float = 4.0  # the first action of a turn: read the table, choose
    next: float = 1.2  # each further card, or "End my turn"
    call: float = 1.5  # "Lügenbeutel!" after the window opened
    read: float = 6.0  # the round's result before "Next deal"


@dataclass
class Result:
    rounds: int
    turns: int
    seconds: float
    over: bool


class Table:
    """One match on the room's clock."""

    def __init__(self, seats: str, target: int, seed: int, budget_ms: float,
                 pace: Pace) -> None:
        self.seats = seats
        self.pace = pace
        n = len(seats)
        self.m: Match = new_match(GAME, n, {"target": target, "dealer": seed % n}, seed=seed)
        self.bots = [make_bot(KINDS[k], GAME, seed=seed * 16 + s, budget_ms=budget_ms)
                     for s, k in enumerate(seats)]
        self.now = 0.0
        self.changed = 0.0  # when the table last changed
        self.window: int | None = None
        self.window_opened = 0.0
        self.hold_until = 0.0  # a round's result on show
        self.first_of_turn = True
        self.turns = 0
        self.rounds = 0
        self._asked: dict[tuple[int, int, str], str | None] = {}
        self._steps = 0

    # ----- who would move when ---------------------------------------------------------
    def _answer(self, seat: int, method: str) -> str | None:
        key = (seat, self._steps, method)
        if key not in self._asked:
            view, legal = self.m.view(seat), self.m.legal_actions(seat)
            self._asked[key] = getattr(self.bots[seat], method)(view, legal)
        return self._asked[key]

    def _offers(self) -> list[tuple[float, int, int, str]]:
        """(time, order, seat, action) of every move somebody would make now."""
        m = self.m
        view = m.view(None)
        turn = view["turn"] if view["phase"] == "play" else None
        accused = view["challenge"]["accused"] if view["challenge"]["open"] else None
        round_end = view["phase"] == "challenge"
        ready = max(self.changed, self.hold_until)
        offers: list[tuple[float, int, int, str]] = []
        for seat in sorted(m.to_act()):
            person = self.seats[seat] in PEOPLE
            order = (seat - accused) % m.players if accused is not None else 0
            if seat != turn:  # may call the liar (or accept at a round's end)
                answer = self._answer(seat, "choose_optional")
                if answer is None and round_end:
                    answer = "accept"  # the room accepts for the silent
                    at = self.window_opened + CHALLENGE_S if person else ready + BOT_DELAY_S
                elif answer is None:
                    continue
                elif person:
                    at = max(ready, self.window_opened + self.pace.call)
                else:
                    at = ready + BOT_DELAY_S
                offers.append((at, order, seat, answer))
                continue
            action = self._answer(seat, "choose")
            assert action is not None
            if person:
                at = ready + (self.pace.first if self.first_of_turn else self.pace.next)
            else:
                at = ready + BOT_DELAY_S
            if accused is not None and not action.startswith("challenge:"):
                at = max(at, self.window_opened + CHALLENGE_S)  # held back by the window
            offers.append((at, order, seat, action))
        return offers

    def play(self) -> Result:
        m = self.m
        people = [s for s, k in enumerate(self.seats) if k in PEOPLE]
        while not m.is_over and self._steps < 200_000:
            at, _, seat, action = min(self._offers())
            self.now = max(self.now, at)
            events = m.apply(seat, action)
            self._steps += 1
            self.changed = self.now
            kinds = {e["type"] for e in events}
            if kinds & {"lay", "skip", "pass", "challenge"}:
                self.first_of_turn = False
            if "end" in kinds or "challenge" in kinds or "deal" in kinds:
                self.first_of_turn = True
            self.turns += sum(1 for e in events if e["type"] == "end")
            window = m.challenge_window()
            if window is not None and window != self.window:
                self.window_opened = self.now
            self.window = window
            if "deal_end" in kinds:
                self.rounds += 1
                shown = min(self.pace.read, NEXT_DEAL_S) if people else 0.0
                self.hold_until = self.now + max(shown, TRICK_PAUSE_S)
        return Result(self.rounds, self.turns, self.now, m.is_over)


def quartiles(values: list[float]) -> tuple[float, float, float]:
    if len(values) < 2:
        v = values[0] if values else float("nan")
        return v, v, v
    q = statistics.quantiles(values, n=4, method="inclusive")
    return q[0], q[1], q[2]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", default="heee,hhee,hsss",
                        help="comma separated tables, one letter per seat (h r e s)")
    parser.add_argument("--targets", default="250,500,1000")
    parser.add_argument("--matches", type=int, default=40, help="matches per table and target")
    parser.add_argument("--strong-matches", type=int, default=8,
                        help="matches per target at tables with a strong bot (slow)")
    parser.add_argument("--budget-ms", type=float, default=100.0,
                        help="thinking budget of a strong bot (its clock time counts as "
                             "BOT_DELAY_MS, as in the room)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--first-s", type=float, default=Pace.first)
    parser.add_argument("--next-s", type=float, default=Pace.next)
    parser.add_argument("--call-s", type=float, default=Pace.call)
    parser.add_argument("--read-s", type=float, default=Pace.read)
    args = parser.parse_args()
    tables = [t for t in args.tables.split(",") if t]
    for t in tables:
        if not 2 <= len(t) <= 8 or set(t) - set(KINDS) or not set(t) & set(PEOPLE):
            parser.error(f"table {t!r}: 2 to 8 of h r e s, with at least one h or r")
    targets = [int(x) for x in args.targets.split(",") if x]
    pace = Pace(args.first_s, args.next_s, args.call_s, args.read_s)
    print(f"Lügenbeutel match length: bot delay {BOT_DELAY_S:.1f} s, challenge window "
          f"{CHALLENGE_S:.1f} s, result shown {min(pace.read, NEXT_DEAL_S):.0f} s; a person "
          f"{pace.first:.1f} s to start a turn, {pace.next:.1f} s per further action")
    print(f"{'table':8s} {'target':>6s} {'n':>3s}  {'rounds [middle half]':22s} "
          f"{'turns':>6s}  {'minutes [middle half]':22s} {'>1 round':>8s}")
    for table in tables:
        strong = "s" in table
        matches = args.strong_matches if strong else args.matches
        for target in targets:
            t0 = time.perf_counter()
            results = [Table(table, target, args.seed + i, args.budget_ms, pace).play()
                       for i in range(matches)]
            rounds = [float(r.rounds) for r in results]
            minutes = [r.seconds / 60 for r in results]
            r1, r2, r3 = quartiles(rounds)
            m1, m2, m3 = quartiles(minutes)
            turns = statistics.median(r.turns for r in results)
            longer = sum(1 for r in results if r.rounds > 1) / len(results)
            unfinished = sum(1 for r in results if not r.over)
            note = f"  ({unfinished} unfinished)" if unfinished else ""
            print(f"{table:8s} {target:6d} {len(results):3d}  {r2:5.1f} [{r1:4.1f}, {r3:4.1f}]"
                  f"       {turns:6.0f}  {m2:5.1f} [{m1:5.1f}, {m3:5.1f}]        "
                  f"{longer:7.0%}{note}  ({time.perf_counter() - t0:.0f}s)", flush=True)


if __name__ == "__main__":
    main()

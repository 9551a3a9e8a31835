"""How often the review of a deal (issue 28, :mod:`app.bots.review`) marks the
decisions of each bot level: random, heuristic (the house bots) and search (the
strong bot). A good review marks random play most and the strong bot least.

Per game and level: ``--deals`` deals of four seats (the games' tables of
``bench/arena.py``, played as the arena plays them: seats that may act off turn are
asked first). Seat 0 plays at the level, seats 1-3 are house bots; every decision
of seat 0 in the deal (its view, its legal actions, its answer) is reviewed at
``--review-ms`` per decision. Printed: decisions, those with two or more options
(choices), marked decisions and their share of the choices, the mean loss per
decision (in the game's measure) and the time taken.

Usage (from the repository root):

    .venv/bin/python bench/review_marks.py --deals 4 schafkopf mauscheln
    .venv/bin/python bench/review_marks.py --deals 20 --review-ms 300 --budget-ms 300

Options: ``--deals N`` deals per game and level (default 10), ``--budget-ms`` of
the search level (default 300), ``--review-ms`` per reviewed decision (default
300), ``--levels`` (comma separated, default ``random,heuristic,search``),
``--seed`` of the first deal.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import arena  # noqa: E402  (bench/arena.py: its tables and its way of asking bots)

from app.bots import make_bot  # noqa: E402
from app.bots.review import THRESHOLDS, DecisionPoint, review_points  # noqa: E402
from app.games import new_match  # noqa: E402

LEVELS = ("random", "heuristic", "search")


class Recorder:
    """A bot that notes every answer it gives (the seat's decision points)."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.kind = bot.kind
        self.seen: list[tuple[dict[str, Any], list[str], str]] = []

    def _note(self, view: dict[str, Any], legal: list[str], answer: str | None) -> str | None:
        if answer is not None:
            self.seen.append((view, list(legal), answer))
        return answer

    def choose(self, view: dict[str, Any], legal: list[str]) -> str:
        answer = self.bot.choose(view, legal)
        self._note(view, legal, answer)
        return str(answer)

    def choose_optional(self, view: dict[str, Any], legal: list[str]) -> str | None:
        return self._note(view, legal, self.bot.choose_optional(view, legal))


def one_deal(game: str, level: str, seed: int, budget_ms: float,
             review_ms: float) -> tuple[int, int, int, float]:
    """Seat 0 at ``level`` for one deal: (decisions, of them with two or more
    options, marked, total loss)."""
    options, _, _ = arena.SETUPS[game]
    m = new_match(game, arena.PLAYERS, dict(options, dealer=seed % arena.PLAYERS), seed=seed,
                  deals=arena.stacked(game, seed))
    recorder = Recorder(make_bot(level, game, seed=seed * 16, budget_ms=budget_ms))
    bots = [recorder] + [make_bot("heuristic", game, seed=seed * 16 + s)
                         for s in range(1, arena.PLAYERS)]
    times: dict[str, list[float]] = {}
    for _ in range(100_000):
        if m.is_over:
            break
        events = arena._step(m, bots, times)
        if any(e.get("type") in arena.DEAL_END for e in events):
            break
    # the answer "accept" the arena gives for a silent seat at a round's end is not
    # the seat's: only what the recorder saw counts
    points = [DecisionPoint(i, 0, view, legal, chosen)
              for i, (view, legal, chosen) in enumerate(recorder.seen)]
    reviewed = review_points(game, points, budget_ms=review_ms, seed=seed)
    choices = sum(len(r.options) > 1 for r in reviewed)
    return (len(reviewed), choices, sum(r.mistake for r in reviewed),
            sum(r.loss for r in reviewed))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", nargs="*", default=list(THRESHOLDS))
    parser.add_argument("--deals", type=int, default=10)
    parser.add_argument("--budget-ms", type=float, default=300.0)
    parser.add_argument("--review-ms", type=float, default=300.0)
    parser.add_argument("--levels", default=",".join(LEVELS))
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    levels = [x for x in args.levels.split(",") if x]
    if any(x not in LEVELS for x in levels) or not 1 <= args.deals <= 10_000:
        parser.error(f"--levels of {', '.join(LEVELS)}; --deals 1..10000")
    unknown = [g for g in args.games if g not in THRESHOLDS or g not in arena.SETUPS]
    if unknown:
        parser.error(f"unknown games {unknown}; of {', '.join(THRESHOLDS)}")
    load = os.getloadavg()
    print(f"review marks: {args.deals} deals per game and level, seat 0 at the level, "
          f"seats 1-3 house bots; search {args.budget_ms:.0f} ms, review "
          f"{args.review_ms:.0f} ms per decision; load average {load[0]:.2f}")
    print(f"{'game':17s} {'level':9s} {'decisions':>9s} {'choices':>7s} {'marked':>6s} "
          f"{'of choices':>10s} {'loss/decision':>13s} {'time':>6s}")
    for game in args.games:
        for level in levels:
            t0 = time.perf_counter()
            decisions = choices = marked = 0
            loss = 0.0
            for d in range(args.deals):
                n, c, k, lost = one_deal(game, level, args.seed + d, args.budget_ms,
                                         args.review_ms)
                decisions, choices, marked = decisions + n, choices + c, marked + k
                loss += lost
            share = marked / choices if choices else 0.0
            per = loss / decisions if decisions else 0.0
            print(f"{game:17s} {level:9s} {decisions:9d} {choices:7d} {marked:6d} "
                  f"{share:10.1%} {per:13.3f} {time.perf_counter() - t0:5.0f}s", flush=True)


if __name__ == "__main__":
    main()

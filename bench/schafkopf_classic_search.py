"""The classic Schafkopf's search bot against its house bot, in duplicate, on the
engine itself (issue 27): whole deals, the auction included, paid in cents.

A *board* is a seeded match (``deals`` 0: it never ends by itself) played for a
number of deals. The search (:mod:`app.bots.search.schafkopf_classic`, through
``app.bots.api.SearchBot`` as a room would ask it, ``choose_optional`` included)
sits at seats 0 and 2 and the house bot at 1 and 3; then the same board is played
again with the seats swapped. The deck of every deal depends on the seed only, so
both runs see the same cards. Per board:

    advantage = mean over the two runs of (mean cents of the search's seats
                - mean cents of the house bot's seats), divided by the deals ended

Boards are independent: the mean over boards comes with a Student-t 95 % interval.
Every decision of the search is timed (wall clock, the whole ``choose`` or
``choose_optional``); the median and the 95th percentile are printed.

This script stands beside ``bench/arena.py`` while the game is not in
``app.games.GAMES`` (the arena finds its games and search bots there).

Usage (from the repository root):

    .venv/bin/python bench/schafkopf_classic_search.py --boards 20 --deals 4 --budget 1000
    .venv/bin/python bench/schafkopf_classic_search.py --timing 3   # decision times only
    .venv/bin/python bench/schafkopf_classic_search.py --options '{"geier": true}'
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from types import SimpleNamespace
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.bots.api import SearchBot  # noqa: E402
from app.bots.search import History, search  # noqa: E402
from app.bots.search.schafkopf_classic import SEARCH, SILENT  # noqa: E402
from app.games.schafkopf_classic import SchafkopfClassicMatch  # noqa: E402
from bench.arena import percentile  # noqa: E402
from bench.schafkopf_classic_duplicate import (  # noqa: E402
    GAME,
    PLAYERS,
    SEATS_X,
    HouseBot,
    interval,
    step,
)

# the search package as app.bots.api.SearchBot asks it, with this game in it
PACKAGE = SimpleNamespace(GAMES={GAME: SEARCH}, SILENCE={GAME: SILENT}, History=History,
                          search=search)


class TimedSearch:
    """A SearchBot (strict: a failing search raises) whose decisions are timed."""

    kind = "search"

    def __init__(self, seed: int, budget_ms: float | None, times: list[float]) -> None:
        self.bot = SearchBot(GAME, seed, budget_ms, strict=True, package=PACKAGE)
        self.times = times

    def choose(self, view: dict[str, Any], legal: list[str]) -> str:
        start = time.perf_counter()
        action = self.bot.choose(view, legal)
        self.times.append((time.perf_counter() - start) * 1000)
        assert action in legal, (action, legal)
        return action

    def choose_optional(self, view: dict[str, Any], legal: list[str]) -> str | None:
        start = time.perf_counter()
        action = self.bot.choose_optional(view, legal)
        self.times.append((time.perf_counter() - start) * 1000)
        assert action is None or action in legal, (action, legal)
        return action


def play_board(board: int, search_seats: list[int], deals: int, options: dict[str, Any],
               budget_ms: float | None, times: list[float]) -> tuple[list[int], int]:
    """One run of a board: cents won per seat and the deals ended."""
    m = SchafkopfClassicMatch(PLAYERS, dict(options, dealer=board % PLAYERS, deals=0),
                              seed=board)
    bots: list[Any] = [TimedSearch(board * 16 + s, budget_ms, times) if s in search_seats
                       else HouseBot(board * 16 + s) for s in range(PLAYERS)]
    ended = 0
    while ended < deals:
        ended += sum(1 for e in step(m, bots) if e.get("type") == "deal_end")
    return list(m.scores), ended


def board_advantage(args: tuple[int, int, dict[str, Any], float | None]
                    ) -> tuple[float, list[float]]:
    board, deals, options, budget = args
    total = 0.0
    times: list[float] = []
    for swapped in (False, True):
        x_seats = [s for s in range(PLAYERS) if (s in SEATS_X) != swapped]
        cents, ended = play_board(board, x_seats, deals, options, budget, times)
        x = statistics.mean(cents[s] for s in x_seats)
        y = statistics.mean(cents[s] for s in range(PLAYERS) if s not in x_seats)
        total += (x - y) / ended
    return total / 2, times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--boards", type=int, default=20)
    parser.add_argument("--deals", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--budget", type=float, default=1000, help="ms per decision")
    parser.add_argument("--options", type=json.loads, default={}, metavar="JSON",
                        help='table options, e.g. \'{"geier": true, "all_pass": "ramsch"}\'')
    parser.add_argument("--timing", type=int, default=0, metavar="DEALS",
                        help="instead: the search at every seat for this many deals, "
                             "its decision times")
    args = parser.parse_args()
    options: dict[str, Any] = args.options
    t0 = time.perf_counter()
    if args.timing:
        times: list[float] = []
        play_board(args.seed, list(range(PLAYERS)), args.timing, options, args.budget, times)
        print(f"{GAME} search at every seat, budget {args.budget:.0f} ms, {args.timing} deals: "
              f"{len(times)} decisions, median {statistics.median(times):.0f} ms, "
              f"p95 {percentile(times, 0.95):.0f} ms, max {max(times):.0f} ms, "
              f"{time.perf_counter() - t0:.0f} s")
        return
    if args.boards < 2:
        parser.error("--boards: at least 2 for an interval")
    work = [(args.seed + b, args.deals, options, args.budget) for b in range(args.boards)]
    if args.jobs > 1:
        with ProcessPoolExecutor(args.jobs) as pool:
            results = list(pool.map(board_advantage, work))
    else:
        results = [board_advantage(w) for w in work]
    advantages = [a for a, _ in results]
    all_times = [t for _, ts in results for t in ts]
    mean, low, high = interval(advantages)
    print(f"{GAME} search vs heuristic, budget {args.budget:.0f} ms, options "
          f"{options or 'default'}: {args.boards} boards x 2 runs x {args.deals} deals: "
          f"{mean:+.2f} [{low:+.2f}, {high:+.2f}] cents per deal (95 %); search decisions "
          f"{len(all_times)}, median {statistics.median(all_times):.0f} ms, p95 "
          f"{percentile(all_times, 0.95):.0f} ms; {time.perf_counter() - t0:.0f} s")


if __name__ == "__main__":
    main()

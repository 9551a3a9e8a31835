"""Bot strength, measured in duplicate: the same deals twice with the seats swapped.

A *board* is a seeded match of four seats played for a few deals. Kind X sits at
seats 0 and 2 and kind Y at 1 and 3; then the same board is played again with X at
1 and 3 and Y at 0 and 2. Both runs see the same cards (the deck of every deal
depends on the seed only), so the luck of the cards cancels and what is left is the
difference the bots make. Per board:

    advantage = mean over the two runs of (mean result of X's seats - mean of Y's),
                divided by the deals of the board

in the game's own unit: Schafkopf units (X is one team), Beutelschneider and
Lügenbeutel points, Mauscheln chips, the classic Schafkopf's cents. Boards are
independent, so the mean over boards comes with a Student-t 95 % confidence
interval. In Lügenbeutel both runs also roll the same sequence of dice (stacked
with the deal); the reshuffles follow the play.

Every seat gets its own bot (``app.bots.make_bot``), asked at each of its turns; in
a Lügenbeutel challenge window the seats that may call the liar are asked first
(``choose_optional``, clockwise from the accused), then the seat on turn; in the
classic Schafkopf likewise the seats that may say Kontra or Retour off turn,
clockwise from the seat on turn. Decision times are taken for every decision with
two or more legal actions.

Usage (from the repository root):

    .venv/bin/python bench/arena.py                    # all games, both pairings
    .venv/bin/python bench/arena.py --boards 20 --budget-ms 200 schafkopf
    .venv/bin/python bench/arena.py --pairings search-heuristic --jobs 2 mauscheln
    .venv/bin/python bench/arena.py --old-search /tmp/old/app/bots/search --pairings search-old
    .venv/bin/python bench/arena.py --pairings search-pimc --boards 30 --jobs 2

Options: ``--boards N`` boards per game and pairing (default 30), ``--deals N``
deals per board (default: per game, below), ``--budget-ms`` of the search bots
(default 1000), ``--pairings`` (comma separated: ``search-heuristic``, ``heuristic-random``
(the default: both), ``search-pimc``, ``search-pimc-uniform``, and with ``--old-search``
also ``search-old``), ``--seed`` of the first board, ``--jobs`` boards played at once
(default 1).

``search-pimc`` pits the strong bot against the textbook plain determinized search
(kind ``pimc``, :mod:`app.bots.search.pimc`) at the same budget: the same worlds
(drawn by each game's search, weighted by the heuristic's likelihood of the plays
seen), every legal action played out with uniformly random actions for every seat
(Lügenbeutel: to the same horizon and static score), the best mean chosen.
``search-pimc-uniform``: the same with worlds drawn uniformly among the consistent
ones (``pimc-uniform``, no opponent model at all).

``--old-search DIR`` pits this checkout's search bot against another version of it:
``DIR`` is a copy of an earlier ``app/bots/search`` package (``git archive REV
app/bots/search | tar -x -C /tmp/old``). Its files are copied into a temporary
package ``arena_old_search`` with their imports of ``app.bots.search`` pointed at
it; everything else they import (the engines, the house heuristics) is this
checkout's. It plays as the kind ``old-search`` (``SearchBot`` with that package),
at the same budget.
"""

from __future__ import annotations

import argparse
import importlib
import math
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import app.bots.search  # noqa: E402,F401  (loaded before the workers fork)
from app.bots import make_bot  # noqa: E402
from app.bots.api import SearchBot  # noqa: E402
from app.games import GAMES, Match, new_match  # noqa: E402
from app.games.luegenbeutel import DECK as LB_DECK  # noqa: E402

PLAYERS = 4
SEATS_X = (0, 2)
SEATS_Y = (1, 3)

# options, deals per board, unit
SETUPS: dict[str, tuple[dict[str, Any], int, str]] = {
    "schafkopf": ({"target": 99}, 4, "units"),  # a board: each suit trumps once
    "beutelschneider": ({"target": 1000}, 2, "points"),
    "mauscheln": ({"chips": 40}, 6, "chips"),
    "luegenbeutel": ({"target": 10_000}, 1, "points"),
    # never ends by itself (deals 0); a deal nobody plays counts as a deal here
    "schafkopf_classic": ({"deals": 0}, 8, "cents"),
}
PAIRINGS = {"search-heuristic": ("search", "heuristic"),
            "heuristic-random": ("heuristic", "random"),
            "search-old": ("search", "old-search"),  # with --old-search
            "search-pimc": ("search", "pimc"),
            "search-pimc-uniform": ("search", "pimc-uniform")}
DEFAULT_PAIRINGS = ("search-heuristic", "heuristic-random")
DEAL_END = ("deal_end", "round_end")
OLD_PACKAGE = "arena_old_search"


def prepare_old_search(source: str) -> str:
    """Copy the search package at ``source`` into a temporary directory as the
    package ``arena_old_search`` (its imports of ``app.bots.search`` pointed at
    itself); returns the directory to put on ``sys.path``."""
    src = Path(source)
    if not (src / "__init__.py").is_file() or not (src / "core.py").is_file():
        raise SystemExit(f"--old-search: {source} is not a copy of app/bots/search")
    root = Path(tempfile.mkdtemp(prefix="arena-old-search-"))
    package = root / OLD_PACKAGE
    package.mkdir()
    for path in sorted(src.glob("*.py")):
        text = path.read_text(encoding="utf-8").replace("app.bots.search", OLD_PACKAGE)
        (package / path.name).write_text(text, encoding="utf-8")
    return str(root)


def old_search(root: str | None) -> Any:
    """The old search package prepared by :func:`prepare_old_search`."""
    if root is None:
        raise ValueError("the kind old-search needs --old-search")
    if root not in sys.path:
        sys.path.insert(0, root)
    return importlib.import_module(OLD_PACKAGE)


def bot_for(kind: str, game: str, seed: int, budget_ms: float, old: str | None) -> Any:
    if kind == "old-search":
        bot = SearchBot(game, seed, budget_ms, package=old_search(old))
        bot.kind = kind
        return bot
    if kind == "pimc-uniform":
        bot = make_bot("pimc", game, seed=seed, budget_ms=budget_ms, uniform=True)
        bot.kind = kind
        return bot
    return make_bot(kind, game, seed=seed, budget_ms=budget_ms)


@dataclass
class Run:
    """One board played once: score changes per seat, deals ended, decision times."""

    gains: list[float]
    deals: int
    times: dict[str, list[float]] = field(default_factory=dict)


def _timed(times: dict[str, list[float]], bot: Any, method: str, view: dict[str, Any],
           legal: list[str]) -> str | None:
    if hasattr(bot, "last_report"):
        bot.last_report = None
    start, cpu = time.perf_counter(), time.process_time()
    answer: str | None = getattr(bot, method)(view, legal)
    if len(legal) > 1:
        wall = (time.perf_counter() - start) * 1000
        times.setdefault(bot.kind, []).append(wall)
        report = getattr(bot, "last_report", None)
        if report is not None and report.samples:
            # worlds the search played every candidate out in (its playouts per action)
            times.setdefault(bot.kind + ":samples", []).append(float(report.samples))
        # the slowest decision's CPU time: far below its wall time means the
        # process was waiting for a core, not thinking
        slowest = times.setdefault(bot.kind + ":slowest", [0.0, 0.0])
        if wall > slowest[0]:
            slowest[:] = [wall, (time.process_time() - cpu) * 1000]
    return answer


def _step(m: Match, bots: list[Any], times: dict[str, list[float]]) -> list[dict[str, Any]]:
    """One action: in an open challenge window (Lügenbeutel) the seats that may call
    the liar first, clockwise from the accused; then the seat that must act."""
    seats = sorted(m.to_act())
    if len(seats) > 1:
        view0 = m.view(seats[0])
        challenge = view0.get("challenge") or {}
        accused = challenge.get("accused")
        turn = view0.get("turn") if view0.get("phase") == "play" else None
        if accused is None and turn is not None:
            # seats that may say something but need not (the classic Schafkopf's
            # Kontra and Retour): asked clockwise from the seat on turn, then it
            for seat in sorted(seats, key=lambda s: (s - turn) % PLAYERS):
                if seat != turn:
                    answer = _timed(times, bots[seat], "choose_optional", m.view(seat),
                                    m.legal_actions(seat))
                    if answer is not None:
                        return m.apply(seat, answer)
            seats = [turn]
        if accused is not None:
            order = sorted(seats, key=lambda s: (s - accused) % PLAYERS)
            for seat in order:
                if seat == turn:
                    continue
                legal = m.legal_actions(seat)
                answer = _timed(times, bots[seat], "choose_optional", m.view(seat), legal)
                if answer is None and view0.get("phase") == "challenge":
                    answer = "accept"  # the room accepts for a silent seat
                if answer is not None:
                    return m.apply(seat, answer)
            if turn is None:
                return []
            seats = [turn]
    seat = seats[0]
    legal = m.legal_actions(seat)
    action = _timed(times, bots[seat], "choose", m.view(seat), legal)
    assert action is not None
    return m.apply(seat, action)


def stacked(game: str, board: int) -> list[Any] | None:
    """Lügenbeutel: the round's cards and its dice fixed by the board, so both runs
    roll the same sequence (the k-th roll of the round is the same number)."""
    if game != "luegenbeutel":
        return None
    rng = random.Random(board)
    deck = list(LB_DECK)
    rng.shuffle(deck)
    hands = [deck[i * 10:(i + 1) * 10] for i in range(PLAYERS)]
    return [{"hands": hands, "stock": deck[PLAYERS * 10:],
             "dice": [rng.randint(1, 6) for _ in range(300)]}]


def play_board(game: str, board: int, kinds: tuple[str, str], swapped: bool,
               budget_ms: float, deals: int, old: str | None = None) -> Run:
    options, _, _ = SETUPS[game]
    m = new_match(game, PLAYERS, dict(options, dealer=board % PLAYERS), seed=board,
                  deals=stacked(game, board))
    x_seats = SEATS_Y if swapped else SEATS_X
    bots = [bot_for(kinds[0] if s in x_seats else kinds[1], game, board * 16 + s,
                    budget_ms, old) for s in range(PLAYERS)]
    start = list(m.scores)
    times: dict[str, list[float]] = {}
    ended = 0
    for _ in range(100_000):
        if m.is_over or ended >= deals:
            break
        events = _step(m, bots, times)
        ended += sum(1 for e in events if e.get("type") in DEAL_END)
    gains = [float(a - b) for a, b in zip(m.scores, start, strict=True)]
    return Run(gains, ended, times)


def board_advantage(game: str, board: int, kinds: tuple[str, str], budget_ms: float,
                    deals: int, old: str | None = None
                    ) -> tuple[float, int, dict[str, list[float]]]:
    """The duplicate advantage of kinds[0] over kinds[1] per deal on one board."""
    total = 0.0
    played = 0
    times: dict[str, list[float]] = {}
    for swapped in (False, True):
        run = play_board(game, board, kinds, swapped, budget_ms, deals, old)
        x_seats = SEATS_Y if swapped else SEATS_X
        x = statistics.mean(run.gains[s] for s in x_seats)
        y = statistics.mean(run.gains[s] for s in range(PLAYERS) if s not in x_seats)
        total += (x - y) / max(run.deals, 1)
        played += run.deals
        _merge(times, run.times)
    return total / 2, played, times


def _merge(into: dict[str, list[float]], times: dict[str, list[float]]) -> None:
    for kind, ms in times.items():
        if kind.endswith(":slowest"):
            if ms[0] > into.get(kind, [0.0])[0]:
                into[kind] = list(ms)
        else:
            into.setdefault(kind, []).extend(ms)


def t_quantile(df: int) -> float:
    """Student t, two-sided 95 % (a Cornish-Fisher expansion of the normal's 1.96)."""
    z = 1.959964
    if df <= 0:
        return float("inf")
    return (z + (z ** 3 + z) / (4 * df) + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * df ** 2)
            + (3 * z ** 7 + 19 * z ** 5 + 17 * z ** 3 - 15 * z) / (384 * df ** 3))


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    k = (len(ordered) - 1) * q
    lo, hi = math.floor(k), math.ceil(k)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (k - lo)


def _job(args: tuple[str, int, tuple[str, str], float, int, str | None]
         ) -> tuple[float, int, dict[str, list[float]]]:
    return board_advantage(*args)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", nargs="*", default=[g for g in SETUPS if g in GAMES])
    parser.add_argument("--boards", type=int, default=30)
    parser.add_argument("--deals", type=int, default=None)
    parser.add_argument("--budget-ms", type=float, default=1000.0)
    parser.add_argument("--pairings", default=",".join(DEFAULT_PAIRINGS),
                        help="comma separated: " + ", ".join(PAIRINGS))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--old-search", default=None, metavar="DIR",
                        help="a copy of an earlier app/bots/search: plays as old-search")
    args = parser.parse_args()
    if not 1 <= args.boards <= 10_000 or not 1 <= args.jobs <= 16:
        parser.error("--boards 1..10000, --jobs 1..16")
    pairings = [p for p in args.pairings.split(",") if p]
    if not pairings or any(p not in PAIRINGS for p in pairings):
        parser.error("--pairings: comma separated, of " + ", ".join(PAIRINGS))
    unknown = [g for g in args.games if g not in SETUPS]
    if unknown:
        parser.error(f"unknown games {unknown}; of {', '.join(SETUPS)}")
    if "search-old" in pairings and args.old_search is None:
        parser.error("--pairings search-old needs --old-search DIR")
    old = prepare_old_search(args.old_search) if args.old_search else None

    load_before = os.getloadavg()
    print(f"duplicate arena: {args.boards} boards per game and pairing, search budget "
          f"{args.budget_ms:.0f} ms, {args.jobs} job(s), {os.cpu_count()} cores, "
          f"load average {load_before[0]:.2f} {load_before[1]:.2f} {load_before[2]:.2f}")
    print(f"{'game':17s} {'pairing':22s} {'boards':>6s} {'deals':>6s}  "
          f"{'mean advantage per deal [95% CI]':34s} {'time':>7s}")
    all_times: dict[str, list[float]] = {}
    executor = ProcessPoolExecutor(args.jobs) if args.jobs > 1 else None
    try:
        for game in args.games:
            _, default_deals, unit = SETUPS[game]
            deals = args.deals or default_deals
            for pairing in pairings:
                kinds = PAIRINGS[pairing]
                jobs = [(game, args.seed + b, kinds, args.budget_ms, deals, old)
                        for b in range(args.boards)]
                t0 = time.perf_counter()
                results = (list(executor.map(_job, jobs)) if executor
                           else [_job(j) for j in jobs])
                advantages = [r[0] for r in results]
                played = sum(r[1] for r in results)
                for _, _, times in results:
                    _merge(all_times, times)
                mean = statistics.mean(advantages)
                sd = statistics.stdev(advantages) if len(advantages) > 1 else float("inf")
                half = t_quantile(len(advantages) - 1) * sd / math.sqrt(len(advantages))
                verdict = "above 0" if mean - half > 0 else "not above 0"
                label = f"{kinds[0]} vs {kinds[1]}"
                print(f"{game:17s} {label:22s} {len(advantages):6d} {played:6d}  "
                      f"{mean:+8.3f} [{mean - half:+8.3f}, {mean + half:+8.3f}] {unit:6s} "
                      f"{time.perf_counter() - t0:6.0f}s  {verdict}", flush=True)
    finally:
        if executor is not None:
            executor.shutdown()
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)
    print("decision times (decisions with 2+ legal actions):")
    for kind in sorted(k for k in all_times if ":" not in k):
        ms = all_times[kind]
        cpu = all_times.get(kind + ":slowest", [0.0, 0.0])[1]
        print(f"  {kind:10s} n={len(ms):6d}  p50 {percentile(ms, 0.5):8.2f} ms  "
              f"p95 {percentile(ms, 0.95):8.2f} ms  max {max(ms):8.2f} ms "
              f"(CPU {cpu:.0f} ms)")
    for kind in sorted(k for k in all_times if k.endswith(":samples")):
        n = all_times[kind]
        print(f"  {kind.split(':')[0]:10s} worlds per searched decision: "
              f"p50 {percentile(n, 0.5):6.0f}  p5 {percentile(n, 0.05):6.0f}  "
              f"mean {statistics.mean(n):6.1f}")
    load_after = os.getloadavg()
    print(f"load average after: {load_after[0]:.2f} {load_after[1]:.2f} {load_after[2]:.2f}")


if __name__ == "__main__":
    main()

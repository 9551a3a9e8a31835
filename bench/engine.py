"""Rules-engine speed and size: seeded random legal playouts of every game.

Per game (4 players each) it prints:

- actions/s      engine actions applied per second during whole random playouts
                 (to_act + legal_actions + apply + the random choice), median of runs
- matches/s      whole matches played from deal to end per second, median of runs
- view µs        one ``view(seat)`` call, median over every position of the sampled
                 playouts (and p95)
- view/act       that median view cost divided by the mean cost of one playout action:
                 how many actions' worth of engine time one seat's view costs
- snapshot µs    one ``snapshot()`` call, median (and p95)
- snap/act       that median snapshot cost divided by the mean cost of one action
                 (the server stores a snapshot with every accepted action)
- snap bytes     ``json.dumps(snapshot())``, median and max over the same positions,
                 without the RNG state: a room people open is unseeded and its snapshot
                 has none; a seeded match adds its Mersenne Twister state (the footer
                 says how many bytes)
- KiB/match      memory held by one match object (tracemalloc over 200 matches):
                 freshly dealt, and after 100 random actions

The figures come from one process on a shared machine: compare ratios between
games or between two commits on the same machine, not absolute numbers across
machines. Usage: python bench/engine.py [runs] [game ...]   (runs default 5)
"""

from __future__ import annotations

import gc
import json
import platform
import random
import statistics
import sys
import time
import tracemalloc
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.games import GAMES, Match, new_match  # noqa: E402

PLAYERS = 4
MATCHES_PER_RUN = 60  # whole playouts timed per run and game
SAMPLED_MATCHES = 4  # playouts whose every position is sampled for view/snapshot
MEMORY_MATCHES = 200
MID_MATCH_ACTIONS = 100
STEP_CAP = 20_000  # a random playout longer than this is abandoned (never seen)


def options_for(game: str, seed: int) -> dict[str, Any]:
    return {"dealer": seed % PLAYERS}


def step(m: Match, rng: random.Random) -> None:
    seat = rng.choice(sorted(m.to_act()))
    m.apply(seat, rng.choice(m.legal_actions(seat)))


def playout(game: str, seed: int) -> int:
    """One whole seeded match with random legal actions; the number of actions."""
    m = new_match(game, PLAYERS, options_for(game, seed), seed=seed)
    rng = random.Random(seed * 7 + 1)
    n = 0
    while not m.is_over and n < STEP_CAP:
        step(m, rng)
        n += 1
    return n


def speed_run(game: str, run: int) -> tuple[float, float, int]:
    """(actions/s, matches/s, actions) over MATCHES_PER_RUN seeded playouts."""
    seeds = range(run * 10_000, run * 10_000 + MATCHES_PER_RUN)
    t0 = time.perf_counter()
    actions = sum(playout(game, s) for s in seeds)
    dt = time.perf_counter() - t0
    return actions / dt, MATCHES_PER_RUN / dt, actions


def per_call_costs(game: str, run: int) -> tuple[list[float], list[float], list[int]]:
    """µs per view(seat), µs per snapshot(), JSON bytes per snapshot, at every
    position of a few seeded playouts."""
    views: list[float] = []
    snaps: list[float] = []
    sizes: list[int] = []
    clock = time.perf_counter_ns
    for seed in range(run * 10_000 + 5_000, run * 10_000 + 5_000 + SAMPLED_MATCHES):
        m = new_match(game, PLAYERS, options_for(game, seed), seed=seed)
        rng = random.Random(seed)
        n = 0
        while not m.is_over and n < STEP_CAP:
            seat = n % PLAYERS
            t0 = clock()
            m.view(seat)
            t1 = clock()
            snap = m.snapshot()
            t2 = clock()
            views.append((t1 - t0) / 1000)
            snaps.append((t2 - t1) / 1000)
            snap["rng"] = None  # as in an unseeded room: see the footer
            sizes.append(len(json.dumps(snap, separators=(",", ":")).encode()))
            step(m, rng)
            n += 1
    return views, snaps, sizes


def kib_per_match(game: str, actions: int) -> float:
    """Live memory of MEMORY_MATCHES matches (after ``actions`` random actions each),
    divided by their number. Events and views are garbage by then and not counted."""
    gc.collect()
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    held: list[Match] = []
    for seed in range(MEMORY_MATCHES):
        m = new_match(game, PLAYERS, options_for(game, seed), seed=seed)
        rng = random.Random(seed)
        for _ in range(actions):
            if m.is_over:
                break
            step(m, rng)
        held.append(m)
    gc.collect()
    used = tracemalloc.get_traced_memory()[0] - base
    tracemalloc.stop()
    del held
    return used / MEMORY_MATCHES / 1024


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    games = sys.argv[2:] or list(GAMES)
    print(f"engine bench: {runs} runs x {MATCHES_PER_RUN} seeded random playouts per game, "
          f"{PLAYERS} players; Python {platform.python_version()}, "
          f"{platform.machine()}")
    print(f"{'game':16s} {'actions/s':>9s} {'matches/s':>9s} {'act/match':>9s} "
          f"{'view µs':>11s} {'view/act':>8s} {'snapshot µs':>12s} {'snap/act':>8s} "
          f"{'snap bytes':>11s} {'KiB/match':>13s}")
    print(f"{'':16s} {'median':>9s} {'median':>9s} {'median':>9s} "
          f"{'med / p95':>11s} {'ratio':>8s} {'med / p95':>12s} {'ratio':>8s} "
          f"{'med / max':>11s} {'fresh / +100':>13s}")
    t_all = time.perf_counter()
    for game in games:
        speeds = [speed_run(game, r) for r in range(runs)]
        aps = statistics.median(s[0] for s in speeds)
        mps = statistics.median(s[1] for s in speeds)
        per_match = statistics.median(s[2] / MATCHES_PER_RUN for s in speeds)
        view_meds: list[float] = []
        snap_meds: list[float] = []
        view_all: list[float] = []
        snap_all: list[float] = []
        sizes: list[int] = []
        for r in range(runs):
            v, s, z = per_call_costs(game, r)
            view_meds.append(statistics.median(v))
            snap_meds.append(statistics.median(s))
            view_all += v
            snap_all += s
            sizes += z
        fresh = kib_per_match(game, 0)
        played = kib_per_match(game, MID_MATCH_ACTIONS)
        view_med = statistics.median(view_meds)
        snap_med = statistics.median(snap_meds)
        print(f"{game:16s} {aps:9,.0f} {mps:9,.1f} {per_match:9.0f} "
              f"{view_med:5.1f} /{pct(view_all, 0.95):4.0f} {view_med * aps / 1e6:7.1f}x "
              f"{snap_med:6.1f} /{pct(snap_all, 0.95):4.0f} {snap_med * aps / 1e6:7.1f}x "
              f"{statistics.median(sizes):5.0f} /{max(sizes):5d} "
              f"{fresh:5.1f} /{played:6.1f}")
    rng_bytes = len(json.dumps(new_match(games[0], PLAYERS, seed=1).snapshot()["rng"],
                               separators=(",", ":")))
    print(f"({time.perf_counter() - t_all:.1f} s; µs figures are medians of per-run "
          f"medians, p95/max over all sampled positions; a seeded match's snapshot "
          f"also holds its RNG state: +{rng_bytes} bytes)")


if __name__ == "__main__":
    main()

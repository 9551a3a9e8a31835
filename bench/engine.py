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
- sample µs      what a search bot pays to set up one determinized world: one
                 ``match.copy()`` (median over the sampled positions) plus one
                 ``new_match(game, 4, options, seed, deals=[stacked deal])`` (median)
- snap bytes     ``json.dumps(snapshot())``, median and max over the same positions,
                 without the RNG state: a room people open is unseeded and its snapshot
                 has none; a seeded match adds its Mersenne Twister state (the footer
                 says how many bytes)
- KiB/match      memory held by one match object (tracemalloc over 200 matches):
                 freshly dealt, and after 100 random actions

The figures come from one process on a shared machine: compare ratios between
games or between two commits on the same machine, not absolute numbers across
machines.

Usage::

    python bench/engine.py [runs] [game ...]                  (runs default 5)
    python bench/engine.py --baseline REV [runs] [game ...]   (side by side with REV)

``--baseline REV`` checks REV out into a temporary git worktree (removed afterwards)
and measures the playouts, the view and the sample cost of both code bases, each in a
fresh subprocess whose ``PYTHONPATH`` is that checkout, alternating baseline and
current rounds so that the machine's load drifts over both alike. It prints the
medians per side, the ratios and the load average during the run.
"""

from __future__ import annotations

import gc
import json
import os
import platform
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
# A worker imports the engine of whichever checkout PYTHONPATH names (the baseline's
# or this one); everyone else imports this checkout's.
WORKER = "--worker" in sys.argv
if not WORKER:
    sys.path.insert(0, str(ROOT))

import app.games  # noqa: E402
from app.games import GAMES, Match, new_match  # noqa: E402

PLAYERS = 4
MATCHES_PER_RUN = 60  # whole playouts timed per run and game
SAMPLED_MATCHES = 4  # playouts whose every position is sampled for view/snapshot/copy
DEALS_TIMED = 200  # stacked deals dealt per run for the sample cost
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


def speed_run(game: str, run: int, matches: int = MATCHES_PER_RUN) -> tuple[float, float, int]:
    """(actions/s, matches/s, actions) over ``matches`` seeded playouts."""
    seeds = range(run * 10_000, run * 10_000 + matches)
    t0 = time.perf_counter()
    actions = sum(playout(game, s) for s in seeds)
    dt = time.perf_counter() - t0
    return actions / dt, matches / dt, actions


def per_call_costs(game: str, run: int, snapshots: bool = True
                   ) -> tuple[list[float], list[float], list[float], list[int]]:
    """µs per view(seat), µs per snapshot(), µs per copy(), JSON bytes per snapshot,
    at every position of a few seeded playouts (no snapshots: those lists empty)."""
    views: list[float] = []
    snaps: list[float] = []
    copies: list[float] = []
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
            m.copy()
            t2 = clock()
            views.append((t1 - t0) / 1000)
            copies.append((t2 - t1) / 1000)
            if snapshots:
                t2 = clock()
                snap = m.snapshot()
                snaps.append((clock() - t2) / 1000)
                snap["rng"] = None  # as in an unseeded room: see the footer
                sizes.append(len(json.dumps(snap, separators=(",", ":")).encode()))
            step(m, rng)
            n += 1
    return views, snaps, copies, sizes


def stacked_deal(game: str, seed: int) -> dict[str, Any]:
    """A stacked first deal for ``game``: the cards of a fresh seeded match, read from
    its snapshot (the keys of a stacked deal are in docs/engine.md)."""
    state = new_match(game, PLAYERS, options_for(game, seed), seed=seed).snapshot()["state"]
    deal: dict[str, Any] = {"hands": state["hands"]}
    if game == "mauscheln":
        deal.update(trump=state["trump_card"], stock=state["stock"])
    elif game == "luegenbeutel":
        deal["stock"] = state["stock"]
    return deal


def deal_costs(game: str, run: int) -> list[float]:
    """µs per ``new_match`` with one stacked deal: a search bot's fresh world."""
    base = run * 10_000 + 7_000
    deals = [(seed, stacked_deal(game, seed)) for seed in range(base, base + DEALS_TIMED)]
    clock = time.perf_counter_ns
    costs: list[float] = []
    for seed, deal in deals:
        t0 = clock()
        new_match(game, PLAYERS, options_for(game, seed), seed=seed, deals=[deal])
        costs.append((clock() - t0) / 1000)
    return costs


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


def parse_args(argv: list[str]) -> tuple[int, list[str], dict[str, str]]:
    """``[runs] [game ...]`` plus ``--name value`` flags (and the bare ``--worker``)."""
    flags: dict[str, str] = {}
    rest: list[str] = []
    i = 0
    while i < len(argv):
        arg = argv[i]
        if arg == "--worker":
            flags["worker"] = "1"
        elif arg.startswith("--"):
            if i + 1 >= len(argv):
                sys.exit(f"{arg} needs a value")
            flags[arg[2:]] = argv[i + 1]
            i += 1
        else:
            rest.append(arg)
        i += 1
    runs = 5
    if rest and rest[0].isdigit():
        runs = int(rest.pop(0))
    unknown = [g for g in rest if g not in GAMES]
    if unknown:
        sys.exit(f"unknown game(s): {', '.join(unknown)}; known: {', '.join(GAMES)}")
    return runs, rest or list(GAMES), flags


# ----- one checkout's figures (the worker of a side-by-side run) -----------------------
def measure(game: str, run: int, matches: int) -> dict[str, float]:
    """One round of the side-by-side figures of ``game``."""
    aps, _, _ = speed_run(game, run, matches)
    views, _, copies, _ = per_call_costs(game, run, snapshots=False)
    view = statistics.median(views)
    copy = statistics.median(copies)
    deal = statistics.median(deal_costs(game, run))
    return {"aps": aps, "view": view, "view_act": view * aps / 1e6, "copy": copy,
            "deal": deal, "sample": copy + deal}


def worker(run: int, games: list[str], matches: int) -> None:
    print(json.dumps({
        "engine": str(Path(app.games.__file__).resolve()),
        "figures": {game: measure(game, run, matches) for game in games},
    }))


# ----- side by side with another commit ---------------------------------------------
def run_worker(root: Path, run: int, games: list[str], matches: int) -> dict[str, Any]:
    env = dict(os.environ, PYTHONPATH=str(root))
    out = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), "--worker", "--matches",
         str(matches), str(run), *games],
        env=env, cwd=root, check=True, capture_output=True, text=True,
    ).stdout
    result: dict[str, Any] = json.loads(out)
    engine = Path(result["engine"])
    if root.resolve() not in engine.parents:
        sys.exit(f"the worker for {root} imported the engine from {engine}")
    figures: dict[str, Any] = result["figures"]
    return figures


def side_by_side(rev: str, runs: int, games: list[str], matches: int) -> None:
    commit = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", rev],
                            check=True, capture_output=True, text=True).stdout.strip()
    head = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],
                          check=True, capture_output=True, text=True).stdout.strip()
    dirty = subprocess.run(["git", "-C", str(ROOT), "status", "--porcelain", "app/games"],
                           check=True, capture_output=True, text=True).stdout.strip()
    current = f"{head}{'+changes' if dirty else ''}"
    tmp = Path(tempfile.mkdtemp(prefix="engine-bench-"))
    checkout = tmp / "baseline"
    print(f"engine bench side by side: baseline {commit} vs current {current} ({ROOT}); "
          f"{runs} alternating rounds x {matches} playouts per game, {PLAYERS} players; "
          f"Python {platform.python_version()}, {os.cpu_count()} CPUs")
    subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(checkout),
                    commit], check=True, capture_output=True)
    sides: dict[str, list[dict[str, Any]]] = {"baseline": [], "current": []}
    loads = [os.getloadavg()[0]]
    t0 = time.perf_counter()
    try:
        for run in range(runs):
            # alternate who goes first, so a drift of the load hits both sides alike
            order = ["baseline", "current"] if run % 2 == 0 else ["current", "baseline"]
            for side in order:
                root = checkout if side == "baseline" else ROOT
                sides[side].append(run_worker(root, run, games, matches))
                loads.append(os.getloadavg()[0])
            print(f"  round {run + 1}/{runs} done ({time.perf_counter() - t0:.0f} s, "
                  f"load {loads[-1]:.2f})", flush=True)
    finally:
        subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force",
                        str(checkout)], check=False, capture_output=True)
        shutil.rmtree(tmp, ignore_errors=True)

    def med(side: str, game: str, key: str) -> float:
        return statistics.median(r[game][key] for r in sides[side])

    def ratio(game: str) -> float:
        # per round, current over baseline (neighbours in time), then the median
        return statistics.median(c[game]["aps"] / b[game]["aps"]
                                 for b, c in zip(sides["baseline"], sides["current"],
                                                 strict=True))

    print(f"{'game':16s} {'actions/s':>19s} {'ratio':>6s} {'view/act':>13s} "
          f"{'view µs':>13s} {'copy µs':>13s} {'deal µs':>13s} {'sample µs':>13s}")
    print(f"{'':16s} {'base / current':>19s} {'':>6s} " + " ".join(
        f"{'base / cur':>13s}" for _ in range(5)))
    for game in games:
        cells = [f"{med('baseline', game, k):6.1f} /{med('current', game, k):6.1f}"
                 for k in ("view_act", "view", "copy", "deal", "sample")]
        speeds = f"{med('baseline', game, 'aps'):9,.0f} /{med('current', game, 'aps'):8,.0f}"
        print(f"{game:16s} {speeds} {ratio(game):5.2f}x " + " ".join(f"{c:>13s}" for c in cells))
    print(f"({time.perf_counter() - t0:.0f} s; medians over the rounds; ratio: median of the "
          f"per-round current/baseline actions/s; view/act in actions; sample = copy + deal; "
          f"1-min load average during the run: min {min(loads):.2f}, median "
          f"{statistics.median(loads):.2f}, max {max(loads):.2f} on {os.cpu_count()} CPUs)")


# ----- the full table of this checkout --------------------------------------------------
def full_table(runs: int, games: list[str]) -> None:
    print(f"engine bench: {runs} runs x {MATCHES_PER_RUN} seeded random playouts per game, "
          f"{PLAYERS} players; Python {platform.python_version()}, "
          f"{platform.machine()}; load average {os.getloadavg()[0]:.2f}")
    print(f"{'game':16s} {'actions/s':>9s} {'matches/s':>9s} {'act/match':>9s} "
          f"{'view µs':>11s} {'view/act':>8s} {'snapshot µs':>12s} {'snap/act':>8s} "
          f"{'sample µs':>17s} {'snap bytes':>11s} {'KiB/match':>13s}")
    print(f"{'':16s} {'median':>9s} {'median':>9s} {'median':>9s} "
          f"{'med / p95':>11s} {'ratio':>8s} {'med / p95':>12s} {'ratio':>8s} "
          f"{'copy + deal = sum':>17s} {'med / max':>11s} {'fresh / +100':>13s}")
    t_all = time.perf_counter()
    for game in games:
        speeds = [speed_run(game, r) for r in range(runs)]
        aps = statistics.median(s[0] for s in speeds)
        mps = statistics.median(s[1] for s in speeds)
        per_match = statistics.median(s[2] / MATCHES_PER_RUN for s in speeds)
        view_meds: list[float] = []
        snap_meds: list[float] = []
        copy_meds: list[float] = []
        deal_meds: list[float] = []
        view_all: list[float] = []
        snap_all: list[float] = []
        sizes: list[int] = []
        for r in range(runs):
            v, s, c, z = per_call_costs(game, r)
            view_meds.append(statistics.median(v))
            snap_meds.append(statistics.median(s))
            copy_meds.append(statistics.median(c))
            deal_meds.append(statistics.median(deal_costs(game, r)))
            view_all += v
            snap_all += s
            sizes += z
        fresh = kib_per_match(game, 0)
        played = kib_per_match(game, MID_MATCH_ACTIONS)
        view_med = statistics.median(view_meds)
        snap_med = statistics.median(snap_meds)
        copy_med = statistics.median(copy_meds)
        deal_med = statistics.median(deal_meds)
        sample = f"{copy_med:4.0f} +{deal_med:4.0f} ={copy_med + deal_med:4.0f}"
        print(f"{game:16s} {aps:9,.0f} {mps:9,.1f} {per_match:9.0f} "
              f"{view_med:5.1f} /{pct(view_all, 0.95):4.0f} {view_med * aps / 1e6:7.1f}x "
              f"{snap_med:6.1f} /{pct(snap_all, 0.95):4.0f} {snap_med * aps / 1e6:7.1f}x "
              f"{sample:>17s} {statistics.median(sizes):5.0f} /{max(sizes):5d} "
              f"{fresh:5.1f} /{played:6.1f}")
    rng_bytes = len(json.dumps(new_match(games[0], PLAYERS, seed=1).snapshot()["rng"],
                               separators=(",", ":")))
    print(f"({time.perf_counter() - t_all:.1f} s; µs figures are medians of per-run "
          f"medians, p95/max over all sampled positions; a seeded match's snapshot "
          f"also holds its RNG state: +{rng_bytes} bytes; load average now "
          f"{os.getloadavg()[0]:.2f})")


def main() -> None:
    runs, games, flags = parse_args(sys.argv[1:])
    matches = int(flags.get("matches", MATCHES_PER_RUN))
    if "worker" in flags:
        worker(runs, games, matches)  # "runs" is the round number here
    elif "baseline" in flags:
        side_by_side(flags["baseline"], runs, games, matches)
    else:
        full_table(runs, games)


if __name__ == "__main__":
    main()

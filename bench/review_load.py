"""Another room's action latency while reviews of deals are worked out (issue 28).

The review of a person's deal thinks in the bot pool's review worker (a process of
its own at a lower priority, one decision at a time, only while no bot's move
waits), ``REVIEW_BUDGET_MS`` per decision. This starts the app as ``make run``
serves it (``tests.conftest.Server``'s uvicorn flags) on a free 127.0.0.1 port and a
fresh SQLite database, and prepares ``--reviews`` rooms per round whose first deal
four people played over the JSON API. A victim room of four people then plays over
the API, one move every ``--every-ms`` (the move's own POST is timed, from request
to answer), in alternating phases of ``--seconds`` each:

* ``idle``: nothing else happens;
* ``reviews``: at the phase's start, one person in each prepared room asks for the
  review of deal 1 (four reviews by default), which keeps the review worker busy
  for the whole phase (eight decisions of ``REVIEW_BUDGET_MS`` each per review).

It prints per phase the victim's move latency p50 / p95 / mean, how many of the
reviews were ready at the phase's end, the server's CPU (whole process and its
event-loop thread, 100 % = one core) and the load average, and the ratio of each
review phase's figures to the idle phase before it (the target: within 10 %).

Usage: python bench/review_load.py [--rounds 2] [--seconds 20] [--reviews 4]
       [--every-ms 50] [--review-budget-ms 1000]
Only 127.0.0.1 is contacted.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import httpx  # noqa: E402

from bench.load import cpu_seconds, load_average, main_thread_cpu_seconds  # noqa: E402
from tests.conftest import Server, migrate  # noqa: E402
from tests.web.apiclient import Table, sit_in_order  # noqa: E402

NAMES = ("Anna", "Bert", "Cilli", "Done")


def seated(base: str, seed: int) -> tuple[Table, list[str]]:
    table = Table(base, "schafkopf", options={"dealer": 3, "target": 99}, seed=seed)
    tokens = [t for _, t in sit_in_order(table, NAMES)]
    assert table.start().status_code == 200
    return table, tokens


def move(table: Table, tokens: list[str], rng: random.Random) -> float | None:
    """One move of whoever is on turn; the POST's latency in ms (None: no move)."""
    states = [table.view(t) for t in tokens]
    seat = next((i for i, st in enumerate(states) if st["legal"]), None)
    if seat is None:
        return None
    st = states[seat]
    began = time.perf_counter()
    r = table.act(tokens[seat], rng.choice(st["legal"]), st["version"])
    took = (time.perf_counter() - began) * 1000
    assert r.status_code in (200, 202), r.text
    return took


def play_deal_one(table: Table, tokens: list[str], rng: random.Random) -> None:
    while table.view()["view"].get("deal_no") == 1:
        if move(table, tokens, rng) is None:
            return


def ask(http: httpx.Client, room: str, token: str) -> int:
    r = http.get(f"/api/rooms/{room}/review", params={"deal": 1},
                 headers={"Authorization": f"Bearer {token}"})
    assert r.status_code in (200, 202), r.text
    return r.status_code


def phase(srv: Server, victim: Table, tokens: list[str], seconds: float, every: float,
          rng: random.Random) -> dict[str, Any]:
    assert srv.proc is not None
    pid = srv.proc.pid
    cpu, loop_cpu, began = cpu_seconds(pid), main_thread_cpu_seconds(pid), time.monotonic()
    times: list[float] = []
    next_at = began
    while time.monotonic() - began < seconds:
        took = move(victim, tokens, rng)
        if took is not None:
            times.append(took)
        next_at += every
        time.sleep(max(0.0, next_at - time.monotonic()))
    wall = time.monotonic() - began
    times.sort()
    return {"moves": len(times), "p50": statistics.median(times),
            "p95": times[int(0.95 * (len(times) - 1))], "mean": statistics.fmean(times),
            "cpu": 100 * (cpu_seconds(pid) - cpu) / wall,
            "loop": 100 * (main_thread_cpu_seconds(pid) - loop_cpu) / wall,
            "load": load_average()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--reviews", type=int, default=4)
    parser.add_argument("--every-ms", type=float, default=50.0)
    parser.add_argument("--review-budget-ms", type=int, default=1000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{Path(tmp) / 'bench.db'}"
        migrate(url)
        srv = Server(url, Path(tmp) / "server.log", env={
            "REVIEW_BUDGET_MS": str(args.review_budget_ms), "LOG_LEVEL": "warning"}).start()
        try:
            rng = random.Random(1)
            prepared = []
            for i in range(args.rounds * args.reviews):
                table, tokens = seated(srv.base, 100 + i)
                play_deal_one(table, tokens, rng)
                prepared.append((table, tokens))
            victim, victim_tokens = seated(srv.base, 7)
            for _ in range(20):  # the victim's first moves: nothing measured
                move(victim, victim_tokens, rng)
            print(f"{args.reviews} reviews per round at REVIEW_BUDGET_MS="
                  f"{args.review_budget_ms}; a victim move every {args.every_ms:.0f} ms, "
                  f"{args.seconds:.0f} s per phase")
            print(f"{'phase':<10}{'moves':>6}{'p50 ms':>9}{'p95 ms':>9}{'mean ms':>9}"
                  f"{'ready':>7}{'cpu %':>7}{'loop %':>8}  load")
            ratios = []
            for r in range(args.rounds):
                idle = phase(srv, victim, victim_tokens, args.seconds, args.every_ms / 1000,
                             rng)
                print(f"{'idle':<10}{idle['moves']:>6}{idle['p50']:>9.2f}{idle['p95']:>9.2f}"
                      f"{idle['mean']:>9.2f}{'-':>7}{idle['cpu']:>7.0f}{idle['loop']:>8.0f}"
                      f"  {idle['load']}")
                mine = prepared[r * args.reviews:(r + 1) * args.reviews]
                for table, tokens in mine:
                    ask(table.http, table.room, tokens[0])
                busy = phase(srv, victim, victim_tokens, args.seconds, args.every_ms / 1000,
                             rng)
                ready = sum(ask(t.http, t.room, tokens[0]) == 200 for t, tokens in mine)
                print(f"{'reviews':<10}{busy['moves']:>6}{busy['p50']:>9.2f}"
                      f"{busy['p95']:>9.2f}{busy['mean']:>9.2f}{ready:>5}/{len(mine)}"
                      f"{busy['cpu']:>7.0f}{busy['loop']:>8.0f}  {busy['load']}")
                ratios.append((busy["p50"] / idle["p50"], busy["p95"] / idle["p95"],
                               busy["mean"] / idle["mean"]))
            for i, (p50, p95, mean) in enumerate(ratios, 1):
                print(f"round {i}: reviews / idle  p50 {p50:.3f}  p95 {p95:.3f}  "
                      f"mean {mean:.3f}")
        finally:
            srv.stop()


if __name__ == "__main__":
    main()

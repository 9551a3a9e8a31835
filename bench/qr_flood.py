"""What clients that loop on a room's QR code cost the other tables.

Issue 25 item 3: ``/r/{room}/qr.svg`` drew the code of whatever ``Host`` a request
named; two clients looping on it with a 2,000-character Host took another room's
view from p50 2.6 to 52 ms. This starts the app as ``make run`` serves it (through
``tests.conftest.Server``'s uvicorn flags, the default ``RATE_QR``) on a free
127.0.0.1 port and a fresh SQLite database, opens a victim room (four people, a
started Schafkopf match) and the room whose code is asked for, then for each
scenario runs ``--attackers`` client processes that ask for the code as fast as
they get answers while one client reads the victim's ``/api/rooms/{room}/view``
every 20 ms:

* ``idle``: nobody asks for the code (the victim alone);
* ``same-host``: every request names the server's own address;
* ``long-host``: a 2,000-character Host;
* ``many-hosts``: every request a new valid 253-character host name.

It prints per scenario the victim's latency p50 / p95 / p99, the attackers' requests
and their answers by status, and the server's CPU (whole process and its event-loop
thread, 100 % = one core). ``--app-dir DIR`` serves the app from another checkout
(``git archive <commit> | tar -x -C DIR``, its ``static/vendor`` copied in) to
measure the code before a change on the same machine.

Usage: python bench/qr_flood.py [--duration S] [--attackers N] [--app-dir DIR]
       [--scenarios idle,same-host,long-host,many-hosts]
Only 127.0.0.1 is contacted.
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import secrets
import statistics
import sys
import tempfile
import time
from collections import Counter
from multiprocessing.connection import Connection
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import httpx  # noqa: E402

from bench.load import cpu_seconds, load_average, main_thread_cpu_seconds  # noqa: E402
from tests.conftest import Server, migrate  # noqa: E402

SCENARIOS = ("idle", "same-host", "long-host", "many-hosts")
VICTIM_EVERY_S = 0.02
LABEL = "a" * 63


def hosts(scenario: str, own: str) -> str:
    """The Host header of one attacking request."""
    if scenario == "long-host":
        return "a" * 2000
    if scenario == "many-hosts":  # a new valid name each time: 4 labels, 253 characters
        return ".".join([secrets.token_hex(31) + "a", LABEL, LABEL, "b" * 61])
    return own


def attacker(conn: Connection, base: str, path: str, scenario: str, until: float) -> None:
    own = base.removeprefix("http://")
    statuses: Counter[int] = Counter()
    with httpx.Client(base_url=base, timeout=30) as http:
        while time.monotonic() < until:
            try:
                r = http.get(path, headers={"Host": hosts(scenario, own)})
                statuses[r.status_code] += 1
            except httpx.HTTPError:
                statuses[0] += 1
    conn.send(dict(statuses))


def victim(base: str, room: str, token: str, until: float) -> list[float]:
    """Read the victim seat's view every 20 ms; the latency of each, in ms."""
    out = []
    with httpx.Client(base_url=base, timeout=30,
                      headers={"Authorization": f"Bearer {token}"}) as http:
        while time.monotonic() < until:
            started = time.perf_counter()
            r = http.get(f"/api/rooms/{room}/view")
            out.append((time.perf_counter() - started) * 1000)
            assert r.status_code == 200, r.text
            time.sleep(VICTIM_EVERY_S)
    return out


def start(app_dir: Path, workdir: Path) -> Server:
    db = f"sqlite:///{workdir / 'flood.db'}"
    migrate(db)
    srv = Server(db, workdir / "server.log", env={
        "RATE_QR": "30/minute;300/hour", "BOT_DELAY_MS": "700"})
    srv.cwd = app_dir
    return srv.start()


def rooms(base: str) -> tuple[str, str, str]:
    """The victim room (started, four people), its first seat token, and the room
    whose QR code is asked for."""
    with httpx.Client(base_url=base, timeout=30) as http:
        made = http.post("/api/rooms", json={"game": "schafkopf"}).json()
        tokens = [http.post(f"/api/rooms/{made['room']}/join", json={"name": n}).json()["token"]
                  for n in ("Anna", "Bert", "Cilli", "Done")]
        r = http.post(f"/api/rooms/{made['room']}/start",
                      headers={"Authorization": f"Bearer {made['host_token']}"})
        assert r.status_code == 200, r.text
        other = http.post("/api/rooms", json={"game": "mauscheln"}).json()["room"]
    return made["room"], tokens[0], other


def scenario(srv: Server, name: str, victim_room: str, token: str, qr_room: str,
             args: argparse.Namespace) -> str:
    assert srv.proc is not None
    pid = srv.proc.pid
    until = time.monotonic() + args.duration
    procs, pipes = [], []
    if name != "idle":
        for _ in range(args.attackers):
            ours, theirs = mp.Pipe(duplex=False)
            p = mp.Process(target=attacker, args=(theirs, srv.base, f"/r/{qr_room}/qr.svg",
                                                  name, until))
            p.start()
            procs.append(p)
            pipes.append(ours)
    cpu0, loop0, t0 = cpu_seconds(pid), main_thread_cpu_seconds(pid), time.monotonic()
    latencies = victim(srv.base, victim_room, token, until)
    statuses: Counter[int] = Counter()
    for pipe, p in zip(pipes, procs, strict=True):
        statuses.update(pipe.recv())
        p.join()
    wall = time.monotonic() - t0
    cpu = (cpu_seconds(pid) - cpu0) / wall * 100
    loop = (main_thread_cpu_seconds(pid) - loop0) / wall * 100
    q = statistics.quantiles(latencies, n=100)
    asked = sum(statuses.values())
    answers = ", ".join(f"{code}: {n}" for code, n in sorted(statuses.items())) or "-"
    return (f"| {name} | {q[49]:.1f} / {q[94]:.1f} / {q[98]:.1f} ms | {len(latencies)} | "
            f"{asked} ({asked / wall:.0f}/s) | {answers} | {cpu:.0f} % | {loop:.0f} % |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--duration", type=float, default=15.0)
    parser.add_argument("--attackers", type=int, default=2)
    parser.add_argument("--app-dir", type=Path, default=ROOT)
    parser.add_argument("--scenarios", default=",".join(SCENARIOS))
    args = parser.parse_args()
    chosen = [s for s in args.scenarios.split(",") if s]
    unknown = set(chosen) - set(SCENARIOS)
    if unknown:
        raise SystemExit(f"unknown scenarios: {', '.join(sorted(unknown))}")
    with tempfile.TemporaryDirectory() as tmp:
        srv = start(args.app_dir.resolve(), Path(tmp))
        try:
            victim_room, token, qr_room = rooms(srv.base)
            print(f"app from {args.app_dir}, {args.attackers} attackers, {args.duration:.0f} s "
                  f"each, load average {load_average()}")
            print("| scenario | victim's view p50 / p95 / p99 | views | attackers' "
                  "requests | their answers | server CPU | event loop |")
            print("|---|---|---|---|---|---|---|")
            for name in chosen:
                print(scenario(srv, name, victim_room, token, qr_room, args), flush=True)
            print(f"load average after: {load_average()}")
        finally:
            srv.stop()


if __name__ == "__main__":
    main()

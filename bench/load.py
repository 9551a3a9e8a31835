"""Server load: many Schafkopf rooms on one real server, played over WebSockets.

Starts the real app (uvicorn subprocess on a free 127.0.0.1 port, a temporary
migrated SQLite database, or a throwaway schema of ``--database-url`` PostgreSQL),
opens ``--rooms`` Schafkopf rooms of 4 seats, seats ``--ws-seats`` WebSocket clients
per room (``Authorization: Bearer <seat token>``) and fills the other seats with
house bots (``POST /api/rooms/{room}/bots``, host token), starts every match, and
lets the clients play random clickable actions (the ``data-action`` buttons of the
frames they are pushed, with the frame's ``data-version``) for ``--duration``
seconds. Then it stops the clients and the server by itself.

It prints the server's resident memory (VmRSS) idle, with the rooms, with the
sockets open and under play, per room as a ratio; the round trip of a client's
action (send -> first frame with a higher version) as median and p95; actions per
second across the server (bots included); and the server's CPU (100% = one core).

The default profile: bots wait ``--bot-delay-ms 300`` before each move (the
server's default is 700; 0 would make the bots play flat out, which measures how
fast bots can go, not a table), and a client thinks ``--think-ms 500`` on average
(uniform 0..1 s) before it clicks. People take seconds per card, so this is a
busier table than a real one. ``--think-ms 0`` makes every client click the moment
its turn arrives: the rooms then move in lockstep (every bot of every room wakes
in the same 300 ms beat) and the round trip measures those bursts, a worst case.
The clients negotiate permessage-deflate as browsers do (``--no-deflate`` to
compare). The load generator runs on the same machine and takes CPU of its own,
which the summary also shows.

Usage: python bench/load.py [--rooms 200] [--ws-seats 1] [--duration 30]
       [--bot-delay-ms 300] [--think-ms 500] [--no-deflate]
       [--database-url postgresql://...]
Only 127.0.0.1 is contacted.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import resource
import secrets
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import httpx  # noqa: E402
from sqlalchemy import create_engine, text  # noqa: E402
from websockets.asyncio.client import ClientConnection, connect  # noqa: E402

from app.db.session import normalize_url  # noqa: E402
from tests.conftest import Server, migrate  # noqa: E402
from tests.web.frames import frame_actions, frame_flash, frame_version  # noqa: E402

NAMES = ("Anna", "Bert", "Cilli", "Done")
PLAYERS = 4
ACTION_TIMEOUT = 10.0  # an action without an answer after this long counts as lost
SETUP_CONCURRENCY = 8  # HTTP requests in flight while the rooms are opened
CONNECT_CONCURRENCY = 32  # WebSocket handshakes in flight


# ----- the server process ------------------------------------------------------
def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError("no VmRSS")


def _stat_cpu(path: Path) -> float:
    fields = path.read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    """utime + stime of the whole process (every thread), in seconds."""
    return _stat_cpu(Path(f"/proc/{pid}/stat"))


def main_thread_cpu_seconds(pid: int) -> float:
    """utime + stime of the main thread alone: uvicorn's event loop (the rest is the
    database thread and other helpers)."""
    return _stat_cpu(Path(f"/proc/{pid}/task/{pid}/stat"))


def own_cpu_seconds() -> float:
    ru = resource.getrusage(resource.RUSAGE_SELF)
    return ru.ru_utime + ru.ru_stime


@contextmanager
def database(url: str | None, workdir: Path) -> Iterator[str]:
    """A migrated, empty database: SQLite in ``workdir``, or a throwaway schema of the
    PostgreSQL database ``url`` that is dropped again afterwards."""
    if url is None:
        db_url = f"sqlite:///{workdir / 'bench.db'}"
        migrate(db_url)
        yield db_url
        return
    base = normalize_url(url)
    if not base.startswith("postgresql+psycopg://"):
        raise SystemExit("--database-url must be a postgresql:// URL")
    schema = "bench_" + secrets.token_hex(6)
    admin = create_engine(base, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f"CREATE SCHEMA {schema}"))
    sep = "&" if "?" in base else "?"
    db_url = f"{base}{sep}options=-csearch_path%3D{schema}"
    try:
        migrate(db_url)
        yield db_url
    finally:
        with admin.connect() as conn:
            conn.execute(text(f"DROP SCHEMA {schema} CASCADE"))
        admin.dispose()


# ----- rooms ---------------------------------------------------------------------
@dataclass
class RoomSetup:
    room: str
    host_token: str
    tokens: list[str]


async def open_room(http: httpx.AsyncClient, index: int, ws_seats: int) -> RoomSetup:
    # unseeded, like every room people open (a seeded match also stores its RNG state)
    # no trick pause and no held result: the bench measures the server, not the pacing
    r = await http.post("/api/rooms", json={"game": "schafkopf",
                                             "options": {"dealer": index % PLAYERS,
                                                         "trick_pause_ms": 0,
                                                         "next_deal_s": 0}})
    r.raise_for_status()
    room, host = r.json()["room"], r.json()["host_token"]
    tokens = []
    for name in NAMES[:ws_seats]:
        r = await http.post(f"/api/rooms/{room}/join", json={"name": name})
        r.raise_for_status()
        tokens.append(r.json()["token"])
    auth = {"Authorization": f"Bearer {host}"}
    for _ in range(PLAYERS - ws_seats):
        (await http.post(f"/api/rooms/{room}/bots", headers=auth)).raise_for_status()
    (await http.post(f"/api/rooms/{room}/start", headers=auth)).raise_for_status()
    return RoomSetup(room, host, tokens)


async def open_rooms(base: str, count: int, ws_seats: int,
                     first_index: int = 0) -> list[RoomSetup]:
    sem = asyncio.Semaphore(SETUP_CONCURRENCY)
    async with httpx.AsyncClient(base_url=base, timeout=30, trust_env=False) as http:
        async def one(i: int) -> RoomSetup:
            async with sem:
                return await open_room(http, i, ws_seats)
        return list(await asyncio.gather(*(one(first_index + i) for i in range(count))))


async def count_finished(base: str, rooms: list[RoomSetup]) -> int:
    sem = asyncio.Semaphore(SETUP_CONCURRENCY)
    async with httpx.AsyncClient(base_url=base, timeout=30, trust_env=False) as http:
        async def one(r: RoomSetup) -> bool:
            async with sem:
                resp = await http.get(f"/api/rooms/{r.room}/view")
                return bool(resp.json()["status"] == "finished")
        return sum(await asyncio.gather(*(one(r) for r in rooms)))


# ----- a seat's WebSocket client ---------------------------------------------------
@dataclass
class Totals:
    latencies: list[float] = field(default_factory=list)  # seconds
    sent: int = 0
    frames: int = 0
    frame_bytes: list[int] = field(default_factory=list)
    refused: int = 0  # answered with a flash (stale or illegal)
    lost: int = 0  # no answer within ACTION_TIMEOUT
    changes: int = 0  # room versions advanced during play (rooms counted once)


@dataclass
class Phase:
    go: asyncio.Event  # clients act only once every socket is open
    stop: asyncio.Event


class SeatClient:
    def __init__(self, url: str, token: str, rng: random.Random, think: float,
                 counts_room: bool, deflate: bool = True) -> None:
        self.url = url
        self.deflate = deflate
        self.token = token
        self.rng = rng
        self.think = think
        self.counts_room = counts_room  # the room's first client keeps its version count
        self.ws: ClientConnection | None = None
        self.latest = ""

    async def connect(self) -> None:
        self.ws = await connect(self.url, additional_headers={
            "Authorization": f"Bearer {self.token}"}, max_size=2**22, open_timeout=30,
            proxy=None, compression="deflate" if self.deflate else None)
        self.latest = str(await asyncio.wait_for(self.ws.recv(), 30))

    async def play(self, phase: Phase, totals: Totals) -> None:
        ws = self.ws
        assert ws is not None
        await phase.go.wait()
        start_version = frame_version(self.latest)
        acted = -1  # the version we last acted on: one action per version
        pending: tuple[int, float] | None = None  # (version sent from, send time)
        while not phase.stop.is_set():
            if pending is None:
                version = frame_version(self.latest)
                actions = frame_actions(self.latest)
                if actions and version > acted:
                    if self.think:
                        await asyncio.sleep(self.think * self.rng.random() * 2)
                    await ws.send(json.dumps({"action": self.rng.choice(actions),
                                              "version": version}))
                    acted = version
                    pending = (version, time.perf_counter())
                    totals.sent += 1
            try:
                raw = await asyncio.wait_for(ws.recv(), 0.5)
            except TimeoutError:
                if pending and time.perf_counter() - pending[1] > ACTION_TIMEOUT:
                    totals.lost += 1
                    pending = None
                continue
            frame = str(raw)
            totals.frames += 1
            totals.frame_bytes.append(len(frame.encode()))
            version = frame_version(frame)
            if pending is not None:
                if version > pending[0]:
                    totals.latencies.append(time.perf_counter() - pending[1])
                    pending = None
                elif frame_flash(frame):
                    totals.refused += 1
                    pending = None
            self.latest = frame
        if self.counts_room:
            totals.changes += frame_version(self.latest) - start_version

    async def close(self) -> None:
        if self.ws is not None:
            await asyncio.wait_for(self.ws.close(), 10)


# ----- the run -------------------------------------------------------------------------
def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def mib(kib: float) -> str:
    return f"{kib / 1024:7.1f} MiB"


async def run(args: argparse.Namespace, srv: Server) -> None:
    assert srv.proc is not None
    pid = srv.proc.pid
    rng = random.Random(args.seed)
    cpu0 = cpu_seconds(pid)

    # warm up: one room played to its first frame, so imports, templates and the
    # database connection are loaded before "idle" is read
    warm = (await open_rooms(srv.base, 1, 1, first_index=10_000))[0]
    client = SeatClient(f"{srv.ws_base}/r/{warm.room}/ws", warm.tokens[0], rng, 0, False)
    await client.connect()
    await client.close()
    await asyncio.sleep(1)
    rss_idle = rss_kib(pid)

    t0 = time.perf_counter()
    rooms = await open_rooms(srv.base, args.rooms, args.ws_seats)
    t_setup = time.perf_counter() - t0
    await asyncio.sleep(max(2.0, 4 * args.bot_delay_ms / 1000))  # bots up to a client's turn
    rss_rooms = rss_kib(pid)

    phase = Phase(asyncio.Event(), asyncio.Event())
    clients = [SeatClient(f"{srv.ws_base}/r/{r.room}/ws", tok,
                          random.Random(rng.random()), args.think_ms / 1000, i == 0,
                          deflate=not args.no_deflate)
               for r in rooms for i, tok in enumerate(r.tokens)]
    sem = asyncio.Semaphore(CONNECT_CONCURRENCY)

    async def connect_one(c: SeatClient) -> None:
        async with sem:
            await c.connect()

    t0 = time.perf_counter()
    await asyncio.gather(*(connect_one(c) for c in clients))
    t_connect = time.perf_counter() - t0
    await asyncio.sleep(1)
    rss_sockets = rss_kib(pid)

    totals = Totals()
    tasks = [asyncio.create_task(c.play(phase, totals)) for c in clients]
    samples: list[int] = []
    cpu_play0, loop0, own0 = cpu_seconds(pid), main_thread_cpu_seconds(pid), own_cpu_seconds()
    t_play0 = time.perf_counter()
    phase.go.set()
    end = t_play0 + args.duration
    while time.perf_counter() < end:
        await asyncio.sleep(min(1.0, max(0.0, end - time.perf_counter())))
        samples.append(rss_kib(pid))
    phase.stop.set()
    await asyncio.wait_for(asyncio.gather(*tasks), ACTION_TIMEOUT + 5)
    wall = time.perf_counter() - t_play0
    cpu_play = cpu_seconds(pid) - cpu_play0
    loop_play = main_thread_cpu_seconds(pid) - loop0
    own_play = own_cpu_seconds() - own0
    await asyncio.gather(*(c.close() for c in clients), return_exceptions=True)
    finished = await count_finished(srv.base, rooms)
    cpu_total = cpu_seconds(pid) - cpu0

    n = args.rooms
    lat = [x * 1000 for x in totals.latencies]
    rss_play = statistics.median(samples)
    rss_peak = max(samples)
    rows = [
        ("rooms / WebSocket clients / bots",
         f"{n} / {len(clients)} / {n * (PLAYERS - args.ws_seats)}"),
        ("opening the rooms (create, join, bots, start)",
         f"{t_setup:.1f} s ({n / t_setup:.0f} rooms/s)"),
        ("connecting the sockets", f"{t_connect:.1f} s"),
        ("server RSS idle (warm)", mib(rss_idle)),
        ("server RSS with the rooms started", mib(rss_rooms)),
        ("server RSS with the sockets open", mib(rss_sockets)),
        ("server RSS under play, median / peak", f"{mib(rss_play)} / {mib(rss_peak)}"),
        ("per room: started match", f"{(rss_rooms - rss_idle) / n:7.1f} KiB"),
        ("per socket: open connection",
         f"{(rss_sockets - rss_rooms) / len(clients):7.1f} KiB"),
        ("per room: everything under play (peak - idle) / rooms",
         f"{(rss_peak - rss_idle) / n:7.1f} KiB"),
        ("client actions sent / answered / refused / lost / open at stop",
         f"{totals.sent} / {len(lat)} / {totals.refused} / {totals.lost} / "
         f"{totals.sent - len(lat) - totals.refused - totals.lost}"),
        ("action round trip, median / p95 / p99 / max",
         f"{statistics.median(lat) if lat else float('nan'):.1f} / {pct(lat, 0.95):.1f} / "
         f"{pct(lat, 0.99):.1f} / {max(lat) if lat else float('nan'):.1f} ms"),
        ("actions/s across the server (bots included)", f"{totals.changes / wall:.0f}"),
        ("server CPU per action (engine, bots, database, frames)",
         f"{1000 * cpu_play / max(1, totals.changes):.2f} ms"),
        ("client actions/s", f"{totals.sent / wall:.0f}"),
        ("frames/s pushed, median frame size",
         f"{totals.frames / wall:.0f}, "
         f"{statistics.median(totals.frame_bytes) / 1024 if totals.frame_bytes else 0:.1f} KiB"),
        ("matches finished during play", f"{finished}"),
        ("server CPU under play (100% = one core)", f"{100 * cpu_play / wall:.0f}%"),
        ("  of which event loop / other threads (database)",
         f"{100 * loop_play / wall:.0f}% / {100 * (cpu_play - loop_play) / wall:.0f}%"),
        ("server CPU over the whole run", f"{cpu_total:.1f} s"),
        ("load generator CPU under play (same machine)", f"{100 * own_play / wall:.0f}%"),
    ]
    db_kind = "PostgreSQL" if args.database_url else "SQLite"
    print(f"load bench: Schafkopf, {args.duration:.0f} s of play, bot delay "
          f"{args.bot_delay_ms} ms, client think {args.think_ms} ms (mean), "
          f"{'clients offer no deflate' if args.no_deflate else 'clients offer deflate'}, "
          f"{db_kind}, "
          f"{os.cpu_count()} CPUs")
    width = max(len(k) for k, _ in rows)
    for key, value in rows:
        print(f"  {key:<{width}}  {value}")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--rooms", type=int, default=200)
    p.add_argument("--ws-seats", type=int, default=1, choices=range(1, PLAYERS + 1),
                   help="WebSocket clients per room; the other seats are bots")
    p.add_argument("--duration", type=float, default=30.0, help="seconds of play")
    p.add_argument("--bot-delay-ms", type=int, default=300)
    p.add_argument("--think-ms", type=int, default=500,
                   help="mean pause of a client before it clicks (uniform 0..2x)")
    p.add_argument("--no-deflate", action="store_true",
                   help="clients do not offer permessage-deflate (browsers do)")
    p.add_argument("--database-url", default=None,
                   help="a PostgreSQL URL; a throwaway schema is created and dropped")
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()
    if not 1 <= args.rooms <= 2000 or not 1 <= args.duration <= 600:
        raise SystemExit("--rooms is 1..2000 and --duration 1..600 seconds")

    with tempfile.TemporaryDirectory(prefix="stammtisch-bench-") as tmp:
        workdir = Path(tmp)
        with database(args.database_url, workdir) as db_url:
            # every table is played from this one address: lift the per-client limits
            srv = Server(db_url, workdir / "server.log", env={
                "BOT_DELAY_MS": str(args.bot_delay_ms), "LOG_LEVEL": "warning",
                "MAX_SOCKETS_PER_CLIENT": "100000", "MAX_OPEN_ROOMS": "100000"})
            srv.start()
            failed = True
            try:
                # setup, play and teardown together stay well inside this bound
                limit = args.duration + 120 + args.rooms * args.ws_seats * 0.2
                asyncio.run(asyncio.wait_for(run(args, srv), limit))
                failed = False
            finally:
                srv.stop()
                if failed:
                    log = (workdir / "server.log").read_text(errors="replace")
                    print("server log (tail):\n" + log[-3000:], file=sys.stderr)


if __name__ == "__main__":
    main()

"""Server load: N Schafkopf tables of four real WebSocket seats on one real server.

Starts the real app as ``make run`` serves it (one uvicorn process with the flags
of ``scripts/serve.sh``, through ``tests.conftest.Server``) on a free 127.0.0.1 port,
on a temporary migrated SQLite database or a throwaway schema of
``--database-url`` PostgreSQL. Opens ``--tables`` Schafkopf rooms over the JSON API
with four people joined (no bots; ``trick_pause_ms`` and ``next_deal_s`` 0, no turn
clock, a long match), and connects each seat's WebSocket with its seat token
(``Authorization: Bearer``) from ``--client-procs`` separate client processes
(asyncio + ``websockets``; a table's four seats live in the same process). Then
every table plays for ``--duration`` seconds:

* ``paced``: each table acts about every ``--interval`` seconds (uniform 0.5x..1.5x),
  as people do; the next action of a table waits for the previous one to arrive at
  all four seats;
* ``saturated``: no think time: a table acts as soon as its previous action
  arrived at all four seats.

An action is a random ``data-action`` button of the seat whose turn it is (from the
fragments it was pushed, with the ``data-version`` of its ``version`` fragment).
Latency is from sending it to its arrival (a frame with a higher version) at
**every** seat of the table. It prints p50/p95/p99, actions/s, the server's CPU
(100 % = one core), its RSS per table ((RSS with the tables open and played −
RSS before they were opened) / tables), the longest stall of its event loop while
the tables play and since it started (the server's loop-lag probe,
``app.loop_watch``, read from ``/healthz``), and each client process's CPU (a client
near 100 % is the bottleneck, not the server).

With ``--bare`` (on by default for ``saturated``) the same client then drives
``bench/bare_app.py`` (a Starlette app that renders a Jinja2 fragment of the real
frame's median size for each seat and pushes it; no engine, no database) with the
same tables, and the ratio real/bare actions/s is printed. The last lines are a
markdown table row to paste into the README.

With ``--rounds N`` all of it runs N times, the real and the bare server back to
back in each round (alternating which goes first), and the medians follow, with the
median of the rounds' ratios: the machine's speed drifts, and a round compares two
servers under the same drift.

The clients offer permessage-deflate, as browsers do; ``--ws-compression`` says
whether the servers take it (``WS_COMPRESSION``): ``off`` (the default, as every
figure before it was measured), ``on`` (a server with the app's default), or
``both``: each round runs the real server with and without it, back to back
(alternating which goes first, no bare server), and the medians of the rounds'
ratios on/off follow (CPU per action, bytes on the wire per action and seat, RSS per
table). "wire" is every byte the clients read off their sockets while they play
(frame headers included), divided by the actions that arrived and the four seats.

The client processes share the machine with the server. ``--client-nice 10`` lowers
their priority, so that the server's event loop is not held up waiting for a core a
client holds, as with clients on other machines: the figure for the longest stall of
the server's own loop, not the machine's.

With ``--instances N`` (PostgreSQL: ``--database-url``) the server is the compose
profile ``cluster`` run outside Docker (``tests/cluster.py``): N instances started by
``scripts/serve.sh`` with ``ROOM_LEASES`` behind Caddy running
``deploy/Caddyfile.cluster`` (its upstream line naming the N), and the clients open,
join and play every table through the proxy. The server CPU is then the instances'
together (each one's share is printed too) and the proxy's is given apart; "CPU per
action" is the instances' CPU per action, what a machine with more cores divides
among them. No bare baseline.

Usage: python bench/load.py [--profile paced|saturated] [--tables N] [--duration S]
       [--interval S] [--client-procs P] [--no-bare] [--database-url postgresql://...]
       [--rounds N] [--ws-compression off|on|both] [--client-nice N] [--instances N]
Only 127.0.0.1 is contacted.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing as mp
import os
import random
import re
import resource
import secrets
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import httpx  # noqa: E402
from sqlalchemy import create_engine, text  # noqa: E402
from websockets.asyncio.client import ClientConnection, connect  # noqa: E402

from app.db.session import normalize_url  # noqa: E402
from tests.cluster import Cluster  # noqa: E402
from tests.conftest import Server, migrate  # noqa: E402

NAMES = ("Anna", "Bert", "Cilli", "Done")
PLAYERS = 4
ACTION_TIMEOUT = 10.0  # an action that has not reached every seat by then counts as lost
STALL_POLL_S = 20.0  # how often the server's loop-lag probe is read (/healthz)
SETUP_CONCURRENCY = 16  # HTTP requests in flight while the tables are opened
CONNECT_CONCURRENCY = 32  # WebSocket handshakes in flight per client process
# every fragment of a push is a top-level element carrying hx-swap-oob and its id
OOB_RE = re.compile(r'<[a-z]+\s[^>]*?\bid="([\w-]+)"[^>]*?\bhx-swap-oob="true"[^>]*>'
                    r'|<[a-z]+\s[^>]*?\bhx-swap-oob="true"[^>]*?\bid="([\w-]+)"[^>]*>')
VERSION_RE = re.compile(r'data-version="(\d+)"')
ACTION_RE = re.compile(r'<button[^>]*data-action="([^"]+)"')
FLASH_RE = re.compile(r'id="flash"[^>]*>\s*<span>')


# ----- the server process ------------------------------------------------------
def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError("no VmRSS")


def cpu_seconds(pid: int) -> float:
    """utime + stime of the whole process (every thread), in seconds."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main_thread_cpu_seconds(pid: int) -> float:
    """utime + stime of the main thread alone: uvicorn's event loop (the others are
    mostly the database thread every write goes through)."""
    fields = Path(f"/proc/{pid}/task/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def own_cpu_seconds() -> float:
    ru = resource.getrusage(resource.RUSAGE_SELF)
    return ru.ru_utime + ru.ru_stime


def load_average() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


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


class BareServer(Server):
    """``bench/bare_app.py`` under uvicorn with the flags of ``scripts/serve.sh``."""

    def __init__(self, log_path: Path, frame_bytes: int, compress: bool) -> None:
        super().__init__("sqlite://", log_path, env={"BARE_FRAME_BYTES": str(frame_bytes),
                                                    **compression_env(compress)})

    def start(self) -> Server:
        import subprocess

        log = self.log_path.open("ab")
        self.proc = subprocess.Popen(
            [*self.uvicorn_args("bench.bare_app:app"), "--log-level", "warning"],
            cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                if httpx.get(self.base + "/healthz", timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                time.sleep(0.1)
        raise RuntimeError("bare server did not come up")


@dataclass
class Served:
    """What the clients play on (``base``, ``ws_base``: a server or the cluster's
    proxy) and whose CPU and memory are measured: the app processes (``pids``, with
    their own ``probes``: base URLs whose /healthz reports the loop's stalls) and,
    in a cluster, the proxy (``proxy_pid``) apart."""
    base: str
    ws_base: str
    pids: list[int]
    probes: list[str]
    proxy_pid: int | None = None

    @classmethod
    def server(cls, srv: Server) -> Served:
        assert srv.proc is not None
        return cls(srv.base, srv.ws_base, [srv.proc.pid], [srv.base])

    @classmethod
    def cluster(cls, cluster: Cluster) -> Served:
        pids = [i.proc.pid for i in cluster.instances if i.proc is not None]
        assert cluster.caddy is not None and len(pids) == len(cluster.instances)
        return cls(cluster.base, cluster.ws_base, pids,
                   [i.base for i in cluster.instances], cluster.caddy.pid)

    def rss(self) -> int:
        return sum(rss_kib(pid) for pid in self.pids)


# ----- tables ----------------------------------------------------------------------
@dataclass(frozen=True)
class TableSetup:
    room: str
    tokens: tuple[str, ...]  # one seat token per seat, in seat order


async def open_table(http: httpx.AsyncClient, index: int) -> TableSetup:
    # unseeded, like every room people open; no trick pause, no held result, no
    # turn clock; a long match (11 units is the default) so no table runs out of play
    r = await http.post("/api/rooms", json={"game": "schafkopf", "options": {
        "dealer": index % PLAYERS, "target": 99, "trick_pause_ms": 0, "next_deal_s": 0,
        "turn_clock": 0}})
    r.raise_for_status()
    room, host = r.json()["room"], r.json()["host_token"]
    tokens = []
    for seat, name in enumerate(NAMES):
        r = await http.post(f"/api/rooms/{room}/join", json={"name": name, "seat": seat})
        r.raise_for_status()
        tokens.append(r.json()["token"])
    auth = {"Authorization": f"Bearer {host}"}
    (await http.post(f"/api/rooms/{room}/start", headers=auth)).raise_for_status()
    return TableSetup(room, tuple(tokens))


async def open_tables(base: str, count: int) -> list[TableSetup]:
    sem = asyncio.Semaphore(SETUP_CONCURRENCY)
    async with httpx.AsyncClient(base_url=base, timeout=60, trust_env=False) as http:
        async def one(i: int) -> TableSetup:
            async with sem:
                return await open_table(http, i)
        return list(await asyncio.gather(*(one(i) for i in range(count))))


def bare_tables(count: int) -> list[TableSetup]:
    return [TableSetup(f"bare{i}", tuple(f"bare-{i}-{s}" for s in range(PLAYERS)))
            for i in range(count)]


# ----- the client: one table's four seats -----------------------------------------
class CountingConnection(ClientConnection):
    """A client connection (websockets' ``create_connection`` hook) that counts the
    bytes it is handed off its socket: what went over the wire, compressed or not."""

    received = 0  # every connection of this client process

    def data_received(self, data: bytes) -> None:
        CountingConnection.received += len(data)
        super().data_received(data)


class Seat:
    """One seat's socket and what it was pushed, fragment by fragment (a push may
    carry every fragment or only the changed ones)."""

    def __init__(self) -> None:
        self.ws: ClientConnection | None = None
        self.fragments: dict[str, str] = {}
        self.version = -1
        self.refused = False

    def take(self, frame: str) -> None:
        marks = [(m.start(), m.group(1) or m.group(2)) for m in OOB_RE.finditer(frame)]
        for (start, fid), nxt in zip(marks, [*marks[1:], (len(frame), "")], strict=True):
            self.fragments[fid] = frame[start:nxt[0]]
        version = self.fragments.get("version", "")
        m = VERSION_RE.search(version)
        if m:
            self.version = int(m.group(1))
        if FLASH_RE.search(frame):
            self.refused = True

    def actions(self) -> list[str]:
        return [a for f in self.fragments.values() for a in ACTION_RE.findall(f)]


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)  # seconds, send -> every seat
    sent: int = 0
    refused: int = 0  # answered with a flash (stale or illegal): should be 0
    lost: int = 0  # not at every seat within ACTION_TIMEOUT: should be 0
    stuck: int = 0  # tables where no seat had an action to take for ACTION_TIMEOUT
    frames: int = 0
    frame_bytes: list[int] = field(default_factory=list)  # a sample
    wire_bytes: int = 0  # read off the sockets while playing
    errors: list[str] = field(default_factory=list)


class TableClient:
    def __init__(self, ws_base: str, setup: TableSetup, rng: random.Random) -> None:
        self.url = f"{ws_base}/r/{setup.room}/ws"
        self.setup = setup
        self.rng = rng
        self.seats = [Seat() for _ in setup.tokens]
        self.changed = asyncio.Event()

    async def connect(self) -> None:
        for seat, token in zip(self.seats, self.setup.tokens, strict=True):
            seat.ws = await connect(self.url, additional_headers={
                "Authorization": f"Bearer {token}"}, max_size=2**22, open_timeout=60,
                proxy=None, compression="deflate", create_connection=CountingConnection)
            seat.take(str(await asyncio.wait_for(seat.ws.recv(), 60)))

    async def listen(self, seat: Seat, stats: Stats) -> None:
        assert seat.ws is not None
        async for raw in seat.ws:
            frame = str(raw)
            stats.frames += 1
            if stats.frames % 50 == 1:
                stats.frame_bytes.append(len(frame.encode()))
            seat.take(frame)
            self.changed.set()

    async def wait_for(self, pred: Any, deadline: float) -> bool:
        while not pred():
            left = deadline - time.perf_counter()
            if left <= 0:
                return False
            self.changed.clear()
            try:
                await asyncio.wait_for(self.changed.wait(), left)
            except TimeoutError:
                return bool(pred())
        return True

    def mover(self) -> Seat | None:
        """The seat with something to do, once every seat shows the same version."""
        version = self.seats[0].version
        if any(s.version != version for s in self.seats):
            return None
        return next((s for s in self.seats if s.actions()), None)

    def everywhere(self, version: int) -> bool:
        """Whether every seat was pushed a version after ``version``."""
        return all(s.version > version for s in self.seats)

    async def play(self, profile: str, interval: float, stop_at: float, stats: Stats) -> None:
        listeners = [asyncio.create_task(self.listen(s, stats)) for s in self.seats]
        try:
            next_at = time.perf_counter()
            if profile == "paced":  # tables start spread over one interval
                next_at += interval * self.rng.random()
            while time.perf_counter() < stop_at:
                wait = next_at - time.perf_counter()
                if wait > 0:
                    await asyncio.sleep(min(wait, stop_at - time.perf_counter()))
                    continue
                if not await self.wait_for(lambda: self.mover() is not None,
                                           time.perf_counter() + ACTION_TIMEOUT):
                    stats.stuck += 1
                    return
                seat = self.mover()
                assert seat is not None and seat.ws is not None
                version = seat.version
                seat.refused = False
                sent_at = time.perf_counter()
                await seat.ws.send(json.dumps({"action": self.rng.choice(seat.actions()),
                                               "version": version}))
                stats.sent += 1
                arrived = await self.wait_for(
                    lambda s=seat, v=version: s.refused or self.everywhere(v),
                    sent_at + ACTION_TIMEOUT)
                if not arrived:
                    stats.lost += 1
                elif self.everywhere(version):
                    stats.latencies.append(time.perf_counter() - sent_at)
                else:
                    stats.refused += 1
                if profile == "paced":
                    next_at = sent_at + interval * (0.5 + self.rng.random())
                else:
                    next_at = time.perf_counter()
        finally:
            for task in listeners:
                task.cancel()

    async def close(self) -> None:
        for seat in self.seats:
            if seat.ws is not None:
                await asyncio.wait_for(seat.ws.close(), 10)


def raise_fd_limit() -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


async def client_main(conn: Connection, ws_base: str, setups: list[TableSetup],
                      profile: str, interval: float, duration: float, seed: int) -> None:
    rng = random.Random(seed)
    tables = [TableClient(ws_base, s, random.Random(rng.random())) for s in setups]
    sem = asyncio.Semaphore(CONNECT_CONCURRENCY)

    async def connect_one(t: TableClient) -> None:
        async with sem:
            await t.connect()

    await asyncio.gather(*(connect_one(t) for t in tables))
    conn.send("connected")
    conn.recv()  # go
    stats = Stats()
    cpu0, t0 = own_cpu_seconds(), time.perf_counter()
    wire0 = CountingConnection.received
    results = await asyncio.gather(
        *(t.play(profile, interval, t0 + duration, stats) for t in tables),
        return_exceptions=True)
    wall, cpu = time.perf_counter() - t0, own_cpu_seconds() - cpu0
    stats.wire_bytes = CountingConnection.received - wire0
    stats.errors = [repr(r) for r in results if isinstance(r, BaseException)][:5]
    conn.send(("done", stats, wall, cpu))
    conn.recv()  # close
    await asyncio.gather(*(t.close() for t in tables), return_exceptions=True)
    conn.send("closed")


def client_process(conn: Connection, ws_base: str, setups: list[TableSetup], profile: str,
                   interval: float, duration: float, seed: int, nice: int = 0) -> None:
    raise_fd_limit()
    if nice:
        # the load generator gives way to the server it measures, as clients on other
        # machines would: the server's loop is not held up waiting for a core they hold
        os.nice(nice)
    try:
        asyncio.run(client_main(conn, ws_base, setups, profile, interval, duration, seed))
    except BaseException as exc:
        conn.send(("failed", repr(exc)))
        raise


# ----- one measured run ----------------------------------------------------------------
@dataclass
class Result:
    label: str
    tables: int
    wall: float
    done: int
    sent: int
    refused: int
    lost: int
    stuck: int
    latencies_ms: list[float]
    frames: int
    frame_bytes: int  # median
    wire_bytes: int  # read off the clients' sockets while playing
    server_cpu: float  # share of one core under play
    loop_cpu: float  # of which the main thread (the event loop)
    client_cpu: list[float]  # per client process, share of one core
    loop_stall_ms: float | None  # the longest stall of the event loop while playing
    loop_stall_all_ms: float | None  # since the server started (setup included)
    loop_busy_ms: float | None  # the most of one stall the loop's thread worked
    rss_before: int
    rss_open: int
    rss_after: int
    setup_s: float
    connect_s: float
    errors: list[str]
    instance_cpu: list[float] = field(default_factory=list)  # each app process's share
    proxy_cpu: float | None = None  # the cluster's proxy, share of one core

    @property
    def rate(self) -> float:
        return self.done / self.wall

    def pct(self, q: float) -> float:
        """A percentile of the latency; a lost action counts as ACTION_TIMEOUT (it
        took at least that long), so an overloaded server is not flattered."""
        ordered = sorted([*self.latencies_ms, *[ACTION_TIMEOUT * 1000] * self.lost])
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")

    @property
    def rss_per_table(self) -> float:
        return (self.rss_after - self.rss_before) / self.tables

    @property
    def cpu_per_action(self) -> float:
        """Server CPU seconds per action that arrived at every seat."""
        return self.server_cpu / max(self.rate, 1e-9)

    @property
    def wire_per_push(self) -> float:
        """Bytes on the wire per action and seat."""
        return self.wire_bytes / max(self.done, 1) / PLAYERS


def cpu_ratio(real: Result, bare: Result) -> float:
    """Bare server CPU per action / real server CPU per action."""
    return bare.cpu_per_action / max(real.cpu_per_action, 1e-9)


def drive(srv: Served, setups: list[TableSetup], args: argparse.Namespace, profile: str,
          label: str, rss_before: int, setup_s: float) -> Result:
    """Connect every seat from the client processes, play, and measure."""
    ctx = mp.get_context("spawn")
    procs, pipes = [], []
    chunks = [setups[i::args.client_procs] for i in range(args.client_procs)]
    t0 = time.perf_counter()
    for i, chunk in enumerate(c for c in chunks if c):
        ours, theirs = ctx.Pipe()
        p = ctx.Process(target=client_process, args=(
            theirs, srv.ws_base, chunk, profile, args.interval, args.duration,
            args.seed * 1000 + i, args.client_nice), daemon=True)
        p.start()
        procs.append(p)
        pipes.append(ours)

    def gather(timeout: float) -> list[Any]:
        out = []
        for pipe in pipes:
            if not pipe.poll(timeout):
                raise RuntimeError("a client process did not answer")
            msg = pipe.recv()
            if isinstance(msg, tuple) and msg[0] == "failed":
                raise RuntimeError(f"a client process failed: {msg[1]}")
            out.append(msg)
        return out

    gather(120 + len(setups) * 0.1)
    connect_s = time.perf_counter() - t0
    time.sleep(1)
    rss_open = srv.rss()
    proxy = [srv.proxy_pid] if srv.proxy_pid is not None else []
    cpu0 = [cpu_seconds(pid) for pid in srv.pids + proxy]
    loop0, w0 = sum(main_thread_cpu_seconds(pid) for pid in srv.pids), time.perf_counter()
    stalls = [LoopStalls(probe) for probe in srv.probes]
    for pipe in pipes:
        pipe.send("go")
    done = gather(args.duration + ACTION_TIMEOUT + 60)
    for probe in stalls:
        probe.stop()
    wall = time.perf_counter() - w0
    used = [(cpu_seconds(pid) - before) / wall
            for pid, before in zip(srv.pids + proxy, cpu0, strict=True)]
    instance_cpu = used[:len(srv.pids)]
    server_cpu = sum(instance_cpu)
    loop_cpu = (sum(main_thread_cpu_seconds(pid) for pid in srv.pids) - loop0) / wall
    rss_after = srv.rss()
    for pipe in pipes:
        pipe.send("close")
    gather(60)
    for p in procs:
        p.join(10)
    stats: list[Stats] = [d[1] for d in done]
    lat = [x * 1000 for s in stats for x in s.latencies]
    sizes = [b for s in stats for b in s.frame_bytes]
    return Result(
        label=label, tables=len(setups), wall=max(d[2] for d in done), done=len(lat),
        sent=sum(s.sent for s in stats), refused=sum(s.refused for s in stats),
        lost=sum(s.lost for s in stats), stuck=sum(s.stuck for s in stats), latencies_ms=lat,
        frames=sum(s.frames for s in stats),
        frame_bytes=int(statistics.median(sizes)) if sizes else 0,
        wire_bytes=sum(s.wire_bytes for s in stats), server_cpu=server_cpu,
        loop_cpu=loop_cpu,
        client_cpu=[d[3] / d[2] for d in done],
        loop_stall_ms=LoopStalls.most(stalls, "longest"),
        loop_stall_all_ms=LoopStalls.most(stalls, "since_start"),
        loop_busy_ms=LoopStalls.most(stalls, "busiest"),
        rss_before=rss_before, rss_open=rss_open,
        rss_after=rss_after, setup_s=setup_s, connect_s=connect_s,
        errors=[e for s in stats for e in s.errors], instance_cpu=instance_cpu,
        proxy_cpu=used[-1] if proxy else None)


class LoopStalls:
    """The server's loop-lag probe (app.loop_watch), read from ``/healthz`` every
    :data:`STALL_POLL_S` while the tables play: its "recent" covers the last one to
    two minutes, so the longest of the readings is the longest stall of the run. A
    server without the probe (the bare one) gives None."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.longest: float | None = None
        self.since_start: float | None = None
        self.busiest: float | None = None
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._poll, daemon=True)
        self._thread.start()

    def _read(self) -> None:
        try:
            stall = httpx.get(self.base + "/healthz", timeout=10).json().get("loop_stall_ms")
        except (httpx.HTTPError, ValueError):
            return
        if stall:
            self.longest = max(self.longest or 0.0, float(stall["recent"]))
            self.since_start = float(stall["since_start"])
            self.busiest = float(stall["busiest"])

    def _poll(self) -> None:
        while not self._done.wait(STALL_POLL_S):
            self._read()

    def stop(self) -> None:
        self._done.set()
        self._thread.join(30)
        self._read()

    @staticmethod
    def most(probes: list[LoopStalls], name: str) -> float | None:
        """The largest reading ``name`` of several processes' probes (None: none)."""
        values = [v for p in probes if (v := getattr(p, name)) is not None]
        return max(values) if values else None


def compression_env(on: bool) -> dict[str, str]:
    return {"WS_COMPRESSION": "true" if on else "false"}


SERVER_ENV = {
    "LOG_LEVEL": "warning", "MAX_SOCKETS_PER_CLIENT": "1000000",
    "MAX_REQUESTS_PER_CLIENT": "1000000", "MAX_ROOMS_PER_CLIENT": "0",
    "MAX_OPEN_ROOMS": "1000000", "RATE_ROOMS": "1000000/minute",
    "RATE_JOINS": "1000000/minute"}


def measure(args: argparse.Namespace, srv: Served, warm_tables: int) -> Result:
    """Warm up (``warm_tables`` tables opened and played a second, so imports,
    templates and the database connections are loaded before "before" is read),
    then open the tables and play them."""
    warm = asyncio.run(open_tables(srv.base, warm_tables))
    drive_args = argparse.Namespace(**{**vars(args), "duration": 1.0, "client_procs": 1})
    drive(srv, warm, drive_args, "saturated", "warm-up", srv.rss(), 0)
    time.sleep(1)
    rss_before = srv.rss()
    t0 = time.perf_counter()
    setups = asyncio.run(open_tables(srv.base, args.tables))
    setup_s = time.perf_counter() - t0
    return drive(srv, setups, args, args.profile, "stammtisch", rss_before, setup_s)


def run_real(args: argparse.Namespace, db_url: str, workdir: Path,
             compress: bool = False) -> Result:
    if args.instances:
        return run_cluster(args, db_url, workdir, compress)
    srv = Server(db_url, workdir / "server.log", env={**SERVER_ENV, **compression_env(compress)})
    srv.start()
    failed = True
    try:
        result = measure(args, Served.server(srv), 1)
        failed = False
        return result
    finally:
        srv.stop()
        if failed:
            log = (workdir / "server.log").read_text(errors="replace")
            print("server log (tail):\n" + log[-3000:], file=sys.stderr)


def run_cluster(args: argparse.Namespace, db_url: str, workdir: Path,
                compress: bool = False) -> Result:
    """``--instances N``: the cluster behind its proxy (tests/cluster.py)."""
    cluster = Cluster(db_url, workdir, args.instances,
                      {**SERVER_ENV, **compression_env(compress)})
    failed = True
    try:
        cluster.start()
        result = measure(args, Served.cluster(cluster), 2 * args.instances)
        result.label = (f"stammtisch, {args.instances} "
                        f"instance{'s' * (args.instances > 1)} behind Caddy")
        failed = False
        return result
    finally:
        cluster.stop()
        if failed:
            for log in sorted(workdir.glob("*.log")):
                print(f"{log.name} (tail):\n" + log.read_text(errors="replace")[-2000:],
                      file=sys.stderr)


def run_bare(args: argparse.Namespace, workdir: Path, frame_bytes: int) -> Result:
    srv = BareServer(workdir / "bare.log", frame_bytes, args.ws_compression == "on")
    srv.start()
    try:
        served = Served.server(srv)
        return drive(served, bare_tables(args.tables), args, "saturated", "bare", served.rss(),
                     0.0)
    finally:
        srv.stop()


# ----- the report --------------------------------------------------------------------
def report(args: argparse.Namespace, real: Result, bare: Result | None) -> None:
    db_kind = "PostgreSQL" if args.database_url else "SQLite"
    if args.instances:
        db_kind += f", {args.instances} instance{'s' * (args.instances > 1)} behind Caddy"
    print(f"load bench {datetime.now(UTC):%Y-%m-%d %H:%M} UTC: Schafkopf, {args.profile}"
          f"{f' (every {args.interval:g} s)' if args.profile == 'paced' else ''}, "
          f"{real.tables} tables x 4 WebSocket seats, {args.duration:g} s, {db_kind}, "
          f"{os.cpu_count()} CPUs, load average {load_average()}"
          f"{f', clients at nice {args.client_nice}' if args.client_nice else ''}")
    for r in [real, *([bare] if bare else [])]:
        asked = (f" (asked about {r.tables / args.interval:.0f})"
                 if args.profile == "paced" and r is real else "")
        rows = [
            ("actions sent / at every seat / refused / lost",
             f"{r.sent} / {r.done} / {r.refused} / {r.lost}"
             + (f" / tables stuck {r.stuck}" if r.stuck else "")),
            ("actions/s (arrived at every seat)", f"{r.rate:.0f}{asked}"),
            ("latency to every seat p50 / p95 / p99 / max"
             + (" (lost as 10 s)" if r.lost else ""),
             f"{r.pct(0.5):.1f} / {r.pct(0.95):.1f} / {r.pct(0.99):.1f} / "
             f"{max(r.latencies_ms, default=float('nan')):.1f} ms"),
            ("frames/s, median frame", f"{r.frames / r.wall:.0f}, {r.frame_bytes} bytes"),
            ("on the wire per action and seat", f"{r.wire_per_push:.0f} bytes"),
            ("server CPU under play (100% = one core)", f"{100 * r.server_cpu:.0f}%"
             + (f" (instances {' '.join(f'{100 * c:.0f}%' for c in r.instance_cpu)};"
                f" proxy {100 * r.proxy_cpu:.0f}% more,"
                f" {1000 * r.proxy_cpu / max(r.rate, 1e-9):.2f} ms per action)"
                if r.proxy_cpu is not None else "")),
            ("  of which event loop / other threads (database)",
             f"{100 * r.loop_cpu:.0f}% / {100 * (r.server_cpu - r.loop_cpu):.0f}%"),
            ("server CPU per action: all / other threads",
             f"{1000 * r.cpu_per_action:.2f} / "
             f"{1000 * (r.server_cpu - r.loop_cpu) / max(r.rate, 1e-9):.2f} ms"),
            ("longest event-loop stall: while playing / since start",
             f"{r.loop_stall_ms:.0f} / {r.loop_stall_all_ms:.0f} ms"
             if r.loop_stall_ms is not None and r.loop_stall_all_ms is not None else "-"),
            ("  the most of one stall the loop's thread worked (since start)",
             f"{r.loop_busy_ms:.0f} ms" if r.loop_busy_ms is not None else "-"),
            ("client CPU per process (100% = one core)",
             " ".join(f"{100 * c:.0f}%" for c in r.client_cpu)
             + ("  SATURATED: the client may be the limit"
                if max(r.client_cpu) > 0.85 else "")),
            ("server RSS before / tables open / after play",
             f"{r.rss_before / 1024:.1f} / {r.rss_open / 1024:.1f} / "
             f"{r.rss_after / 1024:.1f} MiB"),
            ("RSS per table (after play - before) / tables", f"{r.rss_per_table:.1f} KiB"),
            ("opening the tables / connecting the seats",
             f"{r.setup_s:.1f} s / {r.connect_s:.1f} s"),
        ]
        if r.errors:
            rows.append(("client errors", "; ".join(r.errors[:3])))
        print(f"{r.label}:")
        width = max(len(k) for k, _ in rows)
        for key, value in rows:
            print(f"  {key:<{width}}  {value}")
    ratio = f"{real.rate / bare.rate:.2f}" if bare else "-"
    if bare:
        print(f"ratio stammtisch / bare actions/s: {ratio}")
        # CPU per action moves least when neighbours take the machine's cores
        print(f"ratio bare / stammtisch server CPU per action: {cpu_ratio(real, bare):.2f}")
    profile = (f"paced {args.interval:g} s" if args.profile == "paced" else "saturated")
    print()
    print("| profile | database | tables | actions/s | p50 / p95 / p99 ms | server CPU "
          "| CPU/action | RSS/table | bare actions/s | ratio | load avg |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    print(f"| {profile} | {db_kind} | {real.tables} | {real.rate:.0f} | "
          f"{real.pct(0.5):.0f} / {real.pct(0.95):.0f} / {real.pct(0.99):.0f} | "
          f"{100 * real.server_cpu:.0f}% | "
          f"{1000 * real.cpu_per_action:.1f} ms | "
          f"{real.rss_per_table:.0f} KiB | "
          f"{f'{bare.rate:.0f}' if bare else '-'} | {ratio} | {load_average()} |")


def main() -> None:
    p = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    p.add_argument("--profile", choices=("paced", "saturated"), default="paced")
    p.add_argument("--tables", type=int, default=None,
                   help="tables of four seats (paced 1000, saturated 100)")
    p.add_argument("--duration", type=float, default=None,
                   help="seconds of play (paced 60, saturated 20)")
    p.add_argument("--interval", type=float, default=2.0,
                   help="paced: mean seconds between a table's actions")
    p.add_argument("--client-procs", type=int, default=2,
                   help="client processes the tables are spread over")
    p.add_argument("--no-bare", action="store_true",
                   help="saturated: skip the bare baseline")
    p.add_argument("--bare", action="store_true",
                   help="paced: run the bare baseline (saturated) too")
    p.add_argument("--database-url", default=None,
                   help="a PostgreSQL URL; a throwaway schema is created and dropped")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--client-nice", type=int, default=0,
                   help="the client processes' niceness (10: they give way to the server, "
                        "as clients on other machines would; 0: as the shell's)")
    p.add_argument("--rounds", type=int, default=1,
                   help="run the whole measurement this many times (the real and the bare "
                        "server back to back, alternating which goes first) and print "
                        "the medians; on a shared machine one round can mislead")
    p.add_argument("--ws-compression", choices=("off", "on", "both"), default="off",
                   help="whether the servers take the clients' permessage-deflate; both: "
                        "the real server with and without it in each round")
    p.add_argument("--instances", type=int, default=0,
                   help="N app instances with room leases behind the cluster's Caddy "
                        "(PostgreSQL: --database-url; caddy on PATH); 0: one server, "
                        "no proxy")
    args = p.parse_args()
    saturated = args.profile == "saturated"
    if args.instances and (not args.database_url or args.ws_compression == "both"):
        raise SystemExit("--instances needs --database-url (PostgreSQL) and runs one "
                         "compression setting")
    if args.instances:
        args.no_bare, args.bare = True, False
    args.tables = args.tables or (100 if saturated else 1000)
    args.duration = args.duration or (20.0 if saturated else 60.0)
    if not 1 <= args.tables <= 4000 or not 1 <= args.duration <= 3600:
        raise SystemExit("--tables is 1..4000 and --duration 1..3600 seconds")
    if not 1 <= args.client_procs <= 16 or args.interval <= 0:
        raise SystemExit("--client-procs is 1..16 and --interval above 0")
    if not 1 <= args.rounds <= 20:
        raise SystemExit("--rounds is 1..20")
    raise_fd_limit()
    if args.ws_compression == "both":
        compare_compression(args)
        return
    with_bare = (saturated and not args.no_bare) or args.bare
    bare_args = argparse.Namespace(**{**vars(args), "profile": "saturated"})
    rounds: list[tuple[Result, Result | None]] = []
    for n in range(args.rounds):
        with tempfile.TemporaryDirectory(prefix="stammtisch-bench-") as tmp:
            workdir = Path(tmp)
            bare = None
            # rounds alternate which server goes first, so a drift of the machine's
            # speed during the rounds falls on both alike
            if with_bare and n % 2:
                bare = run_bare(bare_args, workdir, rounds[0][0].frame_bytes or 5600)
            with database(args.database_url, workdir) as db_url:
                real = run_real(args, db_url, workdir, args.ws_compression == "on")
            if with_bare and bare is None:
                bare = run_bare(bare_args, workdir, real.frame_bytes or 5600)
        if args.rounds > 1:
            print(f"round {n + 1} of {args.rounds}:")
        report(args, real, bare)
        rounds.append((real, bare))
    if args.rounds > 1:
        summary(rounds)


def compare_compression(args: argparse.Namespace) -> None:
    """``--ws-compression both``: in each round the real server with and without
    permessage-deflate, back to back (alternating which goes first); then the medians
    and the medians of the rounds' ratios on/off."""
    pairs: list[tuple[Result, Result]] = []
    for n in range(args.rounds):
        runs: dict[bool, Result] = {}
        for compress in ((True, False) if n % 2 == 0 else (False, True)):
            with tempfile.TemporaryDirectory(prefix="stammtisch-bench-") as tmp, \
                    database(args.database_url, Path(tmp)) as db_url:
                runs[compress] = run_real(args, db_url, Path(tmp), compress)
                runs[compress].label = "compressed" if compress else "uncompressed"
        print(f"round {n + 1} of {args.rounds}:")
        for compress in (True, False):
            report(args, runs[compress], None)
        pairs.append((runs[True], runs[False]))
    med = statistics.median
    print(f"\npermessage-deflate on / off, medians over {len(pairs)} rounds:")
    measures = (
        ("server CPU per action (ms)", lambda r: 1000 * r.cpu_per_action),
        ("  of which the event loop (ms)", lambda r: 1000 * r.loop_cpu / max(r.rate, 1e-9)),
        ("bytes on the wire per action and seat", lambda r: r.wire_per_push),
        ("RSS per table (KiB)", lambda r: r.rss_per_table),
        ("latency p99 (ms)", lambda r: r.pct(0.99)),
    )
    for name, value in measures:
        ratios = [value(on) / max(value(off), 1e-9) for on, off in pairs]
        print(f"  {name}: on {med(value(on) for on, _ in pairs):.2f}, "
              f"off {med(value(off) for _, off in pairs):.2f}; ratio on/off median "
              f"{med(ratios):.2f} (rounds: {' '.join(f'{x:.2f}' for x in ratios)})")


def summary(rounds: list[tuple[Result, Result | None]]) -> None:
    """The medians over the rounds: each round's real and bare servers ran back to
    back on the same machine, so the ratio of a round is the figure to take the
    median of."""
    med = statistics.median
    print(f"\nmedians over {len(rounds)} rounds:")
    real = [r for r, _ in rounds]
    print(f"  stammtisch actions/s {med(r.rate for r in real):.0f}, "
          f"p99 {med(r.pct(0.99) for r in real):.1f} ms, "
          f"CPU per action {med(1000 * r.cpu_per_action for r in real):.2f} ms, "
          f"RSS per table {med(r.rss_per_table for r in real):.0f} KiB")
    if real[0].proxy_cpu is not None:
        print(f"  p50 {med(r.pct(0.5) for r in real):.1f} ms; the proxy's CPU per action "
              f"{med(1000 * (r.proxy_cpu or 0) / max(r.rate, 1e-9) for r in real):.2f} ms")
    pairs = [(r, b) for r, b in rounds if b is not None]
    if pairs:
        ratios = [r.rate / b.rate for r, b in pairs]
        cpu = [cpu_ratio(r, b) for r, b in pairs]
        print(f"  bare actions/s {med(b.rate for _, b in pairs):.0f}")
        print(f"  ratio stammtisch / bare actions/s: median {med(ratios):.2f} "
              f"(rounds: {' '.join(f'{x:.2f}' for x in ratios)})")
        print(f"  ratio bare / stammtisch server CPU per action: median {med(cpu):.2f} "
              f"(rounds: {' '.join(f'{x:.2f}' for x in cpu)})")


if __name__ == "__main__":
    main()

"""Shared fixtures: databases (SQLite always, PostgreSQL when TEST_DATABASE_URL is
set), migrated schemas, and a real uvicorn server started as a subprocess."""

from __future__ import annotations

import os
import secrets
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from alembic import command
from alembic.config import Config
from sqlalchemy import create_engine, text

from app.config import Settings

ROOT = Path(__file__).resolve().parents[1]
# strong bots think briefly and in one worker in the tests' servers and apps (the
# search itself is tested in tests/bots with its own budgets)
os.environ.setdefault("BOT_BUDGET_MS", "20")
os.environ.setdefault("BOT_POOL_SIZE", "1")
# the suite's apps and servers open many tables from one address (the cap per client
# is tested with settings of its own, as the rates are)
os.environ.setdefault("MAX_ROOMS_PER_CLIENT", "1000")
PG_URL = os.environ.get("TEST_DATABASE_URL")

DB_KINDS = ["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)]


def _pg_schema_url(schema: str) -> str:
    assert PG_URL is not None
    base = PG_URL.replace("postgresql://", "postgresql+psycopg://", 1)
    sep = "&" if "?" in base else "?"
    return f"{base}{sep}options=-csearch_path%3D{schema}"


def make_db_url(kind: str, tmp_path: Path) -> Iterator[str]:
    """A fresh, empty database of ``kind``; dropped again afterwards."""
    if kind == "sqlite":
        yield f"sqlite:///{tmp_path / 'test.db'}"
        return
    if PG_URL is None:
        pytest.skip("PostgreSQL tests need TEST_DATABASE_URL (set by .ci/run)")
    schema = "t_" + secrets.token_hex(6)
    admin = create_engine(PG_URL.replace("postgresql://", "postgresql+psycopg://", 1),
                          isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f"CREATE SCHEMA {schema}"))
    try:
        yield _pg_schema_url(schema)
    finally:
        with admin.connect() as conn:
            conn.execute(text(f"DROP SCHEMA {schema} CASCADE"))
        admin.dispose()


def migrate(url: str, revision: str = "head") -> None:
    cfg = Config(str(ROOT / "alembic.ini"))
    cfg.attributes["url"] = url
    cfg.attributes["quiet"] = True
    command.upgrade(cfg, revision)


@pytest.fixture(params=DB_KINDS)
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """An empty, migrated database: every test using it runs on SQLite and PostgreSQL."""
    gen = make_db_url(request.param, tmp_path)
    url = next(gen)
    migrate(url)
    yield url
    for _ in gen:
        pass


@pytest.fixture
def pg_url(tmp_path: Path) -> Iterator[str]:
    """An empty, migrated PostgreSQL schema, for what only PostgreSQL does (several
    server processes on one database: ROOM_LEASES); skipped without one."""
    gen = make_db_url("postgresql", tmp_path)
    url = next(gen)
    migrate(url)
    yield url
    for _ in gen:
        pass


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """A real uvicorn process serving the app on a free loopback port."""

    def __init__(self, db_url: str, log_path: Path, env: dict[str, str] | None = None) -> None:
        self.db_url = db_url
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.ws_base = f"ws://127.0.0.1:{self.port}"
        self.log_path = log_path
        # the suite opens many rooms from one address: the limits are tested on
        # their own (tests/web/test_limits.py), with the defaults. On PostgreSQL room
        # leases are on: a server killed by a test gives its rooms up to the one
        # started after it within LEASE_SECONDS (see :meth:`serves`)
        self.env = {**os.environ, "DATABASE_URL": db_url, "ALLOW_SEEDED_ROOMS": "1",
                    "BOT_DELAY_MS": "0", "RATE_ROOMS": "10000/minute",
                    "RATE_JOINS": "10000/minute", "RATE_QR": "10000/minute",
                    "LEASE_SECONDS": "2", **(env or {})}
        self.proc: subprocess.Popen[bytes] | None = None
        self.cwd = ROOT  # the checkout whose app is served (benchmarks may serve another)

    def uvicorn_args(self, app: str = "app.main:app") -> list[str]:
        """uvicorn serving ``app`` with the flags of scripts/serve.sh: h11, the idle
        timeout ``KEEPALIVE_S`` and permessage-deflate as ``WS_COMPRESSION`` in the
        server's environment say (the settings' defaults otherwise)."""
        deflate = self.env.get("WS_COMPRESSION") or str(
            Settings.model_fields["ws_compression"].default).lower()
        keepalive = self.env.get("KEEPALIVE_S") or str(
            Settings.model_fields["keepalive_s"].default)
        return [sys.executable, "-m", "uvicorn", app, "--host", "127.0.0.1",
                "--port", str(self.port), "--http", "h11", "--timeout-keep-alive",
                keepalive, "--ws-max-size", "65536", "--ws-per-message-deflate", deflate]

    def start(self) -> Server:
        log = self.log_path.open("ab")
        self.proc = subprocess.Popen(
            self.uvicorn_args(), cwd=self.cwd, env=self.env, stdout=log,
            stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited: {self.log_path.read_text()[-2000:]}")
            try:
                if httpx.get(self.base + "/healthz", timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                time.sleep(0.1)
        raise RuntimeError("server did not come up")

    def serves(self, room: str, limit: float = 10.0) -> float:
        """Wait until this server serves ``room``, as a client that honours
        ``Retry-After`` would: after a SIGKILL with room leases (PostgreSQL) the dead
        process's lease of the room runs out first (503 meanwhile). The seconds
        waited."""
        since = time.monotonic()
        while True:
            r = httpx.get(f"{self.base}/api/rooms/{room}/view", timeout=5)
            if r.status_code != 503:
                return time.monotonic() - since
            assert r.headers.get("retry-after") == "2", r.text
            if time.monotonic() - since > limit:
                raise AssertionError(f"room {room} not served after {limit} s: {r.text}")
            time.sleep(0.1)

    def kill(self, sig: int) -> None:
        """End the server with ``sig`` (SIGKILL: a crash; SIGTERM: a planned stop)."""
        assert self.proc is not None
        self.proc.send_signal(sig)
        self.proc.wait(20)

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)


@pytest.fixture
def server(db_url: str, tmp_path: Path) -> Iterator[Server]:
    srv = Server(db_url, tmp_path / "server.log").start()
    yield srv
    srv.stop()


@pytest.fixture
def sqlite_server(tmp_path: Path) -> Iterator[Server]:
    """A server on SQLite only, for tests whose subject is not the database."""
    url = f"sqlite:///{tmp_path / 'test.db'}"
    migrate(url)
    srv = Server(url, tmp_path / "server.log").start()
    yield srv
    srv.stop()

"""One server process per SQLite file (``app.db.one_server``): a second process on
the same file refuses to start with one clear line, and changes nothing; the first
serves on; once it is gone, another may start."""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from app.db import one_server
from tests.conftest import Server, migrate


def _second(url: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    """A second server on ``url``, as `make run` would start it; its whole output."""
    other = Server(url, tmp_path / "second.log")
    return subprocess.run(other.uvicorn_args(), cwd=other.cwd, env=other.env, text=True,
                          capture_output=True, timeout=60)


def test_a_second_process_on_the_same_sqlite_file_refuses_with_one_line(
        sqlite_server: Server, tmp_path: Path) -> None:
    room = httpx.post(sqlite_server.base + "/api/rooms", json={"game": "schafkopf"},
                      headers={"Origin": sqlite_server.base}).json()
    second = _second(sqlite_server.db_url, tmp_path)
    assert second.returncode == one_server.EXIT_CODE
    said = [line for line in (second.stdout + second.stderr).splitlines()
            if "stammtisch" in line]
    assert len(said) == 1, second.stdout + second.stderr
    assert "another server process already serves" in said[0]
    assert str(Path(sqlite_server.db_url.removeprefix("sqlite:///")).resolve()) in said[0]
    assert "DATABASE_URL=postgresql://" in said[0]
    assert "Traceback" not in second.stdout + second.stderr
    # the first serves on, its room untouched
    assert httpx.get(sqlite_server.base + "/healthz").status_code == 200
    joined = httpx.post(f"{sqlite_server.base}/api/rooms/{room['room']}/join",
                        json={"name": "Anna"}, headers={"Origin": sqlite_server.base})
    assert joined.status_code == 200, joined.text


def test_once_the_first_is_gone_another_may_serve_the_file(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'game.db'}"
    migrate(url)
    first = Server(url, tmp_path / "first.log").start()
    first.kill(signal.SIGKILL)  # however it ended, the system let go of the lock
    again = Server(url, tmp_path / "again.log").start()
    try:
        assert httpx.get(again.base + "/healthz").status_code == 200
    finally:
        again.stop()


def test_the_same_process_may_open_its_file_again(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'own.db'}"
    one_server.claim(url)
    one_server.claim(url)  # a second app of this process (the tests build many)
    one_server.release(url)
    assert one_server.lock_path(url) in one_server._held  # one app still serves it
    one_server.release(url)
    assert one_server.lock_path(url) not in one_server._held
    # and a process may take it now
    code = ("from app.db import one_server; "
            f"one_server.claim({url!r}); print('served')")
    taken = subprocess.run([sys.executable, "-c", code], text=True,
                           capture_output=True, timeout=60)
    assert taken.stdout.strip() == "served", taken.stderr


def test_a_held_file_is_refused_to_another_process(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'held.db'}"
    one_server.claim(url)
    try:
        code = ("from app.db import one_server\n"
                f"try:\n    one_server.claim({url!r})\n"
                "except one_server.AlreadyServed as exc:\n    print(exc)\n")
        taken = subprocess.run([sys.executable, "-c", code], text=True,
                               capture_output=True, timeout=60)
        assert "another server process already serves" in taken.stdout, taken.stderr
    finally:
        one_server.release(url)


@pytest.mark.parametrize("url", ["sqlite://", "sqlite:///:memory:",
                                 "postgresql://postgres@127.0.0.1:5432/test"])
def test_only_a_sqlite_file_is_locked(url: str) -> None:
    assert one_server.lock_path(url) is None

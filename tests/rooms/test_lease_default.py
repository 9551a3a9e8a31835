"""``ROOM_LEASES`` is ``auto`` by default: room leases on with PostgreSQL (several
server processes may share it), off with SQLite (one process per file,
app/db/one_server.py); ``true`` or ``false`` said explicitly wins (``true`` with
SQLite is refused at start: tests/web/test_room_leases_servers.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.config import Settings
from app.db import Database
from app.rooms.leases import enabled
from app.rooms.service import RoomService

PG = "postgresql+psycopg://stammtisch@db:5432/stammtisch"


def test_auto_is_on_with_postgresql_and_off_with_sqlite_and_said_wins() -> None:
    assert enabled("auto", PG) and enabled("auto", "postgres://u@h/d")
    assert not enabled("auto", "sqlite:///./data/stammtisch.db")
    assert not enabled("auto", "sqlite://")
    assert not enabled(False, PG)
    assert enabled(True, "sqlite:///x.db"), "said: the start refuses it in one line"


@pytest.mark.parametrize(("env", "read"), [
    (None, "auto"), ("auto", "auto"), ("true", True), ("1", True), ("false", False),
    ("0", False)])
def test_the_setting_reads_auto_true_and_false(monkeypatch: pytest.MonkeyPatch,
                                               env: str | None, read: object) -> None:
    if env is None:
        monkeypatch.delenv("ROOM_LEASES", raising=False)
    else:
        monkeypatch.setenv("ROOM_LEASES", env)
    assert Settings().room_leases == read


def test_a_room_service_on_sqlite_has_no_leases(tmp_path: Path) -> None:
    db = Database(f"sqlite:///{tmp_path / 'one.db'}")
    try:
        assert RoomService(db).leases is None  # the setting is auto in the suite
        assert RoomService(db, room_leases=True).leases is not None
    finally:
        db.close()


@pytest.mark.postgres
def test_a_room_service_on_postgresql_has_leases_unless_told_not_to(pg_url: str) -> None:
    db = Database(pg_url)
    try:
        assert RoomService(db).leases is not None
        assert RoomService(db, room_leases=False).leases is None
    finally:
        db.close()

"""/healthz says the process is alive; /readyz says whether it can serve tables:
the database answers and its schema is at the newest migration (503 otherwise)."""

from __future__ import annotations

from pathlib import Path

import httpx
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text

from app.db import Database
from app.main import create_app
from app.rooms.service import RoomService
from app.web.health import head_revision
from tests.conftest import Server


def test_readyz_checks_the_database_and_the_migrations(sqlite_server: Server) -> None:
    ok = httpx.get(sqlite_server.base + "/readyz")
    assert ok.status_code == 200
    assert ok.json()["status"] == "ready" and ok.json()["revision"] == head_revision()
    assert httpx.get(sqlite_server.base + "/healthz").status_code == 200
    engine = create_engine(sqlite_server.db_url)
    with engine.begin() as conn:  # as if the code were newer than the database
        conn.execute(text("UPDATE alembic_version SET version_num = '0003'"))
    try:
        behind = httpx.get(sqlite_server.base + "/readyz")
        assert behind.status_code == 503
        assert "alembic upgrade head" in behind.json()["reason"]
        assert httpx.get(sqlite_server.base + "/healthz").status_code == 200
    finally:
        with engine.begin() as conn:
            conn.execute(text("UPDATE alembic_version SET version_num = :v"),
                         {"v": head_revision()})
        engine.dispose()


def test_readyz_is_503_while_the_database_does_not_answer(tmp_path: Path) -> None:
    app = create_app()
    db = Database("postgresql://nobody@127.0.0.1:1/none")  # nothing listens on port 1
    app.state.db = db
    app.state.rooms = RoomService(db)
    client = TestClient(app)
    r = client.get("/readyz")
    assert r.status_code == 503 and r.json()["reason"] == "the database is not answering"
    assert client.get("/healthz").status_code == 200
    db.close()

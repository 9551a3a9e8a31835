"""Each migration upgrades a database made by the one before it, data included."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import text

from app.db import Database, repo
from tests.conftest import DB_KINDS, make_db_url, migrate


@pytest.fixture(params=DB_KINDS)
def empty_db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    yield from make_db_url(request.param, tmp_path)


def test_0003_keeps_matches_seats_deals_and_ledger_made_by_0002(empty_db_url: str) -> None:
    migrate(empty_db_url, "0002")
    db = Database(empty_db_url)
    try:
        db.run_sync(_old_create, match_id="old1")
        with db.engine.begin() as conn:
            conn.execute(text(
                "INSERT INTO seats (match_id, seat, name, is_bot, token_hash, joined_at) "
                "VALUES ('old1', 0, 'Anna', false, 'h0', CURRENT_TIMESTAMP)"))
            conn.execute(text(
                "INSERT INTO deal_results (match_id, deal_no, result, scores_after, finished_at)"
                " VALUES ('old1', 1, '{\"kind\": \"played\"}', '[44, 36, 40]', "
                "CURRENT_TIMESTAMP)"))
            conn.execute(text(
                "INSERT INTO chip_ledger (match_id, deal_no, seat, amount, reason, created_at)"
                " VALUES ('old1', 0, 0, 40, 'start', CURRENT_TIMESTAMP)"))
    finally:
        db.close()
    migrate(empty_db_url, "head")
    db = Database(empty_db_url)
    try:
        info = db.run_sync(repo.get_match, match_id="old1")
        assert info is not None and info.status == "playing"
        assert [s.name for s in info.seats] == ["Anna"]
        assert info.deals[0].result == {"kind": "played"}
        assert db.run_sync(repo.balances, match_id="old1", players=3) == [40, 0, 0]
        opened = db.run_sync(repo.open_matches)
        assert [(m.id, m.version, m.snapshot) for m in opened] == [("old1", 0, None)]
    finally:
        db.close()


def _old_create(session, *, match_id: str) -> None:  # noqa: ANN001
    """A match row as revision 0002 knew it (no snapshot, version or seed yet)."""
    session.execute(text(
        "INSERT INTO matches (id, game, players, options, status, host_token_hash, "
        "created_at) VALUES (:id, 'mauscheln', 3, '{\"chips\": 40}', 'playing', 'x', "
        "CURRENT_TIMESTAMP)"), {"id": match_id})

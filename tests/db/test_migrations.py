"""Each migration upgrades a database made by the one before it, data included."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from alembic import command
from alembic.config import Config
from sqlalchemy import inspect, text

from app.db import Database, repo
from tests.conftest import DB_KINDS, ROOT, make_db_url, migrate


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


def test_0006_gives_finished_seats_their_results_and_old_seats_count_by_name(
        empty_db_url: str) -> None:
    """Seats of matches finished before 0006 get their final score and win from the
    match; without a player key they count by name in the standings, as before."""
    migrate(empty_db_url, "0005")
    db = Database(empty_db_url)
    try:
        with db.engine.begin() as conn:
            for match_id, scores, winners in (("f1", "[30, 10, 20]", "[0]"),
                                              ("f2", "[5, 40, 15]", "[1]")):
                conn.execute(text(
                    "INSERT INTO matches (id, game, players, options, status, "
                    "host_token_hash, created_at, finished_at, final_scores, winners, "
                    "version) VALUES (:id, 'schafkopf', 3, '{}', 'finished', 'x', "
                    "CURRENT_TIMESTAMP, CURRENT_TIMESTAMP, :scores, :winners, 0)"),
                    {"id": match_id, "scores": scores, "winners": winners})
                for seat, name in enumerate(("Anna", "Bert", "Bot Hans")):
                    conn.execute(text(
                        "INSERT INTO seats (match_id, seat, name, is_bot, token_hash, "
                        "joined_at) VALUES (:m, :s, :n, :b, :t, CURRENT_TIMESTAMP)"),
                        {"m": match_id, "s": seat, "n": name, "b": seat == 2,
                         "t": f"{match_id}{seat}"})
            conn.execute(text(
                "INSERT INTO matches (id, game, players, options, status, host_token_hash,"
                " created_at, version) VALUES ('p1', 'schafkopf', 3, '{}', 'playing', 'x', "
                "CURRENT_TIMESTAMP, 0)"))
            conn.execute(text(
                "INSERT INTO seats (match_id, seat, name, is_bot, token_hash, joined_at) "
                "VALUES ('p1', 0, 'Anna', false, 'p10', CURRENT_TIMESTAMP)"))
    finally:
        db.close()
    migrate(empty_db_url, "head")
    db = Database(empty_db_url)
    try:
        with db.engine.connect() as conn:
            seats = conn.execute(text(
                "SELECT match_id, seat, final_score, won, player_key FROM seats "
                "ORDER BY match_id, seat")).all()
        assert [tuple(r) for r in seats] == [
            ("f1", 0, 30, True, None), ("f1", 1, 10, False, None), ("f1", 2, 20, False, None),
            ("f2", 0, 5, False, None), ("f2", 1, 40, True, None), ("f2", 2, 15, False, None),
            ("p1", 0, None, None, None)]
        rows = db.run_sync(repo.standings, game="schafkopf")
        assert [(s.name, s.is_bot, s.played, s.won, s.points) for s in rows] == [
            ("Bert", False, 2, 1, 50), ("Anna", False, 2, 1, 35), ("Bot Hans", True, 2, 0, 35)]
    finally:
        db.close()


def test_0008_keeps_the_shares_of_a_match_made_by_0007(empty_db_url: str) -> None:
    """The reviews a person shared with the table (issue 28): made on a database of
    0007 with its matches kept, shared, shared again (one row per seat, the latest
    token's), withdrawn, and gone with a downgrade."""
    migrate(empty_db_url, "0007")
    db = Database(empty_db_url)
    try:
        with db.engine.begin() as conn:
            conn.execute(text(
                "INSERT INTO matches (id, game, players, options, status, host_token_hash, "
                "created_at, version) VALUES ('m1', 'schafkopf', 4, '{}', 'finished', 'x', "
                "CURRENT_TIMESTAMP, 0)"))
    finally:
        db.close()
    migrate(empty_db_url, "head")
    db = Database(empty_db_url)
    try:
        assert db.run_sync(repo.review_shares, match_id="m1") == {}
        assert db.run_sync(repo.share_reviews, match_id="m1", seat=2, holder="h2") == {2: "h2"}
        assert db.run_sync(repo.share_reviews, match_id="m1", seat=0, holder="h0") == {
            0: "h0", 2: "h2"}
        assert db.run_sync(repo.share_reviews, match_id="m1", seat=2, holder="h9") == {
            0: "h0", 2: "h9"}, "one row per seat: the latest token's"
        assert db.run_sync(repo.share_reviews, match_id="m1", seat=0, holder=None) == {
            2: "h9"}
        assert db.run_sync(repo.share_reviews, match_id="m1", seat=0, holder=None) == {
            2: "h9"}, "withdrawing twice is no error"
        assert db.run_sync(repo.review_shares, match_id="m1") == {2: "h9"}
        assert db.run_sync(repo.review_shares, match_id="other") == {}
    finally:
        db.close()
    cfg = Config(str(ROOT / "alembic.ini"))
    cfg.attributes.update(url=empty_db_url, quiet=True)
    command.downgrade(cfg, "0007")
    db = Database(empty_db_url)
    try:
        assert "review_shares" not in inspect(db.engine).get_table_names()
        with db.engine.connect() as conn:
            assert conn.execute(text("SELECT id FROM matches")).scalars().all() == ["m1"]
    finally:
        db.close()
    migrate(empty_db_url, "head")

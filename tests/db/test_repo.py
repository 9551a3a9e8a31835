"""Repository functions on SQLite and PostgreSQL (each test runs on both)."""

from __future__ import annotations

from alembic import command
from alembic.config import Config
from sqlalchemy import inspect

from app.db import Database, repo
from tests.conftest import ROOT


def test_a_match_is_stored_from_creation_to_final_score(db_url: str) -> None:
    db = Database(db_url)
    try:
        db.run_sync(repo.create_match, match_id="room1", game="schafkopf", players=4,
                    options={"target": 11}, host_token="host-secret")
        for seat, name in enumerate(["Anna", "Bert", "Cilli", "Done"]):
            db.run_sync(repo.add_seat, match_id="room1", seat=seat, name=name,
                        token=f"tok{seat}")
        db.run_sync(repo.record_step, match_id="room1", seq=5, seat=None, action="start",
                    events=[], snapshot={"state": {}}, deals=[], started=True)
        assert db.run_sync(repo.finished_matches) == []
        db.run_sync(repo.record_deal, match_id="room1", deal_no=1,
                    result={"points": [91, 29], "units": [2, 0]}, scores_after=[2, 0, 2, 0])
        db.run_sync(repo.finish_match, match_id="room1", final_scores=[11, 4, 11, 4],
                    winners=[0, 2])
        listed = db.run_sync(repo.finished_matches, game="schafkopf")
        assert [m.id for m in listed] == ["room1"]
        assert [s.name for s in listed[0].seats] == ["Anna", "Bert", "Cilli", "Done"]
        assert db.run_sync(repo.finished_matches, game="mauscheln") == []
        info = db.run_sync(repo.get_match, match_id="room1")
        assert info is not None and info.status == "finished"
        assert info.winners == [0, 2] and info.final_scores == [11, 4, 11, 4]
        assert info.deals[0].result["points"] == [91, 29]
        assert info.finished_at is not None and info.started_at is not None
        assert db.run_sync(repo.get_match, match_id="nope") is None
    finally:
        db.close()


def test_seat_tokens_are_stored_only_as_hashes(db_url: str) -> None:
    db = Database(db_url)
    try:
        db.run_sync(repo.create_match, match_id="r2", game="schafkopf", players=4,
                    options={}, host_token="the-host-token")
        db.run_sync(repo.add_seat, match_id="r2", seat=0, name="A", token="the-seat-token")
        from app.db.models import MatchRow, SeatRow

        def raw(session):  # noqa: ANN001, ANN202
            return (session.get_one(MatchRow, "r2").host_token_hash,
                    session.query(SeatRow).one().token_hash)

        host_hash, seat_hash = db.run_sync(raw)
        assert host_hash == repo.token_hash("the-host-token") != "the-host-token"
        assert seat_hash == repo.token_hash("the-seat-token")
    finally:
        db.close()


def test_migrations_go_down_and_up_again(db_url: str) -> None:
    cfg = Config(str(ROOT / "alembic.ini"))
    cfg.attributes["url"] = db_url
    cfg.attributes["quiet"] = True
    db = Database(db_url)
    try:
        assert {"matches", "seats", "deal_results"} <= set(inspect(db.engine).get_table_names())
        command.downgrade(cfg, "base")
        assert "matches" not in inspect(db.engine).get_table_names()
        command.upgrade(cfg, "head")
        assert "matches" in inspect(db.engine).get_table_names()
    finally:
        db.close()


def test_a_review_is_kept_once(db_url: str) -> None:
    """A second working-out of the same review (two requests that both read it as
    not done) does not replace the first, which may have been answered already."""
    db = Database(db_url)
    try:
        db.run_sync(repo.create_match, match_id="room2", game="schafkopf", players=4,
                    options={}, host_token="host-secret")
        point = {"seq": 3, "holder": "h", "view": {}, "legal": ["a", "b"], "chosen": "a"}
        db.run_sync(repo.record_deal, match_id="room2", deal_no=1, result={},
                    scores_after=[0, 0, 0, 0],
                    decisions=(repo.SeatDecisions(0, [point], True),))
        found = db.run_sync(repo.deal_decisions, match_id="room2", deal_no=1, seat=0)
        assert found is not None and found.review is None
        first = [{"chosen": "a", "best": "b", "estimate": 1.0}]
        db.run_sync(repo.save_review, match_id="room2", deal_no=1, seat=0, review=first)
        db.run_sync(repo.save_review, match_id="room2", deal_no=1, seat=0,
                    review=[{"chosen": "a", "best": "a", "estimate": 2.0}])
        found = db.run_sync(repo.deal_decisions, match_id="room2", deal_no=1, seat=0)
        assert found is not None and found.review == first
    finally:
        db.close()

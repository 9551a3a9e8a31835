"""Mauscheln chips through the real server: every transfer goes to the ledger, the
ledger adds up to the balances, and the host can end the game."""

from __future__ import annotations

import random

import httpx

from app.db import Database, repo
from tests.conftest import Server
from tests.web.apiclient import Table


def _play_deals(table: Table, tokens: list[str], deals: int, rng: random.Random) -> None:
    while True:
        states = [table.view(t) for t in tokens]
        view = states[0]["view"]
        if view["phase"] == "over" or view["deal_no"] > deals:
            return
        acting = [i for i, st in enumerate(states) if st["legal"]]
        assert len(acting) == 1
        st = states[acting[0]]
        legal = st["legal"]
        preferred = [a for a in legal if a in ("mauschel", "join")]
        action = preferred[0] if preferred and rng.random() < 0.7 else rng.choice(legal)
        r = table.act(tokens[acting[0]], action, st["version"])
        assert r.status_code == 200, r.text


def test_ledger_rows_add_up_to_every_balance_and_the_host_ends_the_game(
        server: Server) -> None:
    table = Table(server.base, "mauscheln", players=4, options={"chips": 40, "stake": 4},
                  seed=11)
    tokens = [table.join(n)[1] for n in ("Anna", "Bert", "Cilli", "Done")]
    assert table.start().status_code == 200
    _play_deals(table, tokens, deals=2, rng=random.Random(2))
    assert table.view()["status"] == "playing"
    # only the host may end it
    r = table.http.post(f"/api/rooms/{table.room}/end",
                        headers={"Authorization": f"Bearer {tokens[0]}"})
    assert r.status_code == 403
    r = table.http.post(f"/api/rooms/{table.room}/end",
                        headers={"Authorization": f"Bearer {table.host_token}"})
    assert r.status_code == 200, r.text
    final = r.json()
    assert final["status"] == "finished"
    chips = final["view"]["scores"]
    pot = final["view"]["pot"]
    assert sum(chips) + pot == 160
    db = Database(server.db_url)
    try:
        assert db.run_sync(repo.balances, match_id=table.room, players=4) == chips
        rows = db.run_sync(repo.ledger, match_id=table.room)
        assert [r.reason for r in rows[:4]] == ["start"] * 4
        assert {r.reason for r in rows} <= {"start", "stake", "trick", "bete", "pot", "quartet"}
        assert any(r.reason == "stake" for r in rows)
        info = db.run_sync(repo.get_match, match_id=table.room)
        assert info is not None and info.status == "finished"
        assert info.final_scores == chips
    finally:
        db.close()
    page = httpx.get(f"{server.base}/r/{table.room}/ledger")
    assert page.status_code == 200
    assert "Anna" in page.text and str(pot) in page.text and "stake" in page.text


def test_a_ledger_that_does_not_add_up_is_never_written(db_url: str) -> None:
    db = Database(db_url)
    try:
        db.run_sync(repo.create_match, match_id="m1", game="mauscheln", players=3,
                    options={"chips": 10}, host_token="h")
        db.run_sync(repo.record_start_chips, match_id="m1", chips=[10, 10, 10])
        good = [{"seat": 0, "amount": -4, "reason": "stake"}]
        db.run_sync(repo.record_deal, match_id="m1", deal_no=1, result={}, scores_after=[6, 10, 10],
                    transfers=good, chips_after=[6, 10, 10], pot_after=4, chips_total=30)
        bad = [{"seat": 1, "amount": -4, "reason": "stake"}]
        for chips_after, pot in (([6, 5, 10], 8), ([6, 6, 10], 9), ([6, 6, 10], 4)):
            try:
                db.run_sync(repo.record_deal, match_id="m1", deal_no=2, result={},
                            scores_after=chips_after, transfers=bad, chips_after=chips_after,
                            pot_after=pot, chips_total=30)
            except repo.LedgerMismatch:
                pass
            else:
                raise AssertionError("a mismatch must be refused")
        assert db.run_sync(repo.balances, match_id="m1", players=3) == [6, 10, 10]
        info = db.run_sync(repo.get_match, match_id="m1")
        assert info is not None and [d.deal_no for d in info.deals] == [1]
    finally:
        db.close()

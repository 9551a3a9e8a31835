"""Hypothesis: in long random Mauscheln games with 3..7 players, the ledger rows
written after every deal add up to every balance, chips and pot stay conserved and
no balance goes negative, on SQLite and PostgreSQL."""

from __future__ import annotations

import random
import secrets

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.db import Database, repo
from app.games import new_match


@settings(max_examples=12, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(players=st.integers(3, 7), seed=st.integers(0, 2**32), pick=st.integers(0, 2**32))
def test_ledger_sums_equal_balances_after_every_deal(db_url: str, players: int, seed: int,
                                                     pick: int) -> None:
    m = new_match("mauscheln", players, {"chips": 40, "stake": 4}, seed=seed)
    match_id = secrets.token_hex(8)
    total = 40 * players
    db = Database(db_url)
    try:
        db.run_sync(repo.create_match, match_id=match_id, game="mauscheln", players=players,
                    options=m.options, host_token="h")
        db.run_sync(repo.record_start_chips, match_id=match_id, chips=[40] * players)
        rng = random.Random(pick)
        deals = 0
        for _ in range(3000):
            if m.is_over or deals >= 12:
                break
            seat = rng.choice(sorted(m.to_act()))
            for event in m.apply(seat, rng.choice(m.legal_actions(seat))):
                assert sum(m.scores) + m.pot == total and min(m.scores) >= 0  # type: ignore[attr-defined]
                if event["type"] != "deal_end":
                    continue
                deals += 1
                db.run_sync(repo.record_deal, match_id=match_id, deal_no=event["deal_no"],
                            result={}, scores_after=event["scores"],
                            transfers=event["transfers"], chips_after=event["scores"],
                            pot_after=event["pot"], chips_total=total)
                balances = db.run_sync(repo.balances, match_id=match_id, players=players)
                assert balances == event["scores"]
                assert min(balances) >= 0
        assert deals > 0
    finally:
        db.close()

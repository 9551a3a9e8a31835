"""A settlement in cents in the database (issue 27): the classic Schafkopf's deals
go to the ledger as a zero-sum settlement, balances may go below zero, a deal that
does not add up is never written, and the standings sum each person's cents across
matches. The chips ledger (Mauscheln) keeps its own rules. SQLite and PostgreSQL."""

from __future__ import annotations

import dataclasses
import random
from types import SimpleNamespace
from typing import Any

import pytest

from app.db import Database, repo
from app.games import CENTS, CHIPS, GAMES, GameInfo, Match, new_match
from app.games.schafkopf_classic import SchafkopfClassicMatch
from app.rooms.pipeline import ActionPipeline
from tests.games.contract import random_step

GAME = "schafkopf_classic"
KEYS = [repo.token_hash(f"player-{n}") for n in range(4)]


@pytest.fixture
def cents_game(monkeypatch: pytest.MonkeyPatch) -> str:
    """The classic Schafkopf declared as paid in cents (as its entry will say)."""
    info = GAMES[GAME] if GAME in GAMES else GameInfo.of(
        SchafkopfClassicMatch, title="Schafkopf", blurb="classic", position=5,
        host_can_end=True)
    monkeypatch.setitem(GAMES, GAME, dataclasses.replace(info, ledger=CENTS))
    return GAME


def _play_match(db: Database, match_id: str, seed: int, deals: int = 3) -> Match:
    """A whole match of random legal play on the engine, written step by step as the
    room writes it (its deal records made by the pipeline); returns the match."""
    db.run_sync(repo.create_match, match_id=match_id, game=GAME, players=4,
                options={"deals": deals}, host_token="h")
    for seat in range(4):
        db.run_sync(repo.add_seat, match_id=match_id, seat=seat, name=f"P{seat}",
                    token=f"{match_id}-{seat}", player_key=KEYS[seat])
    m = new_match(GAME, 4, {"deals": deals, "dealer": 3}, seed=seed)
    assert GAMES[GAME].keeps_chip_ledger
    db.run_sync(repo.record_step, match_id=match_id, seq=1, seat=None, action="start",
                events=[], snapshot={}, deals=[], started=True,
                start_chips=m.chips_at_start())
    room = SimpleNamespace(game=GAME, hints_used=set())  # what deal_record reads of a room
    rng = random.Random(seed)
    seq = 1
    while not m.is_over:
        seat, action = random_step(m, rng)
        events = m.apply(seat, action)
        records = [ActionPipeline.deal_record(room, m, e)  # type: ignore[arg-type]
                   for e in events if e["type"] == "deal_end"]
        assert all(r.settlement for r in records)
        seq += 1
        finished = (list(m.scores), list(m.winners)) if m.is_over else None
        db.run_sync(repo.record_step, match_id=match_id, seq=seq, seat=seat, action=action,
                    events=events, snapshot={}, deals=records, finished=finished)
    return m


def test_every_deal_is_a_zero_sum_settlement_and_balances_may_go_negative(
        db_url: str, cents_game: str) -> None:
    db = Database(db_url)
    try:
        seed = next(s for s in range(1, 50)
                    if min(_dry_run(s)) < 0)  # a match that leaves somebody below zero
        m = _play_match(db, "c1", seed)
        balances = db.run_sync(repo.balances, match_id="c1", players=4)
        rows = db.run_sync(repo.ledger, match_id="c1")
        info = db.run_sync(repo.get_match, match_id="c1")
    finally:
        db.close()
    assert balances == m.scores and sum(balances) == 0 and min(balances) < 0
    assert info is not None and info.final_scores == m.scores
    totals: dict[int, int] = {}
    for row in rows:
        totals[row.deal_no] = totals.get(row.deal_no, 0) + row.amount
    assert set(totals.values()) == {0}
    assert {r.deal_no for r in rows} - {0} <= {d.deal_no for d in info.deals}
    assert [(r.deal_no, r.amount) for r in rows[:4]] == [(0, 0)] * 4  # opened at 0
    for deal in info.deals:
        assert [sum(r.amount for r in rows if r.deal_no == deal.deal_no and r.seat == s)
                for s in range(4)] == deal.result["cents"]


def _dry_run(seed: int) -> list[int]:
    m = new_match(GAME, 4, {"deals": 3, "dealer": 3}, seed=seed)
    rng = random.Random(seed)
    while not m.is_over:
        m.apply(*random_step(m, rng))
    return list(m.scores)


def _settle(db: Database, deal_no: int, transfers: list[dict[str, Any]],
            after: list[int]) -> None:
    db.run_sync(repo.record_deal, match_id="c2", deal_no=deal_no, result={},
                scores_after=after, transfers=transfers, chips_after=after,
                settlement=True)


def test_a_settlement_that_does_not_add_up_is_never_written(db_url: str) -> None:
    db = Database(db_url)
    try:
        db.run_sync(repo.create_match, match_id="c2", game=GAME, players=4, options={},
                    host_token="h")
        db.run_sync(repo.record_start_chips, match_id="c2", chips=[0, 0, 0, 0])
        paid = [{"seat": 0, "amount": 90, "reason": "rufspiel"},
                {"seat": 1, "amount": -30, "reason": "rufspiel"},
                {"seat": 2, "amount": -30, "reason": "rufspiel"},
                {"seat": 3, "amount": -30, "reason": "rufspiel"}]
        _settle(db, 1, paid, [90, -30, -30, -30])  # below zero: a settlement allows it
        for transfers, after in (
                (paid[:3], [180, -60, -60, -30]),  # 30 cents from nowhere
                (paid, [180, -60, -60, -50]),  # balances that are not the ledger's
                ([{"seat": 4, "amount": 0, "reason": "solo"}], [90, -30, -30, -30])):
            with pytest.raises(repo.LedgerMismatch):
                _settle(db, 2, transfers, after)
        assert db.run_sync(repo.balances, match_id="c2", players=4) == [90, -30, -30, -30]
        info = db.run_sync(repo.get_match, match_id="c2")
        assert info is not None and [d.deal_no for d in info.deals] == [1]
        # the chips ledger still refuses a balance below zero
        db.run_sync(repo.create_match, match_id="k1", game="mauscheln", players=2,
                    options={}, host_token="h")
        db.run_sync(repo.record_start_chips, match_id="k1", chips=[5, 5])
        with pytest.raises(repo.LedgerMismatch):
            db.run_sync(repo.record_deal, match_id="k1", deal_no=1, result={},
                        scores_after=[-1, 11], transfers=[
                            {"seat": 0, "amount": -6, "reason": "stake"},
                            {"seat": 1, "amount": 6, "reason": "pot"}],
                        chips_after=[-1, 11], pot_after=0, chips_total=10)
        assert db.run_sync(repo.balances, match_id="k1", players=2) == [5, 5]
    finally:
        db.close()


def test_the_standings_sum_each_persons_cents_across_matches(
        db_url: str, cents_game: str) -> None:
    db = Database(db_url)
    try:
        firsts = [_play_match(db, f"s{n}", seed=n).scores for n in (1, 2)]
        rows = db.run_sync(repo.standings, game=GAME, player_key=KEYS[0])
    finally:
        db.close()
    net = {r.name: r.chips_net for r in rows}
    assert net == {f"P{s}": firsts[0][s] + firsts[1][s] for s in range(4)}
    assert sum(net.values()) == 0
    assert all(r.played == 2 for r in rows)
    assert {r.name: r.points for r in rows} == net  # a settlement starts at 0
    assert [r.name for r in rows if r.is_you] == ["P0"]


def test_a_game_declares_which_ledger_it_keeps() -> None:
    assert GAMES["mauscheln"].ledger == CHIPS and GAMES["mauscheln"].keeps_chip_ledger
    assert GAMES["schafkopf"].ledger is None and not GAMES["schafkopf"].keeps_chip_ledger
    with pytest.raises(ValueError):
        dataclasses.replace(GAMES["schafkopf"], ledger="euros")

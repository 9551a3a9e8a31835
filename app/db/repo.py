"""Repository functions: the only place that knows the tables. Each takes the
session first and keyword-only arguments; routes and rooms never write SQL."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session, selectinload

from app.db.models import DealResultRow, LedgerRow, MatchRow, SeatRow


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def now() -> datetime:
    return datetime.now(UTC)


@dataclass(frozen=True)
class SeatInfo:
    seat: int
    name: str
    is_bot: bool


@dataclass(frozen=True)
class DealInfo:
    deal_no: int
    result: dict[str, Any]
    scores_after: list[int]


@dataclass(frozen=True)
class MatchInfo:
    id: str
    game: str
    players: int
    options: dict[str, Any]
    status: str
    created_at: datetime
    started_at: datetime | None
    finished_at: datetime | None
    final_scores: list[int] | None
    winners: list[int] | None
    seats: list[SeatInfo]
    deals: list[DealInfo]


def _info(row: MatchRow, with_deals: bool) -> MatchInfo:
    return MatchInfo(
        id=row.id, game=row.game, players=row.players, options=dict(row.options),
        status=row.status, created_at=row.created_at, started_at=row.started_at,
        finished_at=row.finished_at, final_scores=row.final_scores, winners=row.winners,
        seats=[SeatInfo(s.seat, s.name, s.is_bot) for s in row.seats],
        deals=[DealInfo(d.deal_no, d.result, d.scores_after) for d in row.deals]
        if with_deals else [],
    )


def create_match(session: Session, *, match_id: str, game: str, players: int,
                 options: dict[str, Any], host_token: str) -> None:
    session.add(MatchRow(
        id=match_id, game=game, players=players, options=options, status="waiting",
        host_token_hash=token_hash(host_token), created_at=now(),
    ))


def add_seat(session: Session, *, match_id: str, seat: int, name: str, token: str,
             is_bot: bool = False) -> None:
    session.add(SeatRow(match_id=match_id, seat=seat, name=name, is_bot=is_bot,
                        token_hash=token_hash(token), joined_at=now()))


def mark_started(session: Session, *, match_id: str) -> None:
    row = session.get_one(MatchRow, match_id)
    row.status = "playing"
    row.started_at = now()


class LedgerMismatch(Exception):
    """Balances and pot would not add up: nothing is written."""


@dataclass(frozen=True)
class ChipTransfer:
    deal_no: int
    seat: int
    amount: int
    reason: str


def record_start_chips(session: Session, *, match_id: str, chips: list[int]) -> None:
    """The opening balances: one ``start`` row per seat (deal 0)."""
    stamp = now()
    for seat, amount in enumerate(chips):
        session.add(LedgerRow(match_id=match_id, deal_no=0, seat=seat, amount=amount,
                              reason="start", created_at=stamp))


def balances(session: Session, *, match_id: str, players: int) -> list[int]:
    """Each seat's balance: the sum of its ledger rows."""
    rows = session.execute(
        select(LedgerRow.seat, func.sum(LedgerRow.amount))
        .where(LedgerRow.match_id == match_id).group_by(LedgerRow.seat)
    ).all()
    out = [0] * players
    for seat, total in rows:
        out[seat] = int(total)
    return out


def ledger(session: Session, *, match_id: str) -> list[ChipTransfer]:
    rows = session.scalars(
        select(LedgerRow).where(LedgerRow.match_id == match_id)
        .order_by(LedgerRow.deal_no, LedgerRow.id)
    )
    return [ChipTransfer(r.deal_no, r.seat, r.amount, r.reason) for r in rows]


def record_deal(session: Session, *, match_id: str, deal_no: int, result: dict[str, Any],
                scores_after: list[int], transfers: list[dict[str, Any]] | None = None,
                chips_after: list[int] | None = None, pot_after: int | None = None,
                chips_total: int | None = None) -> None:
    """Store a finished deal; with ``transfers`` also its chip ledger rows, in the same
    transaction, after checking that the ledger balances equal ``chips_after`` and that
    players plus pot still hold ``chips_total``. Raises LedgerMismatch otherwise."""
    session.add(DealResultRow(match_id=match_id, deal_no=deal_no, result=result,
                              scores_after=scores_after, finished_at=now()))
    if transfers is None:
        return
    assert chips_after is not None and pot_after is not None and chips_total is not None
    players = len(chips_after)
    expected = balances(session, match_id=match_id, players=players)
    stamp = now()
    for t in transfers:
        seat, amount = int(t["seat"]), int(t["amount"])
        if not 0 <= seat < players:
            raise LedgerMismatch(f"transfer for seat {seat} of {players}")
        expected[seat] += amount
        session.add(LedgerRow(match_id=match_id, deal_no=deal_no, seat=seat, amount=amount,
                              reason=str(t["reason"]), created_at=stamp))
    if expected != list(chips_after):
        raise LedgerMismatch(f"ledger balances {expected} differ from chips {chips_after}")
    if sum(chips_after) + pot_after != chips_total:
        raise LedgerMismatch(
            f"chips {sum(chips_after)} + pot {pot_after} != starting total {chips_total}")
    if min(chips_after) < 0:
        raise LedgerMismatch(f"a negative balance in {chips_after}")


def finish_match(session: Session, *, match_id: str, final_scores: list[int],
                 winners: list[int]) -> None:
    row = session.get_one(MatchRow, match_id)
    row.status = "finished"
    row.finished_at = now()
    row.final_scores = final_scores
    row.winners = winners


def finished_matches(session: Session, *, game: str | None = None,
                     limit: int = 100) -> list[MatchInfo]:
    query = (
        select(MatchRow)
        .where(MatchRow.status == "finished")
        .options(selectinload(MatchRow.seats))
        .order_by(MatchRow.finished_at.desc())
        .limit(limit)
    )
    if game is not None:
        query = query.where(MatchRow.game == game)
    return [_info(row, with_deals=False) for row in session.scalars(query)]


def get_match(session: Session, *, match_id: str) -> MatchInfo | None:
    row = session.get(
        MatchRow, match_id,
        options=[selectinload(MatchRow.seats), selectinload(MatchRow.deals)],
    )
    return _info(row, with_deals=True) if row is not None else None

"""Repository functions: the only place that knows the tables. Each takes the
session first and keyword-only arguments; routes and rooms never write SQL."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from itertools import groupby
from typing import Any

from sqlalchemy import (
    ARRAY,
    Interval,
    Select,
    String,
    and_,
    any_,
    bindparam,
    case,
    delete,
    func,
    insert,
    inspect,
    literal,
    or_,
    select,
    text,
    update,
)
from sqlalchemy.orm import Session, aliased, joinedload, selectinload

from app.db.models import (
    ActionRow,
    ChatRow,
    DealResultRow,
    DecisionsRow,
    LedgerRow,
    MatchRow,
    SeatRow,
    ShareRow,
)
from app.db.session import batched, pipeline


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
    prev_match_id: str | None = None
    next_match_id: str | None = None


def _info(row: MatchRow, with_deals: bool) -> MatchInfo:
    return MatchInfo(
        id=row.id, game=row.game, players=row.players, options=dict(row.options),
        status=row.status, created_at=row.created_at, started_at=row.started_at,
        finished_at=row.finished_at, final_scores=row.final_scores, winners=row.winners,
        seats=[SeatInfo(s.seat, s.name, s.is_bot) for s in row.seats],
        deals=[DealInfo(d.deal_no, d.result, d.scores_after) for d in row.deals]
        if with_deals else [],
        prev_match_id=row.prev_match_id, next_match_id=row.next_match_id,
    )


def create_match(session: Session, *, match_id: str, game: str, players: int,
                 options: dict[str, Any], host_token: str, seed: int | None = None,
                 table_options: dict[str, Any] | None = None,
                 prev_match_id: str | None = None, opened_by: str | None = None) -> None:
    """A new room's match. ``opened_by``: the client key that opened it, kept as its
    hash for the cap on open rooms per client (:func:`rooms_opened_by`)."""
    stamp = now()
    session.add(MatchRow(
        id=match_id, game=game, players=players, options=options, status="waiting",
        host_token_hash=token_hash(host_token), created_at=stamp, seed=seed, version=0,
        last_active=stamp, table_options=table_options, prev_match_id=prev_match_id,
        opened_by=token_hash(opened_by) if opened_by is not None else None,
    ))


def add_seat(session: Session, *, match_id: str, seat: int, name: str, token: str,
             is_bot: bool = False, version: int | None = None,
             level: str = "strong", player_key: str | None = None,
             owner: str | None = None) -> None:
    """A seat taken; ``player_key`` (:func:`token_hash` of the player token) tells who
    took it across matches (None for a bot). ``owner``: see :func:`fence` (so for
    every write of a room's below)."""
    fence(session, match_id=match_id, owner=owner)
    session.add(SeatRow(match_id=match_id, seat=seat, name=name, is_bot=is_bot,
                        level=level, token_hash=token_hash(token), joined_at=now(),
                        player_key=player_key))
    if version is not None:
        row = session.get_one(MatchRow, match_id)
        row.version = version
        row.last_active = now()


def replace_seat(session: Session, *, match_id: str, seat: int, name: str,
                 token: str, player_key: str | None = None, owner: str | None = None) -> None:
    """Somebody new takes over a seat in a running match: a new name, token and player
    (the old token stops working; the match counts for whoever finishes it)."""
    fence(session, match_id=match_id, owner=owner)
    session.execute(update(SeatRow).where(SeatRow.match_id == match_id, SeatRow.seat == seat)
                    .values(name=name, token_hash=token_hash(token), is_bot=False,
                            joined_at=now(), player_key=player_key))


def release_seat(session: Session, *, match_id: str, seat: int, dead_hash: str,
                 owner: str | None = None) -> None:
    """The host released a seat: its token stops working (``dead_hash`` matches no
    token anybody has) until somebody takes the seat over."""
    fence(session, match_id=match_id, owner=owner)
    session.execute(update(SeatRow).where(SeatRow.match_id == match_id, SeatRow.seat == seat)
                    .values(token_hash=dead_hash))


def remove_seat(session: Session, *, match_id: str, seat: int, version: int,
                owner: str | None = None) -> None:
    """A seat is free again before the start (the host removed a bot)."""
    fence(session, match_id=match_id, owner=owner)
    session.execute(delete(SeatRow).where(SeatRow.match_id == match_id, SeatRow.seat == seat))
    session.execute(update(MatchRow).where(MatchRow.id == match_id)
                    .values(version=version, last_active=now()))


def swap_seats(session: Session, *, match_id: str, a: int, b: int, version: int,
               owner: str | None = None) -> None:
    """The people (or free places) at seats ``a`` and ``b`` change places before the
    start (through a free number, so the unique (match, seat) pair always holds)."""
    fence(session, match_id=match_id, owner=owner)
    rows = {r.seat: r for r in session.scalars(
        select(SeatRow).where(SeatRow.match_id == match_id,
                              or_(SeatRow.seat == a, SeatRow.seat == b)))}
    parked = -1 - a - b
    for seat, to in ((a, parked), (b, a)):
        if seat in rows:
            rows[seat].seat = to
            session.flush()
    if a in rows:
        rows[a].seat = b
    session.execute(update(MatchRow).where(MatchRow.id == match_id)
                    .values(version=version, last_active=now()))


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
                chips_total: int | None = None, settlement: bool = False,
                decisions: tuple[SeatDecisions, ...] = ()) -> None:
    """Store a finished deal, with the people's ``decisions`` in it (one row per
    seat); with ``transfers`` also its ledger rows, in the same
    transaction, after checking that the ledger balances equal ``chips_after``.
    Chips (``settlement`` False): players plus pot still hold ``chips_total`` and no
    balance is below zero. A settlement in cents (``settlement``): the deal's
    transfers add up to zero (whoever gets a cent, somebody paid it; there is no pot,
    ``pot_after`` and ``chips_total`` are not used) and balances may be negative.
    Raises LedgerMismatch otherwise."""
    session.add(DealResultRow(match_id=match_id, deal_no=deal_no, result=result,
                              scores_after=scores_after, finished_at=now()))
    for d in decisions:
        session.add(DecisionsRow(match_id=match_id, deal_no=deal_no, seat=d.seat,
                                 points=d.points, complete=d.complete))
    if transfers is None:
        return
    assert chips_after is not None
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
    if settlement:
        paid = sum(int(t["amount"]) for t in transfers)
        if paid:
            raise LedgerMismatch(f"deal {deal_no}'s settlement adds up to {paid}, not 0")
        return
    assert pot_after is not None and chips_total is not None
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
    _seat_results(session, match_id, final_scores, winners)


def _seat_results(session: Session, match_id: str, final_scores: list[int],
                  winners: list[int]) -> None:
    """Each seat's final score and whether it won, on its own row (the standings)."""
    session.execute(_UPDATE_SEAT_RESULT, [
        {"result_match_id": match_id, "result_seat": seat, "final_score": score,
         "won": seat in winners} for seat, score in enumerate(final_scores)])


def finished_matches(session: Session, *, game: str | None = None,
                     limit: int = 100) -> list[MatchInfo]:
    query = (
        select(MatchRow)
        .where(MatchRow.status == "finished")
        .options(joinedload(MatchRow.seats))  # selectinload's IN leaves cycles (app/cycles.py)
        .order_by(MatchRow.finished_at.desc())
        .limit(limit)
    )
    if game is not None:
        query = query.where(MatchRow.game == game)
    return [_info(row, with_deals=False) for row in session.scalars(query).unique()]


def get_match(session: Session, *, match_id: str) -> MatchInfo | None:
    row = session.get(
        MatchRow, match_id,
        options=[joinedload(MatchRow.seats), joinedload(MatchRow.deals)],
    )
    return _info(row, with_deals=True) if row is not None else None


@dataclass(frozen=True)
class SeatDecisions:
    """A person's decisions in one deal, as they go to the database: each
    ``{"seq", "holder", "view", "legal", "chosen"}`` (see ``DecisionsRow``);
    ``complete`` False when the deal's first decisions were lost to a restart."""

    seat: int
    points: list[dict[str, Any]]
    complete: bool = True


@dataclass(frozen=True)
class DealRecord:
    """A finished deal as it goes to the database (with its chips or cents, if any;
    ``settlement``: cents among the seats, see :func:`record_deal`)."""

    deal_no: int
    result: dict[str, Any]
    scores_after: list[int]
    transfers: list[dict[str, Any]] | None = None
    chips_after: list[int] | None = None
    pot_after: int | None = None
    chips_total: int | None = None
    settlement: bool = False
    decisions: tuple[SeatDecisions, ...] = ()


class Fenced(Exception):
    """A write of a room found the room not held by the process that wrote (see
    :func:`fence`): it was refused, and nothing of its transaction is kept."""


class StepFenced(Fenced):
    """A step's match UPDATE found no row to change: the step was refused (see
    :func:`record_step`'s ``owner``), and nothing of its transaction is kept."""


def fence(session: Session, *, match_id: str, owner: str | None) -> None:
    """With ROOM_LEASES every write of a room that is not a step (seats, chat, table
    options, ``room_state``, a rematch, the idle close; a step is fenced by its own
    UPDATE, :func:`record_step`) carries ``owner``, the id of the process that serves
    the room (``app.rooms.leases``), and calls this first, in its transaction: the
    match's row is locked for the transaction (``FOR SHARE``: a take of its lease by
    another process waits for the commit), and unless ``owner`` holds the room it
    raises :class:`Fenced`, so the caller's transaction rolls back having written
    nothing. ``owner`` None (without leases): nothing is asked."""
    if owner is None:
        return
    held = session.execute(_FENCE, {"match_id": match_id, "lease_owner": owner}).first()
    if held is None:
        raise Fenced(f"room {match_id} is not this process's (its lease)")


def _fenced_update(session: Session, match_id: str, owner: str | None,
                   **values: Any) -> None:
    """An UPDATE of the match's row, fenced as :func:`fence` (in the UPDATE itself:
    no statement more)."""
    query = update(_MATCHES).where(_MATCHES.c.id == match_id)
    if owner is None:
        session.execute(query.values(**values))
        return
    changed = session.execute(query.where(_MATCHES.c.owner == owner).values(**values))
    if getattr(changed, "rowcount", 0) != 1:
        raise Fenced(f"room {match_id} is not this process's (its lease)")


def record_step(session: Session, *, match_id: str, seq: int, seat: int | None, action: str,
                events: list[dict[str, Any]], snapshot: dict[str, Any] | str,
                deals: list[DealRecord], started: bool = False,
                start_chips: list[int] | None = None,
                finished: tuple[list[int], list[int]] | None = None,
                owner: str | None = None) -> None:
    """Everything one accepted action changes, in one transaction: the action and
    its public events in the log, finished deals (and their ledger rows, checked),
    the start or the end of the match, and the snapshot to resume from.

    This runs for every action, so the common case is two SQLAlchemy Core statements
    built once (an INSERT and an UPDATE), run on the session's connection with their
    parameters: no ORM unit of work, no statement built or cache key computed per
    call, and the stored snapshot is never loaded back. Several rooms' steps may
    share one transaction (``Database.write``), and then their statements are run
    together (:func:`record_steps`).

    ``owner`` (with ROOM_LEASES: this process's id, ``app.rooms.leases``): the match's
    UPDATE is fenced, it changes the row only while ``owner`` holds the room's lease
    and the stored version is the step's ``seq - 1``; otherwise it raises
    :class:`StepFenced` and the caller's transaction (the log row with it) is rolled
    back. Another process took the room over; this one must not write it again."""
    _write_steps(session, [_step_rows(
        session, match_id=match_id, seq=seq, seat=seat, action=action, events=events,
        snapshot=snapshot, deals=deals, started=started, start_chips=start_chips,
        finished=finished, owner=owner)])


def record_steps(session: Session, steps: list[dict[str, Any]]) -> list[None]:
    """:func:`record_step` for several steps (each its keyword arguments), in order, in
    the caller's transaction: what each does beyond the two hot statements first,
    then one INSERT of all their log rows and the UPDATEs of their matches, each
    statement run once with every step's parameters (SQLAlchemy's executemany: on
    SQLite one loop in the driver, on PostgreSQL one pipeline)."""
    _write_steps(session, [_step_rows(session, **step) for step in steps])
    return [None] * len(steps)


def _step_rows(session: Session, *, match_id: str, seq: int, seat: int | None, action: str,
               events: list[dict[str, Any]], snapshot: dict[str, Any] | str,
               deals: list[DealRecord], started: bool = False,
               start_chips: list[int] | None = None,
               finished: tuple[list[int], list[int]] | None = None,
               owner: str | None = None,
               ) -> tuple[dict[str, Any], dict[str, Any]]:
    """One step's start chips and deals written (the ORM, rare), and the parameters of
    its two hot statements: the log row, the match's new values."""
    stamp = now()
    if start_chips is not None:
        record_start_chips(session, match_id=match_id, chips=start_chips)
    for deal in deals:
        record_deal(session, match_id=match_id, deal_no=deal.deal_no, result=deal.result,
                    scores_after=deal.scores_after, transfers=deal.transfers,
                    chips_after=deal.chips_after, pot_after=deal.pot_after,
                    chips_total=deal.chips_total, settlement=deal.settlement,
                    decisions=deal.decisions)
    values: dict[str, Any] = {"step_match_id": match_id, "snapshot": snapshot,
                              "version": seq, "last_active": stamp}
    if owner is not None:  # fenced (record_step)
        values.update(step_owner=owner, step_prev_version=seq - 1)
    if started:
        values.update(status="playing", started_at=stamp)
    if finished is not None:
        values.update(status="finished", finished_at=stamp, final_scores=finished[0],
                      winners=finished[1])
        _seat_results(session, match_id, *finished)
    return ({"match_id": match_id, "seq": seq, "seat": seat, "action": action,
             "events": events, "created_at": stamp}, values)


def _write_steps(session: Session, steps: list[tuple[dict[str, Any], dict[str, Any]]]) -> None:
    """The hot statements of ``steps``: every log row, then the matches' UPDATEs in
    order, one executemany per run of steps that set the same columns (a start or an
    end of a match sets more). None needs an answer: on PostgreSQL they all go out
    in one pipeline, one round trip.

    Fenced UPDATEs (``owner``, :func:`record_step`) need one: how many rows they
    changed. psycopg reports no row counts inside a pipeline, so they run first, each
    run as one executemany (psycopg sends its statements together: one more round
    trip), whose row count is the sum of its statements' (the dialect's
    ``supports_sane_multi_rowcount``, on SQLite too). A run that changed fewer rows
    than it has steps raises :class:`StepFenced` before any log row is sent (a step
    of a room taken over would otherwise meet the new owner's row of the same
    ``seq``); in a group the steps are then written again one by one
    (``app.db.session``), so the step refused is the one whose own UPDATE found no
    row."""
    conn = session.connection()
    runs = [list(same) for _, same in groupby((values for _, values in steps), key=tuple)]
    for run in runs:
        if "step_owner" in run[0]:
            changed = conn.execute(_UPDATE_FENCED, run if len(run) > 1 else run[0]).rowcount
            if changed != len(run):
                raise StepFenced(f"{len(run) - changed} of {len(run)} steps refused: "
                                 "the room is not this process's (its lease or version)")
    with pipeline(session):
        rows = [row for row, _ in steps]
        conn.execute(_INSERT_ACTION, rows if len(rows) > 1 else rows[0])
        for run in runs:
            if "step_owner" not in run[0]:
                conn.execute(_UPDATE_MATCH, run if len(run) > 1 else run[0])


# the hot statements of record_step, built once; an UPDATE without .values() sets the
# columns named by its parameters (SQLAlchemy caches one compiled form per key set).
# The INSERT is inline: nothing reads the new row's key, so PostgreSQL is not asked to
# return it, and the step's statements can go out together (app.db.session.pipeline)
_ACTIONS = ActionRow.metadata.tables[ActionRow.__tablename__]
_MATCHES = MatchRow.metadata.tables[MatchRow.__tablename__]
_INSERT_ACTION = insert(_ACTIONS).inline()
_UPDATE_MATCH = update(_MATCHES).where(_MATCHES.c.id == bindparam("step_match_id"))
_UPDATE_FENCED = _UPDATE_MATCH.where(_MATCHES.c.owner == bindparam("step_owner"),
                                     _MATCHES.c.version == bindparam("step_prev_version"))
_FENCE = (select(_MATCHES.c.id)
          .where(_MATCHES.c.id == bindparam("match_id"),
                 _MATCHES.c.owner == bindparam("lease_owner"))
          .with_for_update(read=True))
_SEATS = SeatRow.metadata.tables[SeatRow.__tablename__]
_UPDATE_SEAT_RESULT = update(_SEATS).where(_SEATS.c.match_id == bindparam("result_match_id"),
                                           _SEATS.c.seat == bindparam("result_seat"))
batched(record_step, record_steps)


@dataclass(frozen=True)
class SeatState:
    seat: int
    name: str
    is_bot: bool
    token_hash: str
    level: str = "strong"  # a bot seat's level


@dataclass(frozen=True)
class OpenMatch:
    """A room to bring back after a restart."""

    id: str
    game: str
    players: int
    options: dict[str, Any]
    seed: int | None
    status: str
    host_token_hash: str
    version: int
    snapshot: dict[str, Any] | None
    seats: list[SeatState]
    table_options: dict[str, Any] | None = None
    room_state: dict[str, Any] | None = None
    # (deal_no, scores after it) of every finished deal: the table's score chart
    deal_scores: list[tuple[int, list[int]]] = field(default_factory=list)
    prev_match_id: str | None = None


OPEN = ("waiting", "playing")  # the statuses of a room that is brought back


def open_matches(session: Session, *, match_id: str | None = None) -> list[OpenMatch]:
    """Every room to bring back (``match_id``: that one only, if it is open)."""
    query = (select(MatchRow).where(MatchRow.status.in_(OPEN))
             .options(selectinload(MatchRow.seats), selectinload(MatchRow.deals)))
    if match_id is not None:
        query = query.where(MatchRow.id == match_id)
    rows = session.scalars(query)
    return [
        OpenMatch(id=r.id, game=r.game, players=r.players, options=dict(r.options),
                  seed=r.seed, status=r.status, host_token_hash=r.host_token_hash,
                  version=r.version, snapshot=r.snapshot,
                  seats=[SeatState(s.seat, s.name, s.is_bot, s.token_hash, s.level)
                         for s in r.seats],
                  table_options=r.table_options, room_state=r.room_state,
                  deal_scores=[(d.deal_no, list(d.scores_after)) for d in r.deals],
                  prev_match_id=r.prev_match_id)
        for r in rows
    ]


def save_room_state(session: Session, *, match_id: str, state: dict[str, Any],
                    owner: str | None = None) -> None:
    """What the room layer must bring back after a restart besides the match (the
    turn clock's deadline, seats a bot plays for, ...). Not part of the action log."""
    _fenced_update(session, match_id, owner, room_state=state)


def close_match(session: Session, *, match_id: str, owner: str | None = None) -> None:
    """An unfinished match whose room was left idle: it will not be resumed."""
    fence(session, match_id=match_id, owner=owner)
    row = session.get(MatchRow, match_id)
    if row is not None and row.status in ("waiting", "playing"):
        row.status = "closed"


def match_status(session: Session, *, match_id: str) -> str | None:
    row = session.get(MatchRow, match_id)
    return row.status if row is not None else None


@dataclass(frozen=True)
class LoggedAction:
    seq: int
    seat: int | None
    action: str
    events: list[dict[str, Any]]


def action_log(session: Session, *, match_id: str) -> list[LoggedAction]:
    rows = session.scalars(
        select(ActionRow).where(ActionRow.match_id == match_id).order_by(ActionRow.seq))
    return [LoggedAction(r.seq, r.seat, r.action, r.events) for r in rows]


@dataclass
class Standing:
    name: str
    is_bot: bool = False
    played: int = 0
    won: int = 0
    points: int = 0
    chips_net: int = 0
    is_you: bool = False  # the player of the browser that asks

    @property
    def average(self) -> float:
        return self.points / self.played if self.played else 0.0


def _standings_query() -> Select[Any]:
    """The standings of one game (``game``), the asking browser's row marked
    (``player_key``): built once, since a statement with an alias and a subquery
    leaves about 350 objects in reference cycles each time it is built (app/cycles.py)."""
    who = case((SeatRow.player_key.is_(None), literal("name:") + SeatRow.name),
               else_=literal("key:") + SeatRow.player_key)
    start = aliased(LedgerRow)
    seats = (
        select(SeatRow.is_bot.label("is_bot"), who.label("who"), SeatRow.name.label("name"),
               func.coalesce(SeatRow.final_score, 0).label("score"),
               case((SeatRow.won.is_(True), 1), else_=0).label("won"),
               (SeatRow.final_score - start.amount).label("net"),
               case((SeatRow.player_key == bindparam("player_key"), 1), else_=0).label("you"),
               func.row_number().over(
                   partition_by=(SeatRow.is_bot, who),
                   order_by=(MatchRow.finished_at.desc(), MatchRow.id.desc()),
               ).label("latest"))
        .join(MatchRow, MatchRow.id == SeatRow.match_id)
        .outerjoin(start, and_(start.match_id == SeatRow.match_id,
                               start.seat == SeatRow.seat, start.deal_no == 0,
                               start.reason == "start"))
        .where(MatchRow.status == "finished", MatchRow.game == bindparam("game"))
        .subquery())
    return (select(seats.c.is_bot,
                   func.max(case((seats.c.latest == 1, seats.c.name))),
                   func.count(), func.sum(seats.c.won), func.sum(seats.c.score),
                   func.coalesce(func.sum(seats.c.net), 0), func.max(seats.c.you))
            .group_by(seats.c.is_bot, seats.c.who))


_STANDINGS = _standings_query()


def standings(session: Session, *, game: str, player_key: str | None = None
              ) -> list[Standing]:
    """Per person: matches played and won, average final score, and for chips games
    the net chips won or lost (the final balance less the starting chips of the
    ledger). A person is a player key (a browser, an API client's player token), shown
    by the name of their latest match; the same name from two browsers is two people.
    Seats without a key (bots, and people from before players were told apart) count
    by name. Bots are kept apart from people (``is_bot``; a person called like a bot
    is still a person); people come first. ``player_key``: the asking browser's own
    row is marked ``is_you``. One grouped query, whatever the number of matches."""
    rows = session.execute(_STANDINGS, {"game": game, "player_key": player_key or ""})
    table = [Standing(name, bool(is_bot), int(played), int(won), int(points), int(net),
                      bool(you))
             for is_bot, name, played, won, points, net, you in rows]
    return sorted(table, key=lambda s: (s.is_bot, -s.won, -s.average, s.name.casefold()))


def merge_players(session: Session, *, from_key: str, into_key: str) -> int:
    """Count the seats of player ``from_key`` as ``into_key``'s (one person, two
    browsers); returns how many seats moved."""
    result = session.execute(update(SeatRow).where(SeatRow.player_key == from_key)
                             .values(player_key=into_key))
    return int(getattr(result, "rowcount", 0) or 0)


# ----- limits and recovery (app/rooms/quotas.py, app/rooms/recovery.py) -------------
def delete_unstarted(session: Session, *, match_id: str, owner: str | None = None) -> bool:
    """Remove a room whose match never started, with its seats (rows deleted, not
    closed). A room that started meanwhile is left alone."""
    fence(session, match_id=match_id, owner=owner)
    result = session.execute(delete(MatchRow).where(
        MatchRow.id == match_id, MatchRow.status == "waiting"))
    return bool(getattr(result, "rowcount", 0))


def delete_stale_unstarted(session: Session, *, idle_before: datetime) -> int:
    """Remove every never-started room that nobody used since ``idle_before`` and
    that no server process serves now (a live lease: ``app.rooms.leases``)."""
    result = session.execute(delete(MatchRow).where(
        MatchRow.status == "waiting", MatchRow.last_active < idle_before,
        or_(MatchRow.lease_until.is_(None), MatchRow.lease_until < func.now())))
    return int(getattr(result, "rowcount", 0) or 0)


def open_match(session: Session, *, match_id: str) -> OpenMatch | None:
    """One room as last saved (to resume it after the database was away)."""
    row = session.get(MatchRow, match_id, options=[joinedload(MatchRow.seats)])
    if row is None:
        return None
    return OpenMatch(id=row.id, game=row.game, players=row.players,
                     options=dict(row.options), seed=row.seed, status=row.status,
                     host_token_hash=row.host_token_hash, version=row.version,
                     snapshot=row.snapshot,
                     seats=[SeatState(s.seat, s.name, s.is_bot, s.token_hash, s.level)
                            for s in row.seats],
                     table_options=row.table_options, room_state=row.room_state)


# ----- room leases (app/rooms/leases.py): times by the database's clock ---------------
_LEASE = bindparam("lease", type_=Interval)
_TAKE_LEASE = (
    update(_MATCHES)
    .where(_MATCHES.c.id == bindparam("match_id"), _MATCHES.c.status.in_(OPEN),
           or_(_MATCHES.c.owner.is_(None), _MATCHES.c.owner == bindparam("lease_owner"),
               _MATCHES.c.lease_until < func.now()))
    .values(owner=bindparam("lease_owner"), lease_until=func.now() + _LEASE))
_RENEW_LEASES = (
    update(_MATCHES)
    .where(_MATCHES.c.owner == bindparam("lease_owner"),
           _MATCHES.c.id == any_(bindparam("match_ids", type_=ARRAY(String))))
    .values(lease_until=func.now() + _LEASE)
    .returning(_MATCHES.c.id))
_OPENED_BY = (
    select(func.count()).select_from(_MATCHES)
    .where(_MATCHES.c.opened_by == bindparam("opened_by"),
           _MATCHES.c.status.in_((*OPEN, "finished")), _MATCHES.c.next_match_id.is_(None),
           _MATCHES.c.owner.is_not(None), _MATCHES.c.lease_until >= func.now()))
# a room another process serves: open, or finished without a rematch in a live
# process's memory (its final table and its "play again" are only there)
_SERVED_ELSEWHERE = select(_MATCHES.c.id).where(
    _MATCHES.c.id == bindparam("match_id"),
    or_(_MATCHES.c.status.in_(OPEN),
        and_(_MATCHES.c.status == "finished", _MATCHES.c.next_match_id.is_(None),
             _MATCHES.c.owner != bindparam("lease_owner"),
             _MATCHES.c.lease_until >= func.now())))


def rooms_opened_by(session: Session, *, client: str) -> int:
    """How many rooms ``client`` (a client key) opened that are open, over every
    server process (with room leases): in a live process's memory (a lease that has
    not run out), not closed, and without a rematch (which takes its place, for the
    same client). A room that nobody serves now (its process died) does not count
    until it is loaded again, as a room that left memory does not."""
    return int(session.execute(_OPENED_BY, {"opened_by": token_hash(client)}).scalar_one())


def take_lease(session: Session, *, match_id: str, owner: str,
               seconds: float) -> bool | None:
    """Make ``owner`` the server process of an open room for ``seconds`` if nobody
    else holds it (free, already ``owner``'s, or its lease ran out), in one UPDATE:
    True. False: another process's lease is live (of an open room, or of a finished
    one without a rematch, which stays with that process: only an open room is
    taken). None: no open room has that id, nor one served elsewhere."""
    taken = session.execute(_TAKE_LEASE, {"match_id": match_id, "lease_owner": owner,
                                          "lease": timedelta(seconds=seconds)})
    if getattr(taken, "rowcount", 0) == 1:
        return True
    elsewhere = session.execute(_SERVED_ELSEWHERE, {"match_id": match_id,
                                                    "lease_owner": owner}).first()
    return False if elsewhere else None


RENEW_LOCK_WAIT = "500ms"


def renew_leases(session: Session, *, owner: str, match_ids: list[str],
                 seconds: float) -> set[str]:
    """Renew ``owner``'s leases of ``match_ids`` for ``seconds``, in one UPDATE: the
    rooms it still holds (one missing was taken over by another process). It waits at
    most :data:`RENEW_LOCK_WAIT` for the rows' locks: it runs on the database thread,
    and while the database makes it wait (a lock held elsewhere) the steps queued
    behind it would not be seen waiting (``app.rooms.recovery``); it is tried again
    at the next beat."""
    session.execute(text(f"SET LOCAL lock_timeout = '{RENEW_LOCK_WAIT}'"))
    rows = session.execute(_RENEW_LEASES, {"lease_owner": owner, "match_ids": match_ids,
                                           "lease": timedelta(seconds=seconds)})
    return set(rows.scalars())


def release_leases(session: Session, *, owner: str, match_id: str | None = None) -> None:
    """``owner`` gives up the room ``match_id`` (None: every room it holds): another
    process may take it at once."""
    query = update(MatchRow).where(MatchRow.owner == owner)
    if match_id is not None:
        query = query.where(MatchRow.id == match_id)
    session.execute(query.values(owner=None, lease_until=None))


def schema_revision(session: Session) -> str | None:
    """The Alembic revision the database is at (None before the first migration)."""
    if not inspect(session.connection()).has_table("alembic_version"):
        return None
    return session.execute(text("SELECT version_num FROM alembic_version")).scalar()


# ----- chat -------------------------------------------------------------------------

@dataclass(frozen=True)
class ChatMessage:
    id: int
    match_id: str
    seat: int | None  # None: a spectator
    name: str
    kind: str  # "text" | "reaction"
    text: str
    at: datetime


def _chat(row: ChatRow) -> ChatMessage:
    at = row.at if row.at.tzinfo is not None else row.at.replace(tzinfo=UTC)
    return ChatMessage(row.id, row.match_id, row.seat, row.name, row.kind, row.text, at)


def add_chat(session: Session, *, match_id: str, seat: int | None, name: str, kind: str,
             text: str, owner: str | None = None) -> ChatMessage:
    fence(session, match_id=match_id, owner=owner)
    row = ChatRow(match_id=match_id, seat=seat, name=name, kind=kind, text=text, at=now())
    session.add(row)
    session.flush()
    return _chat(row)


MATCH_CHAIN_MAX = 20  # how many earlier matches of a rematch chain the chat reaches back


def recent_chat(session: Session, *, match_id: str, limit: int = 100) -> list[ChatMessage]:
    """The last ``limit`` messages of a table, oldest first. A rematch continues the
    conversation of the matches before it (``prev_match_id``)."""
    chain = [match_id]
    row = session.get(MatchRow, match_id)
    while row is not None and row.prev_match_id and len(chain) < MATCH_CHAIN_MAX:
        if row.prev_match_id in chain:
            break
        chain.append(row.prev_match_id)
        row = session.get(MatchRow, row.prev_match_id)
    # or, not in_: an expanding IN leaves 10 objects in reference cycles a query
    # (app/cycles.py), and this one runs for every table socket that connects
    rows = session.scalars(select(ChatRow).where(or_(*(ChatRow.match_id == m for m in chain)))
                           .order_by(ChatRow.id.desc()).limit(limit))
    return [_chat(r) for r in reversed(list(rows))]


def save_table_options(session: Session, *, match_id: str,
                       table_options: dict[str, Any], owner: str | None = None) -> None:
    _fenced_update(session, match_id, owner, table_options=table_options)


# ----- rematch ----------------------------------------------------------------------

def create_rematch(session: Session, *, old_id: str, new_id: str, options: dict[str, Any],
                   table_options: dict[str, Any], seed: int | None,
                   seats: list[SeatState], owner: str | None = None) -> None:
    """The next match of a finished one, in one transaction: the same game, players,
    host token hash and seats (names, bots and seat token hashes, so every token of the
    old table is valid at the same seat of the new one), linked both ways. ``owner``:
    the old room's write is fenced (:func:`fence`)."""
    fence(session, match_id=old_id, owner=owner)
    old = session.get_one(MatchRow, old_id)
    stamp = now()
    session.add(MatchRow(
        id=new_id, game=old.game, players=old.players, options=options, status="waiting",
        host_token_hash=old.host_token_hash, created_at=stamp, seed=seed, version=0,
        last_active=stamp, table_options=table_options, prev_match_id=old_id,
        opened_by=old.opened_by,  # in place of the old one, for the same client
    ))
    session.flush()
    # the same people: each seat's player as at the old table (the token hash is too)
    players = {r.token_hash: r.player_key for r in old.seats}
    for s in seats:
        session.add(SeatRow(match_id=new_id, seat=s.seat, name=s.name, is_bot=s.is_bot,
                            level=s.level, token_hash=s.token_hash, joined_at=stamp,
                            player_key=players.get(s.token_hash)))
    old.next_match_id = new_id


def next_match_id(session: Session, *, match_id: str) -> str | None:
    row = session.get(MatchRow, match_id)
    return row.next_match_id if row is not None else None


# ----- reviews of a person's decisions (app/rooms/reviews.py) ------------------------

@dataclass(frozen=True)
class TokenSeat:
    """Whose a token is at one match (read from the database: the room may have
    left memory). ``seat`` None: no seat's token (``host``: the host's)."""

    game: str
    seat: int | None
    host: bool
    status: str = "playing"  # the match's
    names: dict[int, str] = field(default_factory=dict)  # every seat's name
    # the seats whose person shared their reviews, with the hash of the token that did
    shares: dict[int, str] = field(default_factory=dict)


def token_seat(session: Session, *, match_id: str, holder: str) -> TokenSeat | None:
    """The seat of the token whose hash is ``holder`` at ``match_id``; None if there is
    no such match."""
    row = session.get(MatchRow, match_id, options=[joinedload(MatchRow.seats)])
    if row is None:
        return None
    seat = next((s.seat for s in row.seats if s.token_hash == holder), None)
    return TokenSeat(row.game, seat, row.host_token_hash == holder, row.status,
                     {s.seat: s.name for s in row.seats},
                     review_shares(session, match_id=match_id))


@dataclass(frozen=True)
class DealDecisions:
    """A person's decisions in a finished deal and their review, if worked out."""

    match_id: str
    deal_no: int
    seat: int
    points: list[dict[str, Any]]
    complete: bool
    review: list[dict[str, Any]] | None


def deal_decisions(session: Session, *, match_id: str, deal_no: int,
                   seat: int) -> DealDecisions | None:
    """The decisions of ``seat`` in deal ``deal_no``; None if that deal is not
    finished. A finished deal in which the seat decided nothing (a bot played it
    all) has none, and nothing to review."""
    finished = session.scalar(select(DealResultRow.id).where(
        DealResultRow.match_id == match_id, DealResultRow.deal_no == deal_no))
    if finished is None:
        return None
    row = session.scalar(select(DecisionsRow).where(
        DecisionsRow.match_id == match_id, DecisionsRow.deal_no == deal_no,
        DecisionsRow.seat == seat))
    if row is None:
        return DealDecisions(match_id, deal_no, seat, [], True, [])
    return DealDecisions(match_id, deal_no, seat, list(row.points), row.complete,
                         None if row.review is None else list(row.review))


def seat_deals(session: Session, *, match_id: str, seat: int) -> list[DealDecisions]:
    """:func:`deal_decisions` of every finished deal of the match, in order."""
    finished = session.scalars(select(DealResultRow.deal_no).where(
        DealResultRow.match_id == match_id).order_by(DealResultRow.deal_no)).all()
    rows = {r.deal_no: r for r in session.scalars(select(DecisionsRow).where(
        DecisionsRow.match_id == match_id, DecisionsRow.seat == seat))}
    out = []
    for deal_no in finished:
        row = rows.get(deal_no)
        out.append(DealDecisions(match_id, deal_no, seat, [], True, []) if row is None else
                   DealDecisions(match_id, deal_no, seat, list(row.points), row.complete,
                                 None if row.review is None else list(row.review)))
    return out


def save_review(session: Session, *, match_id: str, deal_no: int, seat: int,
                review: list[dict[str, Any]]) -> None:
    """Keep the review of a seat's decisions in a deal (worked out once: a review
    already kept stays, so a second working-out, started by a request that read the
    row just before the first was kept, changes nothing that was answered)."""
    session.execute(update(DecisionsRow).where(
        DecisionsRow.match_id == match_id, DecisionsRow.deal_no == deal_no,
        DecisionsRow.seat == seat, DecisionsRow.reviewed_at.is_(None)
    ).values(review=review, reviewed_at=now()))


def review_shares(session: Session, *, match_id: str) -> dict[int, str]:
    """The seats whose person shared their reviews of the match, each with the hash of
    the token that shared them."""
    return {r.seat: r.holder for r in session.scalars(select(ShareRow).where(
        ShareRow.match_id == match_id))}


def share_reviews(session: Session, *, match_id: str, seat: int, holder: str | None,
                  owner: str | None = None) -> dict[int, str]:
    """Share the reviews of ``seat``'s person (``holder``: their token's hash) with the
    others at the match, or withdraw them (``holder`` None); the shares afterwards.
    ``owner``: fenced (:func:`fence`) while the room is in a process's memory."""
    fence(session, match_id=match_id, owner=owner)
    session.execute(delete(ShareRow).where(ShareRow.match_id == match_id,
                                           ShareRow.seat == seat))
    if holder is not None:
        session.add(ShareRow(match_id=match_id, seat=seat, holder=holder, shared_at=now()))
        session.flush()
    return review_shares(session, match_id=match_id)

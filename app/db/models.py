"""SQLAlchemy 2 models: matches, their seats, per-deal results and final scores."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    DateTime,
    ForeignKey,
    Integer,
    String,
    UniqueConstraint,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship


class Base(DeclarativeBase):
    pass


class MatchRow(Base):
    """One room's match, from creation to the final score."""

    __tablename__ = "matches"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)  # the room id
    game: Mapped[str] = mapped_column(String(32), index=True)
    players: Mapped[int] = mapped_column(Integer)
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    status: Mapped[str] = mapped_column(String(16), index=True)  # waiting|playing|finished
    host_token_hash: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    started_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), index=True)
    final_scores: Mapped[list[int] | None] = mapped_column(JSON)
    winners: Mapped[list[int] | None] = mapped_column(JSON)
    # what it takes to resume: the engine's latest snapshot (hidden parts included:
    # it never leaves the server), the room version, the seed of a seeded room
    snapshot: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    version: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    seed: Mapped[int | None] = mapped_column(BigInteger)
    last_active: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    # the table's own options and what the room layer keeps besides the match
    table_options: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    room_state: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    # a rematch links the two matches
    prev_match_id: Mapped[str | None] = mapped_column(String(32))
    next_match_id: Mapped[str | None] = mapped_column(String(32))
    # with ROOM_LEASES (app.rooms.leases): the server process that serves the room
    # (its id, made at its start) and until when, by the database's clock
    owner: Mapped[str | None] = mapped_column(String(36))
    lease_until: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    # with ROOM_LEASES: the SHA-256 of the client key that opened the room (the cap on
    # open rooms per client, counted over every process: repo.rooms_opened_by)
    opened_by: Mapped[str | None] = mapped_column(String(64), index=True)

    seats: Mapped[list[SeatRow]] = relationship(
        back_populates="match", order_by="SeatRow.seat", cascade="all, delete-orphan"
    )
    deals: Mapped[list[DealResultRow]] = relationship(
        back_populates="match", order_by="DealResultRow.deal_no", cascade="all, delete-orphan"
    )
    actions: Mapped[list[ActionRow]] = relationship(
        back_populates="match", order_by="ActionRow.seq", cascade="all, delete-orphan"
    )


class SeatRow(Base):
    """A player at a seat. Only a hash of the seat token is stored."""

    __tablename__ = "seats"
    __table_args__ = (UniqueConstraint("match_id", "seat"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"))
    seat: Mapped[int] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(64))
    is_bot: Mapped[bool] = mapped_column(default=False)
    # a bot seat's level ("easy", "strong"; app.bots.LEVELS)
    level: Mapped[str] = mapped_column(String(8), default="strong", server_default="strong")
    token_hash: Mapped[str] = mapped_column(String(64))
    joined_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    # who sat here across matches: the hash of the player token of the browser (its
    # long-lived cookie) or API client; None for bots and seats from before players
    # were told apart (the standings count those by name). Never shown to anybody
    player_key: Mapped[str | None] = mapped_column(String(64), index=True)
    # the seat's final score and whether it won, once the match is finished
    final_score: Mapped[int | None] = mapped_column(Integer)
    won: Mapped[bool | None] = mapped_column()

    match: Mapped[MatchRow] = relationship(back_populates="seats")


class DealResultRow(Base):
    """The public result of one finished deal (what the table showed)."""

    __tablename__ = "deal_results"
    __table_args__ = (UniqueConstraint("match_id", "deal_no"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"))
    deal_no: Mapped[int] = mapped_column(Integer)
    result: Mapped[dict[str, Any]] = mapped_column(JSON)
    scores_after: Mapped[list[int]] = mapped_column(JSON)
    finished_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))

    match: Mapped[MatchRow] = relationship(back_populates="deals")


class LedgerRow(Base):
    """One chip transfer (games that keep a chip ledger). A seat's balance is the
    sum of its rows; the starting chips are rows of deal 0 with reason ``start``."""

    __tablename__ = "chip_ledger"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    match_id: Mapped[str] = mapped_column(
        ForeignKey("matches.id", ondelete="CASCADE"), index=True)
    deal_no: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int] = mapped_column(Integer)
    amount: Mapped[int] = mapped_column(Integer)
    reason: Mapped[str] = mapped_column(String(16))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class ActionRow(Base):
    """The append-only log of a match: every accepted action, in order, with the
    public events it caused (what the whole table saw; never a hidden card)."""

    __tablename__ = "match_actions"
    __table_args__ = (UniqueConstraint("match_id", "seq"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"))
    seq: Mapped[int] = mapped_column(Integer)  # the room version this action made
    seat: Mapped[int | None] = mapped_column(Integer)  # None: the host or the room
    action: Mapped[str] = mapped_column(String(64))
    events: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))

    match: Mapped[MatchRow] = relationship(back_populates="actions")


class ChatRow(Base):
    """A chat message or a quick reaction at a table, kept with the room."""

    __tablename__ = "chat_messages"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"),
                                          index=True)
    seat: Mapped[int | None] = mapped_column(Integer)  # None: a spectator
    name: Mapped[str] = mapped_column(String(64))
    kind: Mapped[str] = mapped_column(String(16))  # "text" | "reaction"
    text: Mapped[str] = mapped_column(String(200))
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class DecisionsRow(Base):
    """A person's own decisions in one finished deal, as they were made: at each, the
    seat's view and legal actions just before it and the action chosen (written with
    the deal's end). Never a bot's seat. ``review``: the search's review of them, once
    a person asked for it (computed once, then kept)."""

    __tablename__ = "deal_decisions"
    __table_args__ = (UniqueConstraint("match_id", "deal_no", "seat"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"))
    deal_no: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int] = mapped_column(Integer)
    # [{"seq", "holder", "view", "legal", "chosen"}, ...] in the order they were made;
    # "holder": the hash of the seat token it was made with (a seat taken over
    # mid-deal has two people's decisions; each sees only their own)
    points: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    # False: the server restarted during the deal, the decisions before are missing
    complete: Mapped[bool] = mapped_column(default=True)
    review: Mapped[list[dict[str, Any]] | None] = mapped_column(JSON)
    reviewed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class ShareRow(Base):
    """A seat's person shared their reviews of a finished match with the others at it
    (issue 28); ``holder``: the hash of the seat token that shared them, whose
    decisions the others may read. Withdrawn: the row is deleted."""

    __tablename__ = "review_shares"

    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"),
                                          primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    holder: Mapped[str] = mapped_column(String(64))
    shared_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))

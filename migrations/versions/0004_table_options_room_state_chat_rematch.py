"""table options, room state, chat, rematch links

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01 06:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("matches", schema=None) as batch_op:
        # the table's own options (clock, away rule, pacing, spectator chat)
        batch_op.add_column(sa.Column("table_options", sa.JSON(), nullable=True))
        # what the room layer must bring back after a restart besides the match
        # (turn clock deadline, seats played by a bot, ...)
        batch_op.add_column(sa.Column("room_state", sa.JSON(), nullable=True))
        # a rematch: the match it continues and the one that continued it
        batch_op.add_column(sa.Column("prev_match_id", sa.String(length=32), nullable=True))
        batch_op.add_column(sa.Column("next_match_id", sa.String(length=32), nullable=True))
    op.create_table(
        "chat_messages",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("match_id", sa.String(length=32), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("text", sa.String(length=200), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["match_id"], ["matches.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_chat_messages_match_id", "chat_messages", ["match_id"])


def downgrade() -> None:
    op.drop_index("ix_chat_messages_match_id", table_name="chat_messages")
    op.drop_table("chat_messages")
    with op.batch_alter_table("matches", schema=None) as batch_op:
        batch_op.drop_column("next_match_id")
        batch_op.drop_column("prev_match_id")
        batch_op.drop_column("room_state")
        batch_op.drop_column("table_options")

"""each person's decisions of a finished deal and their review (issue 28)

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-05 18:05:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # one row per finished deal and person's seat: the seat's view and legal actions
    # before each of its decisions and the action chosen (the deal cannot be replayed:
    # production decks are not seeded), and the review worked out from them on demand
    op.create_table(
        "deal_decisions",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("match_id", sa.String(length=32), nullable=False),
        sa.Column("deal_no", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("points", sa.JSON(), nullable=False),
        sa.Column("complete", sa.Boolean(), nullable=False),
        sa.Column("review", sa.JSON(), nullable=True),
        sa.Column("reviewed_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(["match_id"], ["matches.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("match_id", "deal_no", "seat"),
    )


def downgrade() -> None:
    op.drop_table("deal_decisions")

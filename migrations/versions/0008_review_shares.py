"""a person's reviews of a finished match, shared with the table (issue 28)

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-05 20:20:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # one row per seat whose person shared their reviews with the others at the
    # match: "holder" is the hash of the seat token that shared them (the reviews
    # shown are the decisions made with that token); withdrawn: the row goes
    op.create_table(
        "review_shares",
        sa.Column("match_id", sa.String(length=32), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("holder", sa.String(length=64), nullable=False),
        sa.Column("shared_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["match_id"], ["matches.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("match_id", "seat"),
    )


def downgrade() -> None:
    op.drop_table("review_shares")

"""a bot seat's level

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01 20:30:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("seats", schema=None) as batch_op:
        # "easy" (the house rules) or "strong" (search); bots seated before levels
        # existed play strong, like a bot seated without one now
        batch_op.add_column(sa.Column("level", sa.String(length=8), nullable=False,
                                      server_default="strong"))


def downgrade() -> None:
    with op.batch_alter_table("seats", schema=None) as batch_op:
        batch_op.drop_column("level")

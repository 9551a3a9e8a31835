"""who opened a room, for the cap on open rooms per client across processes (issue 29)

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-05 23:55:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0010"
down_revision: str | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # with ROOM_LEASES (app.rooms.leases) the cap MAX_ROOMS_PER_CLIENT is counted in
    # the database, over every server process: "opened_by" is the SHA-256 of the
    # client key (its address, an IPv6 address by its /56) that opened the room; a
    # rematch keeps its room's. Empty for rooms from before, and without leases
    with op.batch_alter_table("matches") as batch:
        batch.add_column(sa.Column("opened_by", sa.String(length=64), nullable=True))
        batch.create_index("ix_matches_opened_by", ["opened_by"])


def downgrade() -> None:
    with op.batch_alter_table("matches") as batch:
        batch.drop_index("ix_matches_opened_by")
        batch.drop_column("opened_by")

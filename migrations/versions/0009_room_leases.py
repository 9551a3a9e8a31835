"""a room's lease: the server process that serves it and until when (issue 29)

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-05 20:50:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # with ROOM_LEASES (app.rooms.leases): "owner" is the id of the process serving
    # the room, "lease_until" when that ends unless renewed (the database's clock);
    # both empty for a room nobody serves, and always without leases
    with op.batch_alter_table("matches") as batch:
        batch.add_column(sa.Column("owner", sa.String(length=36), nullable=True))
        batch.add_column(sa.Column("lease_until", sa.DateTime(timezone=True),
                                   nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("matches") as batch:
        batch.drop_column("lease_until")
        batch.drop_column("owner")

"""a seat's player (the browser or API client behind it) and its final result

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-04 21:30:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_MATCHES = sa.table("matches", sa.column("id", sa.String), sa.column("status", sa.String),
                    sa.column("final_scores", sa.JSON), sa.column("winners", sa.JSON))
_SEATS = sa.table("seats", sa.column("match_id", sa.String), sa.column("seat", sa.Integer),
                  sa.column("final_score", sa.Integer), sa.column("won", sa.Boolean))


def upgrade() -> None:
    with op.batch_alter_table("seats", schema=None) as batch_op:
        # the hash of the player token of the browser (its long-lived cookie) or API
        # client that took the seat; NULL for bots and for seats taken before players
        # were told apart (the standings count those by name, as before)
        batch_op.add_column(sa.Column("player_key", sa.String(length=64), nullable=True))
        # the seat's final score and whether it won, once its match is finished (the
        # standings add them up in SQL)
        batch_op.add_column(sa.Column("final_score", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("won", sa.Boolean(), nullable=True))
        batch_op.create_index("ix_seats_player_key", ["player_key"])
    # the finished matches' results, copied to their seats
    bind = op.get_bind()
    finished = bind.execute(sa.select(_MATCHES.c.id, _MATCHES.c.final_scores,
                                      _MATCHES.c.winners)
                            .where(_MATCHES.c.status == "finished"))
    rows = [{"m": match_id, "s": seat, "f": int(score), "w": seat in (winners or [])}
            for match_id, scores, winners in finished
            for seat, score in enumerate(scores or [])]
    if rows:
        bind.execute(sa.update(_SEATS)
                     .where(_SEATS.c.match_id == sa.bindparam("m"),
                            _SEATS.c.seat == sa.bindparam("s"))
                     .values(final_score=sa.bindparam("f"), won=sa.bindparam("w")), rows)


def downgrade() -> None:
    with op.batch_alter_table("seats", schema=None) as batch_op:
        batch_op.drop_index("ix_seats_player_key")
        batch_op.drop_column("won")
        batch_op.drop_column("final_score")
        batch_op.drop_column("player_key")

"""memory_units.valid_to: when a superseded unit stopped being true, for "as of" reads

A unit is true in event time from its ``occurred_at`` (its valid_from) until ``valid_to``: the
``occurred_at`` of the unit that superseded it (set by the write path when it supersedes);
NULL while nothing has. Existing units are backfilled from the supersede history
(``superseded_by``); a unit whose successor has since been forgotten keeps NULL (its end is not
known). ``/recall`` and ``GET /memories`` with ``as_of`` read the units with
``occurred_at <= as_of < valid_to`` (docs/LIFECYCLE.md).

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-04
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0011"
down_revision: str | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("memory_units", sa.Column("valid_to", sa.DateTime(timezone=True)))
    op.execute(
        """
        UPDATE memory_units AS old
           SET valid_to = new.occurred_at
          FROM memory_units AS new
         WHERE old.superseded_by = new.id AND old.status = 'superseded'
        """
    )


def downgrade() -> None:
    op.drop_column("memory_units", "valid_to")

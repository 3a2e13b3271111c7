"""memory_units.expiry_fixed: the unit's expiry was given by its writer (``ttl_days`` or
``expires_at`` on ``/store`` or ``PATCH``), so recalls never extend it (tester finding B15:
a recall of anything pushed a ``ttl_days: 1`` unit's expiry to 30 days after the recall).

A constant default: PostgreSQL adds the column without rewriting the table. Existing units get
false (their expiry was not recorded as explicit): they keep the extension they had.

Revision ID: 0017
Revises: 0016
Create Date: 2026-12-06
"""

from collections.abc import Sequence

import sqlalchemy as sa

from alembic import op

revision: str = "0017"
down_revision: str | None = "0016"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column(
        "memory_units",
        sa.Column("expiry_fixed", sa.Boolean(), nullable=False, server_default=sa.false()),
    )


def downgrade() -> None:
    op.drop_column("memory_units", "expiry_fixed")

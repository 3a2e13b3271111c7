"""memory_units.links_decided: whether the unit was decided against the same user's units in
the other write subjects (issue 28, step 3: the ``duplicate`` and ``replaces`` links of
app.services.memory.elsewhere, recorded by the write path since 2026-12-07).

Units stored before that never were: they get ``false`` here and the worker's link backfill
(app.services.memory.link_backfill, ``LIFECYCLE__LINK_BACKFILL_BATCH`` per archival sweep)
decides them and sets ``true``. Units stored from now on are decided by the write path, so the
column's default becomes ``true``. A partial index holds only the units still to decide.

Revision ID: 0021
Revises: 0020
Create Date: 2026-12-07
"""

from collections.abc import Sequence

import sqlalchemy as sa

from alembic import op

revision: str = "0021"
down_revision: str | None = "0020"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # Existing rows: false (PostgreSQL stores the default once, no table rewrite); new rows: true.
    op.add_column(
        "memory_units",
        sa.Column("links_decided", sa.Boolean(), nullable=False, server_default=sa.false()),
    )
    op.alter_column("memory_units", "links_decided", server_default=sa.true())
    op.create_index(
        "ix_memory_units_links_undecided",
        "memory_units",
        ["created_at", "id"],
        postgresql_where=sa.text("NOT links_decided"),
    )


def downgrade() -> None:
    op.drop_index("ix_memory_units_links_undecided", table_name="memory_units")
    op.drop_column("memory_units", "links_decided")

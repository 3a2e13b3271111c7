"""recall: the access log is folded into memory_units by the archival sweep; fillfactor 90

Recall only appends to memory_access_log (``folded = false``); the sweep applies the accesses
to ``last_accessed_at`` and the expiry extension and marks them ``folded``. Rows written
before this revision were already applied by the recall that wrote them, so they start
folded. ``fillfactor = 90`` leaves room on each page for HOT updates of memory_units rows
(new pages only; existing pages keep their packing until rewritten).

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-02
"""

from collections.abc import Sequence

import sqlalchemy as sa

from alembic import op

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # Existing rows: true (already applied); new rows: false.
    op.add_column(
        "memory_access_log",
        sa.Column("folded", sa.Boolean(), server_default=sa.text("true"), nullable=False),
    )
    op.alter_column("memory_access_log", "folded", server_default=sa.text("false"))
    op.create_index(
        "ix_memory_access_log_unfolded",
        "memory_access_log",
        ["id"],
        postgresql_where=sa.text("NOT folded"),
    )
    op.execute("ALTER TABLE memory_units SET (fillfactor = 90)")


def downgrade() -> None:
    op.execute("ALTER TABLE memory_units RESET (fillfactor)")
    op.drop_index("ix_memory_access_log_unfolded", table_name="memory_access_log")
    op.drop_column("memory_access_log", "folded")

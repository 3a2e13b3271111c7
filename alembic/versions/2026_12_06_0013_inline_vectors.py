"""memory_units keeps its rows whole, the two embeddings included (toast_tuple_target 8160)

A unit's row is ~2.2 kB with its value embedding (384 floats, 1.5 kB) and ~3.8 kB with a
scenario embedding too: over PostgreSQL's default TOAST target (~2 kB), so the embeddings went
to the TOAST table, and the candidates statement of a recall, which computes the cosine of
every unit of a small subject, read each embedding back through the TOAST index: about 1.5 µs
a row, 0.6 ms of a LoCoMo subject's 1.7 ms statement. With the target at the page's maximum,
only a row over ~8 kB (a very long value) is still cut; the statement took 1.1 ms, the rows
it returns 0.6 ms less to fetch (docs/BENCHMARKS.md, "Candidates statement").

Only rows written from now on are kept whole; existing ones move when rewritten (an update of
the unit, or ``VACUUM FULL memory_units``, which locks the table while it runs).

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-06
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0013"
down_revision: str | None = "0012"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.execute("ALTER TABLE memory_units SET (toast_tuple_target = 8160)")


def downgrade() -> None:
    op.execute("ALTER TABLE memory_units RESET (toast_tuple_target)")

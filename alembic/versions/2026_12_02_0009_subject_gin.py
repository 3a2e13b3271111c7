"""memory_units: the two GIN indexes lead with the subject (btree_gin)

Keyword and entity lookups of recall always name a subject (``user_id``). With GIN indexes on
``search_tsv`` and ``entity_keys`` alone, PostgreSQL intersects a table-wide posting list with
the subject's btree range (BitmapAnd), so their cost grows with the whole table, not with the
subject: in a table of 1M units (10 subjects of 100k), probing a name that the subject lacks
read 100k rows (134-151 ms), and the keyword bitmap of three common words took 43-56 ms. With
``(user_id, entity_keys)`` and ``(user_id, search_tsv)`` (``btree_gin`` lets GIN index the
plain column) the same probe took 0.2 ms and the bitmap 6.7 ms (docs/benchmarks/history.md,
"100k units (aim 3), back to back"). A multicolumn GIN index also serves conditions on any subset
of its columns, so lookups without a subject still use it.

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-02
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# (index, column) pairs, before and after.
_OLD = (
    ("ix_memory_units_entity_keys", "entity_keys"),
    ("ix_memory_units_search_tsv", "search_tsv"),
)
_NEW = (
    ("ix_memory_units_subject_entity_keys", "entity_keys"),
    ("ix_memory_units_subject_search_tsv", "search_tsv"),
)


def upgrade() -> None:
    # btree_gin is a trusted extension (PostgreSQL 13+): the database owner may create it.
    op.execute("CREATE EXTENSION IF NOT EXISTS btree_gin")
    for name, column in _NEW:
        op.create_index(name, "memory_units", ["user_id", column], postgresql_using="gin")
    for name, _column in _OLD:
        op.drop_index(name, table_name="memory_units")


def downgrade() -> None:
    for name, column in _OLD:
        op.create_index(name, "memory_units", [column], postgresql_using="gin")
    for name, _column in _NEW:
        op.drop_index(name, table_name="memory_units")

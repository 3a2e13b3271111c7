"""unit_entities.occurred_at (the unit's) and an index on (entity, occurred_at): the newest units
naming an entity by reading only those

The second hop of a recall on a large subject (app.repositories.recall.expand) wants the
newest units naming each entity of its best hits. Through ``memory_units.entity_keys`` that
meant reading every unit naming the entity and sorting them (a speaker's name is in about half
of a subject's units: ~7,700 rows at 100k units, the stage's p95 of ~200 ms); through this
index it is a probe that stops after the newest few (docs/BENCHMARKS.md, "Recall at scale").
The index replaces ``ix_unit_entities_entity_id`` (entity_id, unit_id): its first column
serves the same lookups.

Safe on a large table: the column is added (no rewrite), then filled in batches of 50,000
links, each its own transaction; the index is built and the old one dropped ``CONCURRENTLY``;
NOT NULL is proven by a validated check constraint first, so setting it scans nothing under
the exclusive lock. Links written meanwhile by a server of this version carry the column;
any left empty are filled by a last pass before the constraint.

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-06
"""

from collections.abc import Sequence

import sqlalchemy as sa

from alembic import op

revision: str = "0014"
down_revision: str | None = "0013"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

BATCH = 50_000

# The last link of the next batch (None: fewer than a batch left).
_UPTO = sa.text(
    "SELECT unit_id FROM unit_entities WHERE CAST(:after AS uuid) IS NULL OR unit_id > :after"
    " ORDER BY unit_id OFFSET :n - 1 LIMIT 1"
)
_FILL = sa.text(
    """
    UPDATE unit_entities ue SET occurred_at = u.occurred_at
      FROM memory_units u
     WHERE u.id = ue.unit_id AND ue.occurred_at IS NULL
       AND (CAST(:after AS uuid) IS NULL OR ue.unit_id > :after)
       AND (CAST(:upto AS uuid) IS NULL OR ue.unit_id <= :upto)
    """
)
_FILL_REST = sa.text(
    "UPDATE unit_entities ue SET occurred_at = u.occurred_at FROM memory_units u"
    " WHERE u.id = ue.unit_id AND ue.occurred_at IS NULL"
)


def upgrade() -> None:
    op.add_column("unit_entities", sa.Column("occurred_at", sa.DateTime(timezone=True)))
    with op.get_context().autocommit_block():  # each statement its own transaction
        bind = op.get_bind()
        after = None
        while True:
            upto = bind.execute(_UPTO, {"after": after, "n": BATCH}).scalar()
            bind.execute(_FILL, {"after": after, "upto": upto})
            if upto is None:
                break
            after = upto
        bind.execute(_FILL_REST)  # links written meanwhile without the column
        op.execute(
            "CREATE INDEX CONCURRENTLY IF NOT EXISTS ix_unit_entities_entity_recent"
            " ON unit_entities (entity_id, occurred_at, unit_id)"
        )
        op.execute("DROP INDEX CONCURRENTLY IF EXISTS ix_unit_entities_entity_id")
        op.execute(
            "ALTER TABLE unit_entities ADD CONSTRAINT ck_unit_entities_occurred_at"
            " CHECK (occurred_at IS NOT NULL) NOT VALID"
        )
        op.execute("ALTER TABLE unit_entities VALIDATE CONSTRAINT ck_unit_entities_occurred_at")
        op.execute("ALTER TABLE unit_entities ALTER COLUMN occurred_at SET NOT NULL")
        op.execute("ALTER TABLE unit_entities DROP CONSTRAINT ck_unit_entities_occurred_at")


def downgrade() -> None:
    op.create_index("ix_unit_entities_entity_id", "unit_entities", ["entity_id", "unit_id"])
    op.drop_index("ix_unit_entities_entity_recent", table_name="unit_entities")
    op.drop_column("unit_entities", "occurred_at")

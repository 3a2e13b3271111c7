"""unit_entities.occurred_at filled in by PostgreSQL when a writer leaves it out: a server of
the version before 0014 (a replica not yet upgraded in a rolling deploy) inserts links
without it, which 0014's NOT NULL refused (every /store naming an entity answered 500)

A ``BEFORE INSERT`` trigger takes the unit's ``occurred_at`` for a link that has none; links
written by this version carry it and pass through unchanged.

Revision ID: 0015
Revises: 0014
Create Date: 2026-12-06
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0015"
down_revision: str | None = "0014"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.execute(
        """
        CREATE OR REPLACE FUNCTION unit_entities_fill_occurred_at() RETURNS trigger
        LANGUAGE plpgsql AS $$
        BEGIN
            IF NEW.occurred_at IS NULL THEN
                SELECT u.occurred_at INTO NEW.occurred_at
                  FROM memory_units u WHERE u.id = NEW.unit_id;
            END IF;
            RETURN NEW;
        END
        $$
        """
    )
    op.execute(
        "CREATE TRIGGER unit_entities_fill_occurred_at BEFORE INSERT ON unit_entities"
        " FOR EACH ROW WHEN (NEW.occurred_at IS NULL)"
        " EXECUTE FUNCTION unit_entities_fill_occurred_at()"
    )


def downgrade() -> None:
    op.execute("DROP TRIGGER IF EXISTS unit_entities_fill_occurred_at ON unit_entities")
    op.execute("DROP FUNCTION IF EXISTS unit_entities_fill_occurred_at()")

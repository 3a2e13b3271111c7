"""entity graph: entities per subject, unit → entity links, co-occurrence edges; backfill

Every stored unit's ``entities`` become links to entities of its subject (namespace, user,
agent), keyed by ``app.core.entity_names.entity_key`` — the function the write path uses,
so backfilled and new keys agree; co-occurrence edges count the units naming both. Aliases
are not backfilled (units declare them when written; docs/ARCHITECTURE.md).

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-04
"""

from collections.abc import Sequence

import sqlalchemy as sa

from alembic import op
from app.core.entity_names import display_name, entity_key

revision: str = "0010"
down_revision: str | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# Names are normalised in Python (NFKC + case folding are not PostgreSQL's lower()), then
# everything else happens in three statements over the whole table.
_NODES = sa.text(
    """
    WITH names AS (
      SELECT * FROM unnest(CAST(:raw AS text[]), CAST(:keys AS text[]), CAST(:shown AS text[]))
             AS m(raw, key, shown)
    ), mentions AS (
      SELECT DISTINCT u.id AS unit_id, u.namespace, u.user_id, COALESCE(u.agent_id, '') AS agent_id,
             m.key, m.shown, u.occurred_at
        FROM memory_units u CROSS JOIN LATERAL unnest(u.entities) AS x(raw)
        JOIN names m ON m.raw = x.raw
    )
    INSERT INTO entities (namespace, user_id, agent_id, key, name, first_seen, last_seen)
    SELECT namespace, user_id, agent_id, key, (array_agg(shown ORDER BY occurred_at))[1],
           min(occurred_at), max(occurred_at)
      FROM mentions GROUP BY namespace, user_id, agent_id, key
    """
)
_LINKS = sa.text(
    """
    WITH names AS (
      SELECT * FROM unnest(CAST(:raw AS text[]), CAST(:keys AS text[])) AS m(raw, key)
    )
    INSERT INTO unit_entities (unit_id, entity_id)
    SELECT DISTINCT u.id, e.id
      FROM memory_units u CROSS JOIN LATERAL unnest(u.entities) AS x(raw)
      JOIN names m ON m.raw = x.raw
      JOIN entities e ON e.namespace = u.namespace AND e.user_id = u.user_id
                     AND e.agent_id = COALESCE(u.agent_id, '') AND e.key = m.key
    """
)
_EDGES = sa.text(
    """
    INSERT INTO entity_edges (a, b, weight, first_seen, last_seen)
    SELECT x.entity_id, y.entity_id, count(*), min(u.occurred_at), max(u.occurred_at)
      FROM unit_entities x
      JOIN unit_entities y ON y.unit_id = x.unit_id AND x.entity_id < y.entity_id
      JOIN memory_units u ON u.id = x.unit_id
     GROUP BY 1, 2
    """
)


def upgrade() -> None:
    op.create_table(
        "entities",
        sa.Column("id", sa.BigInteger(), sa.Identity(always=True), nullable=False),
        sa.Column("namespace", sa.String(length=128), nullable=False),
        sa.Column("user_id", sa.String(length=256), nullable=False),
        sa.Column("agent_id", sa.String(length=256), nullable=False),
        sa.Column("key", sa.Text(), nullable=False),
        sa.Column("name", sa.Text(), nullable=False),
        sa.Column("alias_of", sa.BigInteger(), nullable=True),
        sa.Column("declared_by", sa.UUID(), nullable=True),
        sa.Column("first_seen", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_seen", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["alias_of"],
            ["entities.id"],
            name=op.f("fk_entities_alias_of_entities"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["declared_by"],
            ["memory_units.id"],
            name=op.f("fk_entities_declared_by_memory_units"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_entities")),
        sa.UniqueConstraint(
            "namespace",
            "user_id",
            "agent_id",
            "key",
            name=op.f("uq_entities_namespace_user_id_agent_id_key"),
        ),
    )
    op.create_index(
        "ix_entities_alias_of",
        "entities",
        ["alias_of"],
        postgresql_where=sa.text("alias_of IS NOT NULL"),
    )
    op.create_index(
        "ix_entities_declared_by",
        "entities",
        ["declared_by"],
        postgresql_where=sa.text("declared_by IS NOT NULL"),
    )
    op.create_table(
        "unit_entities",
        sa.Column("unit_id", sa.UUID(), nullable=False),
        sa.Column("entity_id", sa.BigInteger(), nullable=False),
        sa.ForeignKeyConstraint(
            ["entity_id"],
            ["entities.id"],
            name=op.f("fk_unit_entities_entity_id_entities"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["unit_id"],
            ["memory_units.id"],
            name=op.f("fk_unit_entities_unit_id_memory_units"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("unit_id", "entity_id", name=op.f("pk_unit_entities")),
    )
    op.create_index("ix_unit_entities_entity_id", "unit_entities", ["entity_id", "unit_id"])
    op.create_table(
        "entity_edges",
        sa.Column("a", sa.BigInteger(), nullable=False),
        sa.Column("b", sa.BigInteger(), nullable=False),
        sa.Column("weight", sa.Integer(), nullable=False),
        sa.Column("first_seen", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_seen", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint("a < b", name=op.f("ck_entity_edges_ordered")),
        sa.ForeignKeyConstraint(
            ["a"], ["entities.id"], name=op.f("fk_entity_edges_a_entities"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["b"], ["entities.id"], name=op.f("fk_entity_edges_b_entities"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("a", "b", name=op.f("pk_entity_edges")),
    )
    op.create_index("ix_entity_edges_b", "entity_edges", ["b"])
    _backfill()


def _backfill() -> None:
    bind = op.get_bind()
    raw = [
        r[0] for r in bind.execute(sa.text("SELECT DISTINCT unnest(entities) FROM memory_units"))
    ]
    pairs = [(r, entity_key(r), display_name(r)) for r in raw]
    pairs = [p for p in pairs if p[1]]
    if not pairs:
        return
    names = {
        "raw": [p[0] for p in pairs],
        "keys": [p[1] for p in pairs],
        "shown": [p[2] for p in pairs],
    }
    bind.execute(_NODES, names)
    bind.execute(_LINKS, {"raw": names["raw"], "keys": names["keys"]})
    bind.execute(_EDGES)


def downgrade() -> None:
    op.drop_index("ix_entity_edges_b", table_name="entity_edges")
    op.drop_table("entity_edges")
    op.drop_index("ix_unit_entities_entity_id", table_name="unit_entities")
    op.drop_table("unit_entities")
    op.drop_index("ix_entities_declared_by", table_name="entities")
    op.drop_index("ix_entities_alias_of", table_name="entities")
    op.drop_table("entities")

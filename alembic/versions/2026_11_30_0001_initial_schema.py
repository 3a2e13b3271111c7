"""initial schema: pgvector, memory units, idempotency keys

The embedding columns take their dimension from EMBEDDING__DIMENSION at migration time, and
their type and index from it (app/core/vectors.py: vector + HNSW up to 2,000 dimensions,
halfvec + HNSW up to 4,000, vector without an ANN index beyond); start-up refuses to run when
the configured model's dimension differs.

Revision ID: 0001
Revises:
Create Date: 2026-11-30 13:44:57.428134
"""

from collections.abc import Sequence

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql

from alembic import op
from app.core.config import get_settings
from app.core.vectors import storage_for

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    vectors = storage_for(get_settings().embedding.dimension)
    op.execute("CREATE EXTENSION IF NOT EXISTS vector")
    op.create_table(
        "idempotency_keys",
        sa.Column("namespace", sa.String(length=128), nullable=False),
        sa.Column("key", sa.String(length=256), nullable=False),
        sa.Column("request_hash", sa.String(length=64), nullable=False),
        sa.Column("status_code", sa.Integer(), nullable=False),
        sa.Column("response", postgresql.JSONB(astext_type=sa.Text()), nullable=False),
        sa.Column(
            "created_at",
            sa.DateTime(timezone=True),
            server_default=sa.text("now()"),
            nullable=False,
        ),
        sa.PrimaryKeyConstraint("namespace", "key", name=op.f("pk_idempotency_keys")),
    )
    op.create_table(
        "memory_units",
        sa.Column("id", sa.UUID(), nullable=False),
        sa.Column("namespace", sa.String(length=128), nullable=False),
        sa.Column("user_id", sa.String(length=256), nullable=False),
        sa.Column("agent_id", sa.String(length=256), nullable=True),
        sa.Column("session_id", sa.String(length=256), nullable=True),
        sa.Column("task_id", sa.String(length=256), nullable=True),
        sa.Column("type", sa.String(length=32), nullable=False),
        sa.Column("value", sa.Text(), nullable=False),
        sa.Column("query", sa.Text(), nullable=True),
        sa.Column("entities", sa.ARRAY(sa.Text()), server_default="{}", nullable=False),
        sa.Column("entity_keys", sa.ARRAY(sa.Text()), server_default="{}", nullable=False),
        sa.Column("confidence", sa.Float(), nullable=False),
        sa.Column("source", sa.String(length=32), nullable=False),
        sa.Column("raw_ref", sa.ARRAY(sa.Text()), server_default="{}", nullable=False),
        sa.Column(
            "metadata", postgresql.JSONB(astext_type=sa.Text()), server_default="{}", nullable=False
        ),
        sa.Column("status", sa.String(length=16), server_default="active", nullable=False),
        sa.Column("superseded_by", sa.UUID(), nullable=True),
        sa.Column("conflicts_with", sa.ARRAY(sa.UUID()), server_default="{}", nullable=False),
        sa.Column("value_hash", sa.String(length=64), nullable=False),
        sa.Column("occurred_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column(
            "created_at",
            sa.DateTime(timezone=True),
            server_default=sa.text("now()"),
            nullable=False,
        ),
        sa.Column(
            "updated_at",
            sa.DateTime(timezone=True),
            server_default=sa.text("now()"),
            nullable=False,
        ),
        sa.Column("last_confirmed_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_accessed_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("merge_count", sa.Integer(), server_default="0", nullable=False),
        sa.Column("embedding_model", sa.String(length=128), nullable=False),
        sa.Column("value_embedding", vectors.column_type(), nullable=False),
        sa.Column("query_embedding", vectors.column_type(), nullable=True),
        sa.Column("search_text", sa.Text(), server_default="", nullable=False),
        sa.Column(
            "search_tsv",
            postgresql.TSVECTOR(),
            sa.Computed("to_tsvector('english'::regconfig, search_text)", persisted=True),
            nullable=False,
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_memory_units")),
    )
    op.create_index(
        "ix_memory_units_entity_keys",
        "memory_units",
        ["entity_keys"],
        unique=False,
        postgresql_using="gin",
    )
    op.create_index(
        "ix_memory_units_expires_at",
        "memory_units",
        ["expires_at"],
        unique=False,
        postgresql_where=sa.text("status = 'active'"),
    )
    op.create_index(
        "ix_memory_units_occurred_at",
        "memory_units",
        ["namespace", "user_id", "occurred_at"],
        unique=False,
    )
    op.create_index(
        "ix_memory_units_scope",
        "memory_units",
        ["namespace", "user_id", "agent_id", "status"],
        unique=False,
    )
    op.create_index(
        "ix_memory_units_search_tsv",
        "memory_units",
        ["search_tsv"],
        unique=False,
        postgresql_using="gin",
    )
    op.create_index(
        "ix_memory_units_session", "memory_units", ["namespace", "session_id"], unique=False
    )
    for column in ("value_embedding", "query_embedding") if vectors.indexed else ():
        op.create_index(
            f"ix_memory_units_{column}_hnsw",
            "memory_units",
            [column],
            unique=False,
            postgresql_using="hnsw",
            postgresql_with={"m": 16, "ef_construction": 64},
            postgresql_ops={column: vectors.ops},
        )
    op.create_index(
        "ix_memory_units_value_hash",
        "memory_units",
        ["namespace", "user_id", "value_hash"],
        unique=False,
    )


def downgrade() -> None:
    op.drop_table("memory_units")
    op.drop_table("idempotency_keys")

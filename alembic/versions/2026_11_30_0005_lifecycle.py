"""lifecycle: access log, consolidation links, distillation state, list/history indexes

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-30
"""

from collections.abc import Sequence

import sqlalchemy as sa

from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "memory_access_log",
        sa.Column("id", sa.BigInteger(), sa.Identity(always=True), nullable=False),
        sa.Column("unit_id", sa.UUID(), nullable=False),
        sa.Column("namespace", sa.String(length=128), nullable=False),
        sa.Column("accessed_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["unit_id"],
            ["memory_units.id"],
            name=op.f("fk_memory_access_log_unit_id_memory_units"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_memory_access_log")),
    )
    op.create_index("ix_memory_access_log_unit_id", "memory_access_log", ["unit_id", "accessed_at"])
    op.create_index("ix_memory_access_log_accessed_at", "memory_access_log", ["accessed_at"])
    op.create_table(
        "memory_links",
        sa.Column("target_id", sa.UUID(), nullable=False),
        sa.Column("source_id", sa.UUID(), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["target_id"],
            ["memory_units.id"],
            name=op.f("fk_memory_links_target_id_memory_units"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["source_id"],
            ["memory_units.id"],
            name=op.f("fk_memory_links_source_id_memory_units"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("target_id", "source_id", name=op.f("pk_memory_links")),
    )
    op.create_index("ix_memory_links_source_id", "memory_links", ["source_id"])
    op.create_table(
        "distillation_state",
        sa.Column("namespace", sa.String(length=128), nullable=False),
        sa.Column("user_id", sa.String(length=256), nullable=False),
        sa.Column("agent_id", sa.String(length=256), nullable=False),
        sa.Column("watermark", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_run_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("runs", sa.Integer(), server_default="0", nullable=False),
        sa.PrimaryKeyConstraint(
            "namespace", "user_id", "agent_id", name=op.f("pk_distillation_state")
        ),
    )
    op.create_index(
        "ix_memory_units_list", "memory_units", ["namespace", "user_id", "created_at", "id"]
    )
    op.create_index(
        "ix_memory_units_created_at_id", "memory_units", ["namespace", "created_at", "id"]
    )
    op.create_index(
        "ix_memory_units_superseded_by",
        "memory_units",
        ["superseded_by"],
        postgresql_where=sa.text("superseded_by IS NOT NULL"),
    )


def downgrade() -> None:
    op.drop_index("ix_memory_units_superseded_by", table_name="memory_units")
    op.drop_index("ix_memory_units_created_at_id", table_name="memory_units")
    op.drop_index("ix_memory_units_list", table_name="memory_units")
    op.drop_table("distillation_state")
    op.drop_table("memory_links")
    op.drop_table("memory_access_log")

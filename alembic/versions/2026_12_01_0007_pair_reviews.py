"""pair reviews (the unsure zone of the pair decision) and memory_units.merged_into

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-01
"""

from collections.abc import Sequence

import sqlalchemy as sa

from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("memory_units", sa.Column("merged_into", sa.UUID(), nullable=True))
    op.create_index(
        "ix_memory_units_merged_into",
        "memory_units",
        ["merged_into"],
        postgresql_where=sa.text("merged_into IS NOT NULL"),
    )
    op.create_table(
        "pair_reviews",
        sa.Column("id", sa.UUID(), nullable=False),
        sa.Column("namespace", sa.String(length=128), nullable=False),
        sa.Column("user_id", sa.String(length=256), nullable=False),
        sa.Column("agent_id", sa.String(length=256), nullable=True),
        sa.Column("unit_id", sa.UUID(), nullable=False),
        sa.Column("candidate_id", sa.UUID(), nullable=False),
        sa.Column("cosine", sa.Float(), nullable=False),
        sa.Column("reason", sa.String(length=64), nullable=False),
        sa.Column("p_same", sa.Float(), nullable=False),
        sa.Column("merge_allowed", sa.Boolean(), nullable=False),
        sa.Column("status", sa.String(length=16), server_default="pending", nullable=False),
        sa.Column("attempts", sa.Integer(), server_default="0", nullable=False),
        sa.Column("lease_until", sa.DateTime(timezone=True), nullable=True),
        sa.Column("verdict", sa.String(length=16), nullable=True),
        sa.Column("action", sa.String(length=16), nullable=True),
        sa.Column("error", sa.Text(), nullable=True),
        sa.Column(
            "created_at", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False
        ),
        sa.Column("decided_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["unit_id"],
            ["memory_units.id"],
            name=op.f("fk_pair_reviews_unit_id_memory_units"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["candidate_id"],
            ["memory_units.id"],
            name=op.f("fk_pair_reviews_candidate_id_memory_units"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_pair_reviews")),
    )
    op.create_index(
        "ix_pair_reviews_pending", "pair_reviews", ["namespace", "status", "created_at"]
    )
    op.create_index("ix_pair_reviews_unit_id", "pair_reviews", ["unit_id"])
    op.create_index("ix_pair_reviews_candidate_id", "pair_reviews", ["candidate_id"])


def downgrade() -> None:
    op.drop_table("pair_reviews")
    op.drop_index("ix_memory_units_merged_into", table_name="memory_units")
    op.drop_column("memory_units", "merged_into")

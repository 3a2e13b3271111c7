"""extraction jobs and the job queue (pgqueuer's schema)

``extraction_jobs`` is the durable record of each extraction (transcript snapshot, state,
attempts, per-unit outcome). The queue is pgqueuer's: its tables, enum, trigger and function
are rendered statement by statement from the installed pgqueuer's own schema declaration,
so they match the library that reads them. A later pgqueuer release that changes its schema
needs a migration calling ``pgqueuer.Queries.apply_upgrade`` (``pgq upgrade``).

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-30
"""

from collections.abc import Sequence

import sqlalchemy as sa
from pgqueuer.adapters.persistence import schema_ddl
from pgqueuer.domain.schema.declaration import target
from pgqueuer.domain.settings import DBSettings
from sqlalchemy.dialects import postgresql

from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _pgqueuer_statements() -> list[str]:
    """pgqueuer's install DDL, one statement each (asyncpg runs one per prepared call)."""
    settings = DBSettings()
    schema = target(settings)
    return [
        *(schema_ddl.render_enum(e, settings) for e in schema.enums),
        *(schema_ddl.render_table(t, settings) for t in schema.tables),
        *(schema_ddl.render_index(i, settings) for i in schema.indexes),
        *(schema_ddl.render_function(f, settings) for f in schema.functions),
        *(schema_ddl.render_trigger(t, settings) for t in schema.triggers),
    ]


def upgrade() -> None:
    op.create_table(
        "extraction_jobs",
        sa.Column("id", sa.UUID(), nullable=False),
        sa.Column("namespace", sa.String(length=128), nullable=False),
        sa.Column("user_id", sa.String(length=256), nullable=False),
        sa.Column("agent_id", sa.String(length=256), nullable=True),
        sa.Column("session_id", sa.String(length=256), nullable=True),
        sa.Column("task_id", sa.String(length=256), nullable=True),
        sa.Column("status", sa.String(length=16), server_default="queued", nullable=False),
        sa.Column("trigger", sa.String(length=16), server_default="api", nullable=False),
        sa.Column(
            "trigger_detail",
            postgresql.JSONB(astext_type=sa.Text()),
            server_default="[]",
            nullable=False,
        ),
        sa.Column("transcript", postgresql.JSONB(astext_type=sa.Text()), nullable=False),
        sa.Column("transcript_from", sa.Integer(), nullable=True),
        sa.Column("transcript_to", sa.Integer(), nullable=True),
        sa.Column("session_epoch", sa.DateTime(timezone=True), nullable=True),
        sa.Column("timezone", sa.String(length=64), server_default="UTC", nullable=False),
        sa.Column("conversation_now", sa.DateTime(timezone=True), nullable=False),
        sa.Column("attempts", sa.Integer(), server_default="0", nullable=False),
        sa.Column("max_attempts", sa.Integer(), server_default="3", nullable=False),
        sa.Column("lease_until", sa.DateTime(timezone=True), nullable=True),
        sa.Column("next_attempt_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("error", sa.Text(), nullable=True),
        sa.Column("error_code", sa.String(length=64), nullable=True),
        sa.Column(
            "error_history",
            postgresql.JSONB(astext_type=sa.Text()),
            server_default="[]",
            nullable=False,
        ),
        sa.Column("extractor", sa.String(length=200), nullable=True),
        sa.Column(
            "outcome", postgresql.JSONB(astext_type=sa.Text()), server_default="[]", nullable=False
        ),
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
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_extraction_jobs")),
    )
    op.create_index(
        "ix_extraction_jobs_namespace_created",
        "extraction_jobs",
        ["namespace", "created_at"],
        unique=False,
    )
    op.create_index(
        "ix_extraction_jobs_status", "extraction_jobs", ["status", "next_attempt_at"], unique=False
    )
    op.create_index(
        "uq_extraction_jobs_session_range",
        "extraction_jobs",
        ["namespace", "session_id", "session_epoch", "transcript_to"],
        unique=True,
        postgresql_where=sa.text("session_id IS NOT NULL AND transcript_to IS NOT NULL"),
    )
    bind = op.get_bind()
    for statement in _pgqueuer_statements():
        bind.exec_driver_sql(statement)


def downgrade() -> None:
    bind = op.get_bind()
    for statement in schema_ddl.render_uninstall(DBSettings()).splitlines():
        if statement.strip():
            bind.exec_driver_sql(statement)
    op.drop_table("extraction_jobs")

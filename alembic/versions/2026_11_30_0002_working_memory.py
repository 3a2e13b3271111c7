"""working memory: durable transcript and per-session counters

Every message appended to a session's working memory is written here (Redis holds only the
hot window); ``working_memory_sessions`` hands out sequence numbers per session.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-30
"""

from collections.abc import Sequence

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql

from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "working_memory_sessions",
        sa.Column("namespace", sa.String(length=128), nullable=False),
        sa.Column("session_id", sa.String(length=256), nullable=False),
        sa.Column("user_id", sa.String(length=256), nullable=True),
        sa.Column("last_seq", sa.BigInteger(), server_default="0", nullable=False),
        sa.Column("message_count", sa.BigInteger(), server_default="0", nullable=False),
        sa.Column("token_count", sa.BigInteger(), server_default="0", nullable=False),
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
        sa.PrimaryKeyConstraint("namespace", "session_id", name=op.f("pk_working_memory_sessions")),
    )
    op.create_table(
        "transcript_messages",
        sa.Column("id", sa.BigInteger(), autoincrement=True, nullable=False),
        sa.Column("namespace", sa.String(length=128), nullable=False),
        sa.Column("session_id", sa.String(length=256), nullable=False),
        sa.Column("seq", sa.BigInteger(), nullable=False),
        sa.Column("role", sa.String(length=16), nullable=False),
        sa.Column("content", sa.Text(), nullable=False),
        sa.Column("user_id", sa.String(length=256), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column(
            "metadata", postgresql.JSONB(astext_type=sa.Text()), server_default="{}", nullable=False
        ),
        sa.Column("token_count", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_transcript_messages")),
        sa.UniqueConstraint(
            "namespace",
            "session_id",
            "seq",
            name=op.f("uq_transcript_messages_namespace_session_id_seq"),
        ),
    )


def downgrade() -> None:
    op.drop_table("transcript_messages")
    op.drop_table("working_memory_sessions")

"""The memory-unit table (docs/ARCHITECTURE.md) and the idempotency-key table."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from pgvector.sqlalchemy import Vector
from sqlalchemy import (
    Boolean,
    Computed,
    DateTime,
    Float,
    Index,
    Integer,
    String,
    Text,
    func,
    text,
)
from sqlalchemy.dialects.postgresql import ARRAY, JSONB, TSVECTOR, UUID
from sqlalchemy.orm import Mapped, mapped_column

from app.core.vocabulary import UnitStatus
from app.models.base import Base

# No dimension here: the database fixes it when the migration creates the table (from
# EMBEDDING__DIMENSION then), and start-up refuses a configured model of another dimension
# (services/health.py, check_schema). So importing the models reads no settings. Above 2,000
# dimensions the migration makes the columns halfvec (app/core/vectors.py); these types and
# the indexes below describe the default (vector + HNSW), and queries work on either.


class MemoryUnit(Base):
    """One memory unit: scope (namespace + subject), content, trigger scenario, lifecycle,
    and two embeddings (of ``value`` and of ``query``) that record their model."""

    __tablename__ = "memory_units"

    id: Mapped[uuid.UUID] = mapped_column(UUID(as_uuid=True), primary_key=True)
    namespace: Mapped[str] = mapped_column(String(128))
    user_id: Mapped[str] = mapped_column(String(256))
    agent_id: Mapped[str | None] = mapped_column(String(256))
    session_id: Mapped[str | None] = mapped_column(String(256))
    task_id: Mapped[str | None] = mapped_column(String(256))
    type: Mapped[str] = mapped_column(String(32))
    value: Mapped[str] = mapped_column(Text)
    query: Mapped[str | None] = mapped_column(Text)
    entities: Mapped[list[str]] = mapped_column(ARRAY(Text), server_default="{}")
    # Case-folded entities, for the entity filter and the entity-match signal.
    entity_keys: Mapped[list[str]] = mapped_column(ARRAY(Text), server_default="{}")
    confidence: Mapped[float] = mapped_column(Float)
    source: Mapped[str] = mapped_column(String(32))
    raw_ref: Mapped[list[str]] = mapped_column(ARRAY(Text), server_default="{}")
    metadata_: Mapped[dict[str, Any]] = mapped_column("metadata", JSONB, server_default="{}")
    status: Mapped[str] = mapped_column(String(16), server_default=UnitStatus.ACTIVE.value)
    superseded_by: Mapped[uuid.UUID | None] = mapped_column(UUID(as_uuid=True))
    # Status "merged": the unit this one was folded into (its id keeps resolving to it).
    merged_into: Mapped[uuid.UUID | None] = mapped_column(UUID(as_uuid=True))
    # The other sessions whose statements were merged into this unit (at write time, or a
    # merged row's): a session filter matches them too (migration 0018, tester finding C15).
    sessions: Mapped[list[str]] = mapped_column(ARRAY(Text), server_default="{}")
    conflicts_with: Mapped[list[uuid.UUID]] = mapped_column(
        ARRAY(UUID(as_uuid=True)), server_default="{}"
    )
    # Hash of the normalised value (app.core.text.normalize): exact duplicates in one lookup.
    value_hash: Mapped[str] = mapped_column(String(64))
    occurred_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    # Valid time (event time): a unit is true from its occurred_at (its valid_from) until a
    # successor superseded it: valid_to, the successor's occurred_at; NULL while nothing has.
    # What an "as of" read looks at (migration 0011).
    valid_to: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())
    last_confirmed_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    last_accessed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    expires_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    # The writer gave the expiry (ttl_days / expires_at): recalls never extend it.
    expiry_fixed: Mapped[bool] = mapped_column(Boolean, server_default=text("false"))
    merge_count: Mapped[int] = mapped_column(Integer, server_default="0")
    # Decided against the user's units in other write subjects (false: stored before the write
    # path did that, migration 0021; the worker's link backfill decides it).
    links_decided: Mapped[bool] = mapped_column(Boolean, server_default=text("true"))
    embedding_model: Mapped[str] = mapped_column(String(128))
    value_embedding: Mapped[Any] = mapped_column(Vector())
    query_embedding: Mapped[Any | None] = mapped_column(Vector())
    # Space-joined tokens from app.core.text.search_text (CJK segmented in the application).
    search_text: Mapped[str] = mapped_column(Text, server_default="")
    search_tsv: Mapped[Any] = mapped_column(
        TSVECTOR, Computed("to_tsvector('english'::regconfig, search_text)", persisted=True)
    )

    __table_args__ = (
        Index("ix_memory_units_scope", "namespace", "user_id", "agent_id", "status"),
        Index("ix_memory_units_session", "namespace", "session_id"),
        Index("ix_memory_units_occurred_at", "namespace", "user_id", "occurred_at"),
        Index("ix_memory_units_value_hash", "namespace", "user_id", "value_hash"),
        Index(
            "ix_memory_units_expires_at", "expires_at", postgresql_where=text("status = 'active'")
        ),
        # Partial: only survivors that hold another session's statement (a few), so ordinary
        # writes never touch it; a session filter says "cardinality(sessions) > 0" to use it.
        Index(
            "ix_memory_units_sessions",
            "sessions",
            postgresql_using="gin",
            postgresql_where=text("cardinality(sessions) > 0"),
        ),
        Index(
            "ix_memory_units_links_undecided",
            "created_at",
            "id",
            postgresql_where=text("NOT links_decided"),
        ),
        Index(
            "ix_memory_units_merged_into",
            "merged_into",
            postgresql_where=text("merged_into IS NOT NULL"),
        ),
        # Subject first (btree_gin, migration 0009): keyword and entity lookups of a subject
        # cost what the subject holds, not what the table holds.
        Index(
            "ix_memory_units_subject_entity_keys",
            "user_id",
            "entity_keys",
            postgresql_using="gin",
        ),
        Index(
            "ix_memory_units_subject_search_tsv", "user_id", "search_tsv", postgresql_using="gin"
        ),
        Index(
            "ix_memory_units_value_embedding_hnsw",
            "value_embedding",
            postgresql_using="hnsw",
            postgresql_with={"m": 16, "ef_construction": 64},
            postgresql_ops={"value_embedding": "vector_cosine_ops"},
        ),
        Index(
            "ix_memory_units_query_embedding_hnsw",
            "query_embedding",
            postgresql_using="hnsw",
            postgresql_with={"m": 16, "ef_construction": 64},
            postgresql_ops={"query_embedding": "vector_cosine_ops"},
        ),
    )


class IdempotencyRecord(Base):
    """The first response to a request sent with an ``Idempotency-Key`` header."""

    __tablename__ = "idempotency_keys"

    namespace: Mapped[str] = mapped_column(String(128), primary_key=True)
    key: Mapped[str] = mapped_column(String(256), primary_key=True)
    request_hash: Mapped[str] = mapped_column(String(64))
    status_code: Mapped[int] = mapped_column(Integer)
    response: Mapped[dict[str, Any]] = mapped_column(JSONB)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())

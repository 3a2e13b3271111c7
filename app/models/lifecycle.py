"""Lifecycle tables (docs/LIFECYCLE.md): the access log of recalls, the links from a
consolidated unit to its sources, and per-subject distillation state. Also the keyset index
that ``GET /memories`` pages on."""

from __future__ import annotations

import uuid
from datetime import datetime

from sqlalchemy import (
    BigInteger,
    Boolean,
    DateTime,
    ForeignKey,
    Identity,
    Index,
    Integer,
    String,
    text,
)
from sqlalchemy.dialects.postgresql import UUID
from sqlalchemy.orm import Mapped, mapped_column

from app.models.base import Base
from app.models.memory import MemoryUnit

# Keyset pagination of GET /memories on (created_at, id), narrowed by namespace and subject.
# Declared here (not in memory.py) so the lifecycle migration owns it.
Index(
    "ix_memory_units_list",
    MemoryUnit.namespace,
    MemoryUnit.user_id,
    MemoryUnit.created_at,
    MemoryUnit.id,
)
Index("ix_memory_units_created_at_id", MemoryUnit.namespace, MemoryUnit.created_at, MemoryUnit.id)
# The supersede chain is walked backwards (who was superseded by X?).
Index(
    "ix_memory_units_superseded_by",
    MemoryUnit.superseded_by,
    postgresql_where=MemoryUnit.superseded_by.is_not(None),
)


class MemoryAccess(Base):
    """One unit returned by one recall (docs/ARCHITECTURE.md). Pruned after a retention period."""

    __tablename__ = "memory_access_log"

    id: Mapped[int] = mapped_column(BigInteger, Identity(always=True), primary_key=True)
    unit_id: Mapped[uuid.UUID] = mapped_column(
        UUID(as_uuid=True), ForeignKey("memory_units.id", ondelete="CASCADE")
    )
    namespace: Mapped[str] = mapped_column(String(128))
    accessed_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    # Whether the archival sweep has applied this access to the unit (last_accessed_at, expiry
    # extension): recall only appends here, so it never rewrites a memory_units row.
    folded: Mapped[bool] = mapped_column(Boolean, server_default=text("false"))

    __table_args__ = (
        Index("ix_memory_access_log_unit_id", "unit_id", "accessed_at"),
        Index("ix_memory_access_log_accessed_at", "accessed_at"),
        Index("ix_memory_access_log_unfolded", "id", postgresql_where=text("NOT folded")),
    )


class MemoryLink(Base):
    """``target_id`` was written from ``source_id``: by ``/summarize`` (kind ``summary``; the
    source is archived in the same transaction) or by distillation (kind ``distilled``; the
    source stays active); or restates it from another write subject of the same user (kind
    ``duplicate``, app.services.memory.elsewhere), or changes what it says (kind ``replaces``);
    both stay active."""

    __tablename__ = "memory_links"

    target_id: Mapped[uuid.UUID] = mapped_column(
        UUID(as_uuid=True), ForeignKey("memory_units.id", ondelete="CASCADE"), primary_key=True
    )
    source_id: Mapped[uuid.UUID] = mapped_column(
        UUID(as_uuid=True), ForeignKey("memory_units.id", ondelete="CASCADE"), primary_key=True
    )
    kind: Mapped[str] = mapped_column(String(16))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))

    __table_args__ = (Index("ix_memory_links_source_id", "source_id"),)


class DistillationState(Base):
    """Where periodic distillation of one subject stands. ``agent_id`` is ``''`` for units
    without an agent (a primary-key column cannot be NULL)."""

    __tablename__ = "distillation_state"

    namespace: Mapped[str] = mapped_column(String(128), primary_key=True)
    user_id: Mapped[str] = mapped_column(String(256), primary_key=True)
    agent_id: Mapped[str] = mapped_column(String(256), primary_key=True)
    # last_confirmed_at of the newest episodic unit the last run looked at.
    watermark: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    last_run_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    runs: Mapped[int] = mapped_column(Integer, server_default="0")

"""Extraction jobs: the durable record of one hindsight extraction (``/extract``).

The row holds its own transcript snapshot, so a job never depends on working memory still
having the turns; it is committed in the same transaction as its queue entry (pgqueuer's
``pgqueuer`` table, created by migration 0003), so a crash between the two loses nothing.
"""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from sqlalchemy import DateTime, Index, Integer, String, Text, func, text
from sqlalchemy.dialects.postgresql import JSONB, UUID
from sqlalchemy.orm import Mapped, mapped_column

from app.core.vocabulary import JobStatus
from app.models.base import Base


class ExtractionJob(Base):
    """One extraction: scope, transcript snapshot, state machine and per-unit outcome.

    ``status``: queued → running → succeeded | retrying → running … | failed (retryable).
    ``attempts`` is also the fencing token: a runner may write its result only while the
    row still shows its own attempt number.
    """

    __tablename__ = "extraction_jobs"

    id: Mapped[uuid.UUID] = mapped_column(UUID(as_uuid=True), primary_key=True)
    namespace: Mapped[str] = mapped_column(String(128))
    user_id: Mapped[str] = mapped_column(String(256))
    agent_id: Mapped[str | None] = mapped_column(String(256))
    session_id: Mapped[str | None] = mapped_column(String(256))
    task_id: Mapped[str | None] = mapped_column(String(256))
    status: Mapped[str] = mapped_column(String(16), server_default=JobStatus.QUEUED.value)
    # api | close | signals (which closure signals, in `trigger_detail`)
    trigger: Mapped[str] = mapped_column(String(16), server_default="api")
    trigger_detail: Mapped[list[str]] = mapped_column(JSONB, server_default="[]")
    # The messages to extract from: [{role, content, created_at?, metadata?, index?}, …].
    transcript: Mapped[list[dict[str, Any]]] = mapped_column(JSONB)
    # For session transcripts: the seqs extracted, transcript_from..transcript_to inclusive,
    # and the session's created_at (a purged and reused session id starts a new epoch).
    transcript_from: Mapped[int | None] = mapped_column(Integer)
    transcript_to: Mapped[int | None] = mapped_column(Integer)
    session_epoch: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    timezone: Mapped[str] = mapped_column(String(64), server_default="UTC")
    # The conversation's clock: relative dates are resolved against it.
    conversation_now: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    attempts: Mapped[int] = mapped_column(Integer, server_default="0")
    max_attempts: Mapped[int] = mapped_column(Integer, server_default="3")
    lease_until: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    next_attempt_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    error: Mapped[str | None] = mapped_column(Text)
    error_code: Mapped[str | None] = mapped_column(String(64))
    # One entry per failed attempt: {attempt, code, error, at}.
    error_history: Mapped[list[dict[str, Any]]] = mapped_column(JSONB, server_default="[]")
    extractor: Mapped[str | None] = mapped_column(String(200))
    # Per unit: {memory_id, outcome, type, value, confidence, reason}.
    outcome: Mapped[list[dict[str, Any]]] = mapped_column(JSONB, server_default="[]")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())
    started_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))

    __table_args__ = (
        Index("ix_extraction_jobs_namespace_created", "namespace", "created_at"),
        Index("ix_extraction_jobs_status", "status", "next_attempt_at"),
        # A session's transcript up to a given length is extracted once.
        Index(
            "uq_extraction_jobs_session_range",
            "namespace",
            "session_id",
            "session_epoch",
            "transcript_to",
            unique=True,
            postgresql_where=text("session_id IS NOT NULL AND transcript_to IS NOT NULL"),
        ),
    )

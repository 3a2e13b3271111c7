"""Pair reviews: a new unit and an existing one the write path could not decide on (the
*unsure* zone of the pair decision, docs/DEDUPE.md). With an LLM configured each review is a
durable job on the worker's queue (pgqueuer, like extraction) that asks the LLM after the
``/store`` answer; without one it stays ``pending`` and is listed by
``GET /reviews`` until someone decides it (``POST /reviews/{id}``) or the archival sweep
closes it as ``keep_both`` after ``LIFECYCLE__REVIEW_MAX_AGE_DAYS``."""

from __future__ import annotations

import uuid
from datetime import datetime

from sqlalchemy import Boolean, DateTime, Float, ForeignKey, Index, Integer, String, Text, func
from sqlalchemy.dialects.postgresql import UUID
from sqlalchemy.orm import Mapped, mapped_column

from app.core.vocabulary import ReviewStatus
from app.models.base import Base


class PairReview(Base):
    """One undecided pair and, once decided, what was done.

    ``status``: pending → running → decided; back to ``pending`` (listed for review) when the
    LLM kept failing. ``attempts`` fences a run: a runner writes only while the row still
    shows its attempt. ``action`` (what was applied): merge | superseded | conflict | distinct
    | stale; ``verdict``: the LLM's answer (same | contradicts | unrelated) or null;
    ``decided_by``: llm | api | sweep | system (``stale``: a unit of the pair changed).
    """

    __tablename__ = "pair_reviews"

    id: Mapped[uuid.UUID] = mapped_column(UUID(as_uuid=True), primary_key=True)
    namespace: Mapped[str] = mapped_column(String(128))
    user_id: Mapped[str] = mapped_column(String(256))
    agent_id: Mapped[str | None] = mapped_column(String(256))
    unit_id: Mapped[uuid.UUID] = mapped_column(
        UUID(as_uuid=True), ForeignKey("memory_units.id", ondelete="CASCADE")
    )
    candidate_id: Mapped[uuid.UUID] = mapped_column(
        UUID(as_uuid=True), ForeignKey("memory_units.id", ondelete="CASCADE")
    )
    cosine: Mapped[float] = mapped_column(Float)
    reason: Mapped[str] = mapped_column(String(64))
    p_same: Mapped[float] = mapped_column(Float)
    merge_allowed: Mapped[bool] = mapped_column(Boolean)
    status: Mapped[str] = mapped_column(String(16), server_default=ReviewStatus.PENDING.value)
    attempts: Mapped[int] = mapped_column(Integer, server_default="0")
    lease_until: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    verdict: Mapped[str | None] = mapped_column(String(16))
    action: Mapped[str | None] = mapped_column(String(16))
    # Who closed it: llm | api | sweep | system (stale); null while open.
    decided_by: Mapped[str | None] = mapped_column(String(16))
    error: Mapped[str | None] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())
    decided_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))

    __table_args__ = (
        Index("ix_pair_reviews_pending", "namespace", "status", "created_at"),
        Index("ix_pair_reviews_unit_id", "unit_id"),
        Index("ix_pair_reviews_candidate_id", "candidate_id"),
        Index("ix_pair_reviews_subject", "namespace", "user_id", "created_at"),
    )

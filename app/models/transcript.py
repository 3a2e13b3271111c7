"""The durable transcript of working memory (docs/WORKING_MEMORY.md): every appended
message, keyed by namespace, session and sequence number, and one row per session holding
its counters."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import BigInteger, DateTime, Integer, String, Text, UniqueConstraint, func
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.orm import Mapped, mapped_column

from app.models.base import Base


class WorkingMemorySession(Base):
    """A session's counters. Appends lock this row (``INSERT … ON CONFLICT DO UPDATE``) to
    take their sequence numbers, so concurrent appends to one session get distinct,
    gap-free seqs in commit order."""

    __tablename__ = "working_memory_sessions"

    namespace: Mapped[str] = mapped_column(String(128), primary_key=True)
    session_id: Mapped[str] = mapped_column(String(256), primary_key=True)
    # The first user_id seen in the session (its subject); None until a message names one.
    user_id: Mapped[str | None] = mapped_column(String(256))
    last_seq: Mapped[int] = mapped_column(BigInteger, server_default="0")
    message_count: Mapped[int] = mapped_column(BigInteger, server_default="0")
    token_count: Mapped[int] = mapped_column(BigInteger, server_default="0")
    # The hot window holds messages with seq > this (a clear moves it to last_seq), so a
    # window Redis lost is rebuilt from the transcript without what was cleared.
    window_from_seq: Mapped[int] = mapped_column(BigInteger, server_default="0")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())


class TranscriptMessage(Base):
    """One message of a session, as appended (the hot window in Redis is a cache of the
    newest of these)."""

    __tablename__ = "transcript_messages"

    id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=True)
    namespace: Mapped[str] = mapped_column(String(128))
    session_id: Mapped[str] = mapped_column(String(256))
    seq: Mapped[int] = mapped_column(BigInteger)
    role: Mapped[str] = mapped_column(String(16))
    content: Mapped[str] = mapped_column(Text)
    user_id: Mapped[str | None] = mapped_column(String(256))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    metadata_: Mapped[dict[str, Any]] = mapped_column("metadata", JSONB, server_default="{}")
    token_count: Mapped[int] = mapped_column(Integer)

    __table_args__ = (UniqueConstraint("namespace", "session_id", "seq"),)

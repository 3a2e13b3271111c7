"""The API-key table: a key maps its caller to one namespace (docs/DEPLOY.md).

Only the SHA-256 of a key is stored; the key itself is shown once, when it is created.
"""

from __future__ import annotations

import uuid
from datetime import datetime

from sqlalchemy import DateTime, Index, String, func, text
from sqlalchemy.dialects.postgresql import UUID
from sqlalchemy.orm import Mapped, mapped_column

from app.models.base import Base


class ApiKey(Base):
    """One API key: its hash, a visible prefix to tell keys apart, its namespace, and
    whether it was revoked (revoked keys stay for the audit trail)."""

    __tablename__ = "api_keys"

    id: Mapped[uuid.UUID] = mapped_column(UUID(as_uuid=True), primary_key=True)
    namespace: Mapped[str] = mapped_column(String(128))
    name: Mapped[str | None] = mapped_column(String(200))
    # The first characters of the key ("hs_AbCd1234"), safe to show in listings and logs.
    prefix: Mapped[str] = mapped_column(String(16))
    # Hex SHA-256 of the whole key.
    key_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())
    revoked_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))

    __table_args__ = (
        Index(
            "ix_api_keys_active_namespace",
            "namespace",
            postgresql_where=text("revoked_at IS NULL"),
        ),
    )

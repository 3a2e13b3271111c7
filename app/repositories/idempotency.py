"""SQL for Idempotency-Key records."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.models import IdempotencyRecord


class IdempotencyRepository:
    """Stored first responses, keyed by (namespace, key)."""

    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    async def get(self, namespace: str, key: str) -> IdempotencyRecord | None:
        """The record for this key, or None."""
        stmt = select(IdempotencyRecord).where(
            IdempotencyRecord.namespace == namespace, IdempotencyRecord.key == key
        )
        return (await self.session.scalars(stmt)).first()

    async def save(
        self,
        namespace: str,
        key: str,
        request_hash: str,
        status_code: int,
        response: dict[str, Any],
    ) -> None:
        """Record the response in the current transaction (it commits with the data)."""
        self.session.add(
            IdempotencyRecord(
                namespace=namespace,
                key=key,
                request_hash=request_hash,
                status_code=status_code,
                response=response,
            )
        )
        await self.session.flush()

    async def prune(self, before: datetime) -> int:
        """Delete the records stored before ``before``; returns how many. The table holds
        only the retention's worth of keys, so the statement scans a small table."""
        result = await self.session.execute(
            delete(IdempotencyRecord).where(IdempotencyRecord.created_at < before)
        )
        return int(getattr(result, "rowcount", 0) or 0)

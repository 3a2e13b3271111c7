"""The job queue (pgqueuer on the service's PostgreSQL): a queue entry written in the
caller's transaction, so it commits with the row it points to, or not at all."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta

from pgqueuer import Queries
from pgqueuer.db import AsyncpgDriver
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncSession

from app.core.db import driver_of


async def enqueue(
    session: AsyncSession,
    entrypoint: str,
    payload: str,
    delay_s: float = 0.0,
    priority: int = 0,
) -> int:
    """Put a queue entry for ``entrypoint`` in this transaction; returns pgqueuer's id.
    pgqueuer hands out the highest ``priority`` first, then the oldest."""
    return (await enqueue_many(session, entrypoint, [payload], delay_s, priority))[0]


async def enqueue_many(
    session: AsyncSession,
    entrypoint: str,
    payloads: Sequence[str],
    delay_s: float = 0.0,
    priority: int = 0,
) -> list[int]:
    """Put one queue entry per payload for ``entrypoint`` in this transaction (one
    statement); returns pgqueuer's ids.

    Runs pgqueuer's own enqueue statement on the session's asyncpg connection, after a
    statement of this transaction has started it, so it commits with the caller's rows.
    """
    if not payloads:
        return []
    conn = await session.connection()
    # A lost connection is invalidated and raised as SQLAlchemy's layer would (driver_of).
    async with driver_of(conn) as driver:
        if not driver.is_in_transaction():  # SQLAlchemy opens it lazily, at a first statement
            await session.execute(text("SELECT 1"))
        if not driver.is_in_transaction():
            raise RuntimeError("enqueue must run inside the caller's transaction")
        after = timedelta(seconds=delay_s) if delay_s > 0 else None
        ids = await Queries(AsyncpgDriver(driver)).enqueue(
            [entrypoint] * len(payloads),
            [p.encode() for p in payloads],
            [priority] * len(payloads),
            [after] * len(payloads),
        )
    return [int(i) for i in ids]

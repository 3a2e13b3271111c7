"""Recall's hot statements fetched through the database driver directly: under asyncpg its
own ``fetch`` on the session's connection, without SQLAlchemy's execution layer (greenlet
hand-off, cursor adaptation, a Row per row: ~0.3-2 ms per recall on LoCoMo's 400-700
candidate rows, for values it does not convert). For statements whose text and parameters
are already the driver's (``positional``): the caller converts what needs converting.

Under asyncpg through ``app.core.db.driver_fetch``: a lost connection is invalidated and
raised as SQLAlchemy's layer would raise it (a 503; the pool replaces the connection).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy.ext.asyncio import AsyncConnection

from app.core.db import driver_fetch


def positional(compiled: Any) -> tuple[str, tuple[str, ...]]:
    """A statement ``compiled`` for the connection's dialect: the driver's SQL and the names
    of its bind parameters in positional order (compile once and keep it: compiling costs
    more than a small statement's execution)."""
    if "POSTCOMPILE" in compiled.string or not compiled.positiontup:
        raise RuntimeError("a driver statement needs a positional, final text")
    return compiled.string, tuple(compiled.positiontup)


async def fetch(conn: AsyncConnection, sql: str, params: Sequence[Any]) -> Sequence[Any]:
    """The rows of the driver SQL ``sql`` with the positional ``params``, in the session's
    transaction when one has begun, else on their own: asyncpg's records under asyncpg
    (indexable and iterable, no attribute access; ``app.core.db.driver_fetch``), else the
    rows of SQLAlchemy's driver SQL execution."""
    if conn.dialect.driver == "asyncpg":
        return await driver_fetch(conn, sql, params)
    return (await conn.exec_driver_sql(sql, tuple(params))).all()

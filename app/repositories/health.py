"""Reachability and schema checks of the database."""

from __future__ import annotations

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncConnection


async def ping(conn: AsyncConnection) -> None:
    """Raise if the database does not answer."""
    await conn.execute(text("SELECT 1"))


async def embedding_dimension(conn: AsyncConnection) -> int | None:
    """The dimension of ``memory_units.value_embedding`` (None if the table is missing)."""
    row = (
        await conn.execute(
            text(
                "SELECT atttypmod FROM pg_attribute "
                "WHERE attrelid = to_regclass('memory_units') AND attname = 'value_embedding'"
            )
        )
    ).first()
    return None if row is None else int(row[0])


async def embedding_models(conn: AsyncConnection) -> list[str]:
    """The distinct embedding models of stored vectors."""
    rows = await conn.execute(text("SELECT DISTINCT embedding_model FROM memory_units"))
    return [r[0] for r in rows]

"""Reachability and schema checks of the database."""

from __future__ import annotations

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncConnection

from app.core.vectors import VectorStorage


async def ping(conn: AsyncConnection) -> None:
    """Raise if the database does not answer."""
    await conn.execute(text("SELECT 1"))


async def vector_storage(conn: AsyncConnection) -> VectorStorage | None:
    """How ``memory_units.value_embedding`` is stored: type, dimension and whether its HNSW
    index exists (None if the table is missing)."""
    row = (
        await conn.execute(
            text(
                "SELECT format_type(atttypid, NULL) AS kind, atttypmod AS dim, "
                "to_regclass('ix_memory_units_value_embedding_hnsw') IS NOT NULL AS indexed "
                "FROM pg_attribute "
                "WHERE attrelid = to_regclass('memory_units') AND attname = 'value_embedding'"
            )
        )
    ).first()
    if row is None:
        return None
    return VectorStorage(int(row.dim), row.kind, bool(row.indexed))

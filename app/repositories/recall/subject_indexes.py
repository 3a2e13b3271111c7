"""SQL of the subject indexes: HNSW indexes of one large subject's vectors (partial indexes,
``WHERE namespace = '…' AND user_id = '…'``), built and dropped by the worker
(app.services.recall.subject_indexes).

pgvector filters after the index scan: a recall of a subject holding 10% of the table's units
walks ~10x more of the shared HNSW graph than an unfiltered one (pgvector's README,
"Filtering": "If filtering by only a few distinct values, consider partial indexing"). A
subject's own index holds only its units, so the filter keeps nearly every row it returns.

Each index carries its subject in a comment (JSON: ``{"namespace", "user_id"}``), so the
catalog alone says which subjects have one; the name is ``PREFIX`` + a hash of the subject +
``_value`` / ``_query``. ``CREATE``/``DROP INDEX CONCURRENTLY`` cannot run inside a
transaction: the methods take the session before it has begun one and run on an autocommit
connection (the scheduled task owns no transaction).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncSession

from app.core.vocabulary import UnitStatus

# Reflected indexes with this prefix are not the models' (alembic/env.py leaves them out).
PREFIX = "ix_mu_subject_"
# The two vector columns and, per column, the suffix of its index name.
COLUMNS = {"value_embedding": "value", "query_embedding": "query"}
# The sweep's advisory lock (namespace 4 of hashtextextended's seeds: units.py uses 0 and 1,
# jobs.py 3).
_LOCK = "hashtextextended('hindsight.subject_indexes', 4)"
# As the shared indexes (app.models.memory): m 16, ef_construction 64 (pgvector's defaults).
_WITH = "WITH (m = 16, ef_construction = 64)"


@dataclass(frozen=True)
class SubjectIndex:
    """One subject's index as the catalog lists it (``valid`` False: a build that failed or
    is still running; a failed one is dropped and built again)."""

    name: str
    namespace: str
    user_id: str
    column: str
    valid: bool


def index_name(namespace: str, user_id: str, column: str) -> str:
    """``ix_mu_subject_<20 hex of sha256(namespace NUL user_id)>_<value|query>``: 38-40
    characters, under PostgreSQL's 63-byte identifier limit, whatever the subject's ids."""
    digest = hashlib.sha256(f"{namespace}\0{user_id}".encode()).hexdigest()[:20]
    return f"{PREFIX}{digest}_{COLUMNS[column]}"


def _literal(value: str) -> str:
    """``value`` as an SQL string constant (quotes doubled; standard_conforming_strings is on
    since PostgreSQL 9.1, so a backslash is an ordinary character). The predicate of a partial
    index must be a constant: it cannot be a bind parameter."""
    if "\0" in value:
        raise ValueError("a subject id cannot contain NUL")
    return "'" + value.replace("'", "''") + "'"


class SubjectIndexRepository:
    """Subject sizes and the subject indexes, on the session's connection in autocommit."""

    def __init__(self, session: AsyncSession) -> None:
        self.session = session
        self._conn: AsyncConnection | None = None

    async def connection(self) -> AsyncConnection:
        """The session's connection, in autocommit (checked out on first use)."""
        if self._conn is None:
            self._conn = await self.session.connection(
                execution_options={"isolation_level": "AUTOCOMMIT"}
            )
        return self._conn

    async def try_lock(self) -> bool:
        """Take the sweep's session-level advisory lock, without waiting: False when another
        process holds it (two workers building the same index would fail each other)."""
        conn = await self.connection()
        return bool(await conn.scalar(text(f"SELECT pg_try_advisory_lock({_LOCK})")))

    async def unlock(self) -> None:
        """Release :meth:`try_lock`'s lock (the connection goes back to the pool after). When
        that fails (a sweep cancelled at shutdown, a lost connection), the connection is
        discarded instead, which releases a session lock too: a pooled connection must never
        keep it, or every later sweep would be skipped."""
        conn = await self.connection()
        try:
            await conn.execute(text(f"SELECT pg_advisory_unlock({_LOCK})"))
        except BaseException:
            await conn.invalidate()
            raise

    async def table_units(self) -> int:
        """The planner's estimate of memory_units' row count (``pg_class.reltuples``, kept by
        (auto)VACUUM and ANALYZE; 0 before the first)."""
        conn = await self.connection()
        n = await conn.scalar(
            text("SELECT reltuples FROM pg_class WHERE oid = 'memory_units'::regclass")
        )
        return max(int(n or 0), 0)

    async def large_subjects(self, min_units: int, limit: int) -> list[tuple[str, str, int]]:
        """``(namespace, user_id, active units)`` of the ``limit`` largest subjects holding at
        least ``min_units`` active units, largest first. One aggregate over the scope index
        (~0.1-0.3 s at 1M units): the worker runs it every few minutes, never a request."""
        conn = await self.connection()
        rows = await conn.execute(
            text(
                "SELECT namespace, user_id, count(*) AS n FROM memory_units"
                " WHERE status = :active AND user_id IS NOT NULL"
                " GROUP BY namespace, user_id HAVING count(*) >= :min_units"
                " ORDER BY n DESC, namespace, user_id LIMIT :limit"
            ),
            {"active": UnitStatus.ACTIVE, "min_units": min_units, "limit": limit},
        )
        return [(str(r[0]), str(r[1]), int(r[2])) for r in rows]

    async def listed(self) -> list[SubjectIndex]:
        """Every subject index of memory_units, from the catalog."""
        conn = await self.connection()
        rows = await conn.execute(
            text(
                "SELECT c.relname, obj_description(c.oid, 'pg_class'), i.indisvalid"
                "  FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid"
                " WHERE i.indrelid = 'memory_units'::regclass AND c.relname LIKE :prefix"
            ),
            {"prefix": PREFIX + "%"},
        )
        out = []
        for name, comment, valid in rows:
            try:
                subject = json.loads(comment or "")
                namespace, user_id = str(subject["namespace"]), str(subject["user_id"])
            except (ValueError, KeyError, TypeError):
                namespace = user_id = ""  # not ours to read: dropped as stale by the sweep
            column = next((c for c, s in COLUMNS.items() if name.endswith("_" + s)), "")
            out.append(SubjectIndex(str(name), namespace, user_id, column, bool(valid)))
        return out

    async def create(
        self, namespace: str, user_id: str, column: str, maintenance_work_mem: str
    ) -> str:
        """Build the HNSW index of ``column`` (``value_embedding`` | ``query_embedding``) for
        one subject, without blocking writes (``CREATE INDEX CONCURRENTLY``), and label it.
        Returns its name. Raises what PostgreSQL raises (the sweep logs it and retries the next
        time; an interrupted build leaves an invalid index, which :meth:`listed` reports)."""
        name = index_name(namespace, user_id, column)
        conn = await self.connection()
        await conn.execute(
            text("SELECT set_config('maintenance_work_mem', :m, false)"),
            {"m": maintenance_work_mem},
        )
        try:
            await conn.execute(
                text(
                    f"CREATE INDEX CONCURRENTLY IF NOT EXISTS {name} ON memory_units"
                    f" USING hnsw ({column} vector_cosine_ops) {_WITH}"
                    f" WHERE namespace = {_literal(namespace)} AND user_id = {_literal(user_id)}"
                )
            )
            label = json.dumps({"namespace": namespace, "user_id": user_id})
            await conn.execute(text(f"COMMENT ON INDEX {name} IS {_literal(label)}"))
        finally:
            await conn.execute(text("RESET maintenance_work_mem"))
        return name

    async def drop(self, name: str) -> None:
        """``DROP INDEX CONCURRENTLY IF EXISTS`` one subject index (``name`` from
        :meth:`listed` or :func:`index_name`; refused unless it has the prefix)."""
        if not name.startswith(PREFIX) or not name.replace("_", "").isalnum():
            raise ValueError(f"not a subject index: {name!r}")
        conn = await self.connection()
        await conn.execute(text(f"DROP INDEX CONCURRENTLY IF EXISTS {name}"))

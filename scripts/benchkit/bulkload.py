"""The bulk loader of ``scripts/bench_recall.py``: synthetic-but-real-text units written
straight into ``memory_units`` with ``COPY`` (the HNSW indexes dropped during the load and
rebuilt after it, then ``VACUUM ANALYZE``), for one subject or, with ``other_subjects``, for
that many more subjects of the same size in the same table (issue 11's aim 3: one subject of
100k units in a table of 1M)."""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Iterator
from datetime import datetime, timedelta
from typing import Any

import numpy as np

from app.core.entity_names import display_name, entity_key
from app.core.text import entity_keys, search_text, value_hash
from benchkit.recall_corpus import NOISE_SIGMA, SUBJECT, TYPE_SHARES, Corpus

HNSW_INDEXES = ("ix_memory_units_value_embedding_hnsw", "ix_memory_units_query_embedding_hnsw")


def asyncpg_dsn(url: str) -> str:
    """A SQLAlchemy URL of the service (``postgresql+asyncpg://…``, the embedded server's
    ``…@/db?host=/socket/dir`` included) as a DSN for ``asyncpg.connect``."""
    return re.sub(r"^postgresql\+\w+://", "postgresql://", url)


# What the store's write path does for each written unit (app.repositories.entities.write),
# for every loaded unit without links: an entity per (subject, key), a link per unit carrying
# its occurred_at. No co-occurrence edges: a loaded unit names one entity (its speaker).
_ENTITIES = """
    WITH names AS (
      SELECT * FROM unnest(CAST($1 AS text[]), CAST($2 AS text[]), CAST($3 AS text[]))
             AS m(raw, key, shown)
    )
    INSERT INTO entities (namespace, user_id, agent_id, key, name, first_seen, last_seen)
    SELECT u.namespace, u.user_id, COALESCE(u.agent_id, ''), m.key, min(m.shown),
           min(u.occurred_at), max(u.occurred_at)
      FROM memory_units u CROSS JOIN LATERAL unnest(u.entities) AS x(raw)
      JOIN names m ON m.raw = x.raw
     WHERE NOT EXISTS (SELECT 1 FROM unit_entities ue WHERE ue.unit_id = u.id)
     GROUP BY 1, 2, 3, 4
    ON CONFLICT (namespace, user_id, agent_id, key) DO UPDATE
       SET first_seen = least(entities.first_seen, excluded.first_seen),
           last_seen = greatest(entities.last_seen, excluded.last_seen)
"""
_LINKS = """
    WITH names AS (
      SELECT * FROM unnest(CAST($1 AS text[]), CAST($2 AS text[])) AS m(raw, key)
    )
    INSERT INTO unit_entities (unit_id, entity_id, occurred_at)
    SELECT DISTINCT u.id, e.id, u.occurred_at
      FROM memory_units u CROSS JOIN LATERAL unnest(u.entities) AS x(raw)
      JOIN names m ON m.raw = x.raw
      JOIN entities e ON e.namespace = u.namespace AND e.user_id = u.user_id
                     AND e.agent_id = COALESCE(u.agent_id, '') AND e.key = m.key
     WHERE NOT EXISTS (SELECT 1 FROM unit_entities ue WHERE ue.unit_id = u.id)
    ON CONFLICT DO NOTHING
"""


async def link_entities(conn: Any) -> int:
    """Link every unit that has no entity link yet to its entities (keys by
    ``app.core.entity_names.entity_key``, as the write path makes them); returns the links
    added."""
    raw = [r[0] for r in await conn.fetch("SELECT DISTINCT unnest(entities) FROM memory_units")]
    names = [(r, entity_key(r), display_name(r)) for r in raw]
    names = [n for n in names if n[1]]
    if not names:
        return 0
    cols = [list(c) for c in zip(*names, strict=True)]
    await conn.execute(_ENTITIES, *cols)
    status = await conn.execute(_LINKS, cols[0], cols[1])
    return int(status.split()[-1])


def subjects(other: int) -> list[str]:
    """The measured subject, then ``other`` more (``bench-user-1`` …) of the same size."""
    return [SUBJECT] + [f"{SUBJECT}-{i}" for i in range(1, other + 1)]


class BulkLoader:
    """Writes synthetic-but-real-text units of the subjects straight into ``memory_units``:
    the measured subject and ``other_subjects`` more, each filled to the same size."""

    COLUMNS = (
        "id",
        "namespace",
        "user_id",
        "session_id",
        "type",
        "value",
        "query",
        "entities",
        "entity_keys",
        "confidence",
        "source",
        "raw_ref",
        "status",
        "value_hash",
        "occurred_at",
        "created_at",
        "updated_at",
        "last_confirmed_at",
        "merge_count",
        "embedding_model",
        "value_embedding",
        "query_embedding",
        "search_text",
    )

    def __init__(
        self,
        url: str,
        corpus: Corpus,
        namespace: str,
        model: str,
        now: datetime,
        other_subjects: int = 0,
        maintenance_work_mem: str = "1GB",
    ):
        self.url = url
        self.subjects = subjects(other_subjects)
        self.maintenance_work_mem = maintenance_work_mem
        self.corpus = corpus
        self.namespace = namespace
        self.model = model
        self.now = now
        # Per subject, rows are numbered; row r is copy r // n_turns of turn r % n_turns.
        self.next_row = dict.fromkeys(self.subjects, 0)
        self.rng = np.random.default_rng(20261130)
        self._text_cache: dict[tuple[int, int], tuple[str, str | None, str, list[str], str]] = {}

    async def _connect(self) -> Any:
        import asyncpg
        from pgvector.asyncpg import register_vector

        conn = await asyncpg.connect(asyncpg_dsn(self.url))
        await register_vector(conn)
        return conn

    def _noisy(self, base: np.ndarray) -> np.ndarray:
        v = base + self.rng.normal(0.0, NOISE_SIGMA, base.shape).astype(np.float32)
        return (v / np.linalg.norm(v, axis=1, keepdims=True)).astype(np.float32)

    def _texts(self, turn: int, copy: int) -> tuple[str, str | None, str, list[str], str]:
        """Value, query, value hash, entity keys and search text of copy ``copy`` of turn
        ``turn``: the same in every subject, so computed once (text processing is most of the
        cost of a row)."""
        key = (turn, copy)
        hit = self._text_cache.get(key)
        if hit is None:
            t = self.corpus.turns[turn]
            value = self.corpus.value(turn, copy)
            query = self.corpus.value(t.prev, copy) if t.prev >= 0 else None
            hit = (value, query, value_hash(value), entity_keys([t.speaker]),
                   search_text(value, query, t.speaker))  # fmt: skip
            self._text_cache[key] = hit
        return hit

    def _rows(self, subject: str, count: int) -> Iterator[tuple[Any, ...]]:
        import uuid_utils.compat as uuid7

        n = len(self.corpus.turns)
        types = list(TYPE_SHARES)
        start = self.next_row[subject]
        idx = np.arange(start, start + count)
        turn_ix, copies = idx % n, idx // n
        vals = self._noisy(self.corpus.vectors[turn_ix])
        prev = np.array([self.corpus.turns[i].prev for i in turn_ix])
        qvecs = self._noisy(self.corpus.vectors[np.maximum(prev, 0)])
        kinds = self.rng.choice(len(types), size=count, p=list(TYPE_SHARES.values()))
        ages = self.rng.uniform(0.0, 365 * 24 * 3600.0, size=count)
        conf = self.rng.uniform(0.6, 1.0, size=count)
        for k in range(count):
            t = self.corpus.turns[turn_ix[k]]
            copy = int(copies[k])
            value, query, vhash, keys, text = self._texts(int(turn_ix[k]), copy)
            occurred = self.now - timedelta(seconds=float(ages[k]))
            yield (
                uuid7.uuid7(),
                self.namespace,
                subject,
                # Each subject's sessions its own, as a client's session ids are (one
                # conversation of one user): the same id in every subject made a seed
                # session's mates in the other subjects read and dropped by the second hop.
                f"{subject}/{t.conversation}/{t.session}/{copy}",
                types[kinds[k]],
                value,
                query,
                [t.speaker],
                keys,
                float(conf[k]),
                "extraction",
                [t.dia_id],
                "active",
                vhash,
                occurred,
                occurred,
                occurred,
                occurred,
                0,
                self.model,
                vals[k],
                qvecs[k] if query is not None else None,
                text,
            )
        self.next_row[subject] += count

    async def fill_to(self, target: int) -> dict[str, float]:
        """Add rows until every subject holds ``target`` units (HNSW indexes dropped first,
        rebuilt after the COPY, then VACUUM ANALYZE). Returns seconds per phase and the rows
        written (``copy_rows``); nothing when every subject is full already."""
        conn = await self._connect()
        timing: dict[str, float] = {}
        try:
            missing: dict[str, int] = {}
            for subject in self.subjects:
                have = int(
                    await conn.fetchval(
                        "SELECT count(*) FROM memory_units WHERE namespace = $1 AND user_id = $2",
                        self.namespace,
                        subject,
                    )
                )
                # a reused data dir: carry on with new variants
                self.next_row[subject] = max(self.next_row[subject], have)
                if target > have:
                    missing[subject] = target - have
            if not missing:
                return timing
            defs = dict(
                await conn.fetch(
                    "SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'memory_units'"
                    " AND indexname = ANY($1::text[])",
                    list(HNSW_INDEXES),
                )
            )
            t0 = time.perf_counter()
            for name in HNSW_INDEXES:
                await conn.execute(f"DROP INDEX IF EXISTS {name}")
            for subject, count in missing.items():
                await self._copy(conn, subject, count)
            timing["copy_s"] = time.perf_counter() - t0
            t0 = time.perf_counter()
            timing["graph_links"] = float(await link_entities(conn))
            timing["graph_s"] = time.perf_counter() - t0
            timing["copy_rows"] = float(sum(missing.values()))
            t0 = time.perf_counter()
            await conn.execute(f"SET maintenance_work_mem = '{self.maintenance_work_mem}'")
            await conn.execute("SET max_parallel_maintenance_workers = 1")
            for name in HNSW_INDEXES:
                await conn.execute(defs[name])
            timing["hnsw_build_s"] = time.perf_counter() - t0
            t0 = time.perf_counter()
            await conn.execute("VACUUM ANALYZE memory_units")
            timing["vacuum_analyze_s"] = time.perf_counter() - t0
            return timing
        finally:
            await conn.close()

    async def link_entities(self) -> int:
        """:func:`link_entities` on a reused database (units loaded before the loader linked
        them); returns the links added."""
        conn = await self._connect()
        try:
            added = await link_entities(conn)
            if added:
                await conn.execute("VACUUM ANALYZE entities, unit_entities")
            return added
        finally:
            await conn.close()

    async def _copy(self, conn: Any, subject: str, count: int, chunk: int = 5000) -> None:
        """COPY ``count`` new rows of ``subject`` in chunks; the next chunk is built in a
        thread while PostgreSQL takes the current one."""

        def build(n: int) -> list[tuple[Any, ...]]:
            return list(self._rows(subject, n))

        sizes = [min(chunk, count - done) for done in range(0, count, chunk)]
        pending = asyncio.create_task(asyncio.to_thread(build, sizes[0]))
        for k in range(len(sizes)):
            rows = await pending
            if k + 1 < len(sizes):
                pending = asyncio.create_task(asyncio.to_thread(build, sizes[k + 1]))
            await conn.copy_records_to_table(
                "memory_units", records=rows, columns=list(self.COLUMNS)
            )

    async def table_units(self) -> int:
        """Rows of ``memory_units`` (every subject and namespace)."""
        return int(await self.scalar("SELECT count(*) FROM memory_units"))

    async def scalar(self, sql: str, *args: Any) -> Any:
        """One value from a one-off query."""
        conn = await self._connect()
        try:
            return await conn.fetchval(sql, *args)
        finally:
            await conn.close()

"""Subject indexes in ``scripts/bench_recall.py`` (``--subject-indexes``): build the measured
subject's own HNSW indexes, or run the worker's sweep, or hide them from the planner, before
the measurement; and count which HNSW indexes the measured recalls scanned.

``off`` marks the subject indexes invalid in ``pg_index`` (the planner then leaves them out;
the update invalidates the cached relation entries of every backend) and ``own`` marks them
valid again, so an A/B needs no rebuild (minutes per index at 100k units). Only indexes that
``off`` hid are brought back: their comment says so. This is for the benchmark's own database
(it needs a superuser), never for a service's.
"""

from __future__ import annotations

import json
import time
from typing import Any

from sqlalchemy import text

from app.core.config import get_settings
from app.core.db import create_engine, create_session_factory
from app.repositories.recall.subject_indexes import PREFIX, SubjectIndexRepository
from app.services.recall.subject_indexes import SubjectIndexer
from benchkit.recall_corpus import SUBJECT

MODES = ("as-is", "own", "sweep", "off")
_HIDDEN = "bench_hidden"


async def apply(url: str, namespace: str, mode: str) -> dict[str, Any]:
    """Put the subject indexes in ``mode``: ``own`` (the measured subject's two, built when
    missing), ``sweep`` (what the worker would build with the configured RECALL__ settings),
    ``off`` (hidden from the planner) or ``as-is``. Returns what was done."""
    if mode == "as-is":
        return {"mode": mode}
    engine = create_engine(url, pool_size=1)
    settings = get_settings().recall
    try:
        async with create_session_factory(engine)() as session:
            repo = SubjectIndexRepository(session)
            conn = await repo.connection()
            if mode == "off":
                hidden = []
                for ix in await repo.listed():
                    if ix.valid:
                        label = json.dumps(
                            {"namespace": ix.namespace, "user_id": ix.user_id, _HIDDEN: True}
                        )
                        await _comment(conn, ix.name, label)
                        await _set_valid(conn, ix.name, False)
                        hidden.append(ix.name)
                return {"mode": mode, "hidden": hidden}
            shown = []
            for ix in await repo.listed():
                comment = await conn.scalar(
                    text("SELECT obj_description(CAST(:n AS regclass), 'pg_class')"),
                    {"n": ix.name},
                )
                if not ix.valid and _HIDDEN in (comment or ""):
                    await _set_valid(conn, ix.name, True)
                    label = json.dumps({"namespace": ix.namespace, "user_id": ix.user_id})
                    await _comment(conn, ix.name, label)
                    shown.append(ix.name)
            if mode == "sweep":
                report = await SubjectIndexer(repo, settings).sweep()
                return {
                    "mode": mode,
                    "shown": shown,
                    "built": report.built,
                    "dropped": report.dropped,
                    "seconds": round(report.seconds, 1),
                }
            built: dict[str, float] = {}
            have = {ix.column for ix in await repo.listed() if ix.user_id == SUBJECT and ix.valid}
            for column in ("value_embedding", "query_embedding"):
                if column not in have:
                    t0 = time.perf_counter()
                    name = await repo.create(
                        namespace, SUBJECT, column, settings.subject_index_build_memory
                    )
                    built[name] = round(time.perf_counter() - t0, 1)
            sizes = {
                ix.name: await conn.scalar(
                    text("SELECT pg_size_pretty(pg_relation_size(CAST(:n AS regclass)))"),
                    {"n": ix.name},
                )
                for ix in await repo.listed()
            }
            return {"mode": mode, "shown": shown, "built_s": built, "sizes": sizes}
    finally:
        await engine.dispose()


async def _comment(conn: Any, name: str, label: str) -> None:
    # A utility statement takes no bind parameter: the label as a string constant.
    quoted = "'" + label.replace("'", "''") + "'"
    await conn.execute(text(f"COMMENT ON INDEX {name} IS {quoted}"))


async def _set_valid(conn: Any, name: str, valid: bool) -> None:
    await conn.execute(
        text("UPDATE pg_index SET indisvalid = :v WHERE indexrelid = CAST(:n AS regclass)"),
        {"v": valid, "n": name},
    )


async def hnsw_scans(url: str) -> dict[str, int]:
    """Index scans so far (``pg_stat_user_indexes.idx_scan``) of memory_units' HNSW indexes:
    the two shared ones and every subject index."""
    engine = create_engine(url, pool_size=1)
    try:
        async with engine.connect() as conn:
            rows = await conn.execute(
                text(
                    "SELECT indexrelname, idx_scan FROM pg_stat_user_indexes"
                    " WHERE relname = 'memory_units'"
                    " AND (indexrelname LIKE '%_hnsw' OR indexrelname LIKE :p)"
                ),
                {"p": PREFIX + "%"},
            )
            return {str(r[0]): int(r[1]) for r in rows}
    finally:
        await engine.dispose()


def scans_between(before: dict[str, int], after: dict[str, int]) -> dict[str, int]:
    """Scans per index between two :func:`hnsw_scans` (indexes scanned at least once)."""
    return {k: v - before.get(k, 0) for k, v in sorted(after.items()) if v - before.get(k, 0)}

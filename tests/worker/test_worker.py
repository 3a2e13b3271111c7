"""The worker as a real process (``python -m app.cli.main worker``): SIGKILLed in the middle of a
job, the job completes after a restart, exactly once."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from sqlalchemy import text

from tests.conftest import count_rows, truncate_queue
from tests.fake_llm import FakeLLM, Reply, units_json
from tests.processes import terminate

ROOT = Path(__file__).resolve().parents[2]
UNITS = [
    {"type": "constraint", "value": "The user is allergic to peanuts.", "confidence": 0.95,
     "query": "When suggesting food", "entities": ["peanuts"]},
    {"type": "fact", "value": "The user lives in Lisbon.", "confidence": 0.9,
     "query": "When a task depends on where the user lives", "entities": ["Lisbon"]},
]  # fmt: skip


def start_worker(database_url: str, llm: FakeLLM) -> subprocess.Popen[bytes]:
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "LLM__BASE_URL": llm.base_url,
        "LLM__MODEL": "test-model",
        "LLM__TIMEOUT_S": "60",
        "LLM__MAX_RETRIES": "0",
        "WORKER__LEASE_S": "2",
        "WORKER__POLL_INTERVAL_S": "0.5",
        "CLOSURE__SCAN_INTERVAL_S": "0",
        "LOG_LEVEL": "WARNING",
    }
    return subprocess.Popen(
        [sys.executable, "-m", "app.cli", "worker"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )


async def job_state(engine, job_id: str) -> tuple[str, int]:  # type: ignore[no-untyped-def]
    async with engine.connect() as conn:
        row = (
            await conn.execute(
                text("SELECT status, attempts FROM extraction_jobs WHERE id = :id"), {"id": job_id}
            )
        ).one()
        return row.status, row.attempts


async def wait_for(predicate, timeout_s: float, what: str) -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if await predicate():
            return
        await asyncio.sleep(0.2)
    raise AssertionError(f"timed out waiting for {what}")


async def test_sigkilled_worker_job_completes_after_restart_exactly_once(
    client, engine, database_url, fake_llm
):
    await truncate_queue(engine)
    # The first LLM call hangs (the worker will die during it); later calls answer at once.
    fake_llm.push(Reply(content=units_json(*UNITS), delay_s=60))
    fake_llm.default = Reply(content=units_json(*UNITS))

    r = await client.post("/extract", json={
        "user_id": "u1", "messages": [{"role": "user", "content": "I'm allergic to peanuts and "
                                       "I live in Lisbon."}]})  # fmt: skip
    assert r.status_code == 202
    job_id = r.json()["id"]

    first = start_worker(database_url, fake_llm)
    second: subprocess.Popen[bytes] | None = None
    try:

        async def mid_job() -> bool:
            return len(fake_llm.requests) >= 1 and (await job_state(engine, job_id))[0] == "running"

        await wait_for(mid_job, 90, "the first worker to start the job")
        first.send_signal(signal.SIGKILL)
        assert first.wait(10) == -signal.SIGKILL
        assert await job_state(engine, job_id) == ("running", 1)
        assert await count_rows(engine) == 0  # nothing half-written

        second = start_worker(database_url, fake_llm)

        async def done() -> bool:
            return (await job_state(engine, job_id))[0] == "succeeded"

        await wait_for(done, 90, "the restarted worker to finish the job")
        assert await job_state(engine, job_id) == ("succeeded", 2)
        assert await count_rows(engine) == len(UNITS)  # written once
        assert await count_rows(engine, "extraction_jobs") == 1
        body = (await client.get(f"/extract/{job_id}")).json()
        assert sorted(u["outcome"] for u in body["units"]) == ["created", "created"]
        await asyncio.sleep(3)  # a late re-pick of the same entry must not write again
        assert await count_rows(engine) == len(UNITS)
    finally:
        for proc in (first, second):
            if proc is not None:
                terminate(proc)
    assert second is not None and second.returncode == 0, second.stderr.read().decode()[-2000:]

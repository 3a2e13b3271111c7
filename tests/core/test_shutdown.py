"""Clean shutdown with real signals on real processes: ``serve`` drains the request in flight,
stops its embedded PostgreSQL and exits 0 on SIGTERM, SIGINT and SIGHUP; ``worker`` lets a
short job finish, and hands a long one back to the queue at once after SHUTDOWN_TIMEOUT_S;
``mcp`` exits 0 over both transports."""

from __future__ import annotations

import asyncio
import shutil
import signal
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import psutil
import pytest
from sqlalchemy import text

from tests.conftest import count_rows
from tests.fake_llm import FakeLLM, Reply, units_json
from tests.live_api import free_port
from tests.processes import Proc, running, serve, worker
from tests.worker.test_worker import job_state, wait_for

UNIT = {"type": "constraint", "value": "The user is allergic to peanuts.", "confidence": 0.95,
        "query": "When suggesting food", "entities": ["peanuts"]}  # fmt: skip
MESSAGES = [{"role": "user", "content": "I'm allergic to peanuts."}]


@pytest.fixture(scope="module")
def data_dir() -> Iterator[Path]:
    """One embedded database for the module's serve runs (created once, started each run)."""
    path = Path(tempfile.mkdtemp(prefix="hindsight-shutdown-"))
    path.chmod(0o755)
    yield path
    shutil.rmtree(path, ignore_errors=True)


def postmaster_running(pgdata: Path) -> bool:
    for proc in psutil.process_iter(["cmdline"]):
        cmdline = proc.info["cmdline"] or []
        if any(part.endswith("/postgres") for part in cmdline[:1]) and str(pgdata) in cmdline:
            return True
    return False


SIGNALS = [signal.SIGTERM, signal.SIGINT, signal.SIGHUP]


@pytest.mark.parametrize("sig", SIGNALS, ids=lambda s: s.name)
def test_serve_drains_and_stops_its_embedded_postgres(data_dir, fake_llm, sig):
    fake_llm.default = Reply(content=units_json(UNIT), delay_s=1.5)
    env = {
        "DATABASE_URL": "",
        "REDIS_URL": "",
        "HINDSIGHT_DATA_DIR": str(data_dir),
        "LLM__BASE_URL": fake_llm.base_url,
        "LLM__MODEL": "test-model",
        "SHUTDOWN_TIMEOUT_S": "10",
    }
    with running(serve(env)) as (api,):
        api.wait_healthy()
        pgdata = data_dir / "pg"
        assert postmaster_running(pgdata)
        answer: dict[str, httpx.Response] = {}

        def extract() -> None:  # a request in flight when the signal arrives
            answer["r"] = httpx.post(
                f"{api.url}/extract?wait=true",
                json={"user_id": f"u-{sig.name}", "messages": MESSAGES},
                timeout=30,
            )

        thread = threading.Thread(target=extract)
        thread.start()
        deadline = time.monotonic() + 30
        while not fake_llm.requests and time.monotonic() < deadline:
            time.sleep(0.05)
        assert fake_llm.requests, "the extraction never reached the LLM"
        api.signal(sig)
        assert api.wait(30) == 0, api.log()[-3000:]
        thread.join(30)
        assert answer["r"].status_code == 200, answer["r"].text  # drained, not cut off
        assert answer["r"].json()["status"] == "succeeded"
        assert f"received {sig.name}" in api.log()
        assert "embedded PostgreSQL stopped" in api.log()
        assert not postmaster_running(pgdata)


def _worker_env(database_url: str, llm: FakeLLM, shutdown_s: float) -> dict[str, str]:
    return {
        "DATABASE_URL": database_url,
        "LLM__BASE_URL": llm.base_url,
        "LLM__MODEL": "test-model",
        "LLM__MAX_RETRIES": "0",
        "WORKER__LEASE_S": "30",
        "WORKER__POLL_INTERVAL_S": "0.5",
        "CLOSURE__SCAN_INTERVAL_S": "0",
        "SHUTDOWN_TIMEOUT_S": str(shutdown_s),
    }


async def _submit(client) -> str:  # type: ignore[no-untyped-def]
    r = await client.post("/extract", json={"user_id": "u1", "messages": MESSAGES})
    assert r.status_code == 202, r.text
    return str(r.json()["id"])


async def _queue_status(engine, job_id: str) -> list[str]:  # type: ignore[no-untyped-def]
    async with engine.connect() as conn:
        rows = await conn.execute(
            text("SELECT status FROM pgqueuer WHERE convert_from(payload, 'UTF8') = :id"),
            {"id": job_id},
        )
        return [str(r[0]) for r in rows]


async def test_worker_hands_back_a_long_job_at_once_on_sigterm(
    client, engine, database_url, fake_llm, empty_queue
):
    fake_llm.push(Reply(content=units_json(UNIT), delay_s=60))  # outlives the shutdown bound
    fake_llm.default = Reply(content=units_json(UNIT))
    job_id = await _submit(client)
    first = worker(_worker_env(database_url, fake_llm, shutdown_s=1))
    with running(first):

        async def mid_job() -> bool:
            return bool(fake_llm.requests) and (await job_state(engine, job_id))[0] == "running"

        await wait_for(mid_job, 90, "the worker to start the job")
        started = time.monotonic()
        first.signal(signal.SIGTERM)
        assert await asyncio.to_thread(first.wait, 30) == 0, first.log()[-3000:]
        assert time.monotonic() - started < 10
    async with engine.connect() as conn:
        row = (
            await conn.execute(
                text("SELECT status, attempts, max_attempts, lease_until FROM extraction_jobs"),
            )
        ).one()
    # Released: back to the queue now (not when the 30 s lease runs out), attempt not counted.
    assert (row.status, row.attempts, row.max_attempts, row.lease_until) == ("retrying", 1, 4, None)
    assert await _queue_status(engine, job_id) == ["queued"]
    assert await count_rows(engine) == 0

    second = worker(_worker_env(database_url, fake_llm, shutdown_s=5))
    with running(second):

        async def done() -> bool:
            return (await job_state(engine, job_id))[0] == "succeeded"

        await wait_for(done, 60, "the second worker to finish the job")
    assert await count_rows(engine) == 1
    assert second.popen.returncode == 0


async def test_worker_finishes_a_short_job_before_exiting_on_sighup(
    client, engine, database_url, fake_llm, empty_queue
):
    fake_llm.default = Reply(content=units_json(UNIT), delay_s=2)
    job_id = await _submit(client)
    proc = worker(_worker_env(database_url, fake_llm, shutdown_s=15))
    with running(proc):

        async def mid_job() -> bool:
            return bool(fake_llm.requests)

        await wait_for(mid_job, 90, "the worker to start the job")
        proc.signal(signal.SIGHUP)
        assert await asyncio.to_thread(proc.wait, 30) == 0, proc.log()[-3000:]
    assert await job_state(engine, job_id) == ("succeeded", 1)
    assert await count_rows(engine) == 1
    assert "received SIGHUP" in proc.log()


@pytest.mark.parametrize(
    ("transport", "sig"),
    [("streamable-http", signal.SIGTERM), ("stdio", signal.SIGTERM), ("stdio", signal.SIGHUP)],
    ids=["http-SIGTERM", "stdio-SIGTERM", "stdio-SIGHUP"],
)
def test_mcp_exits_cleanly(transport, sig):
    port = free_port()
    proc = Proc(["mcp", "--transport", transport, "--port", str(port)], {}, port)
    with running(proc):
        if transport == "streamable-http":
            proc.wait_healthy()
        else:
            # stdio: nothing to poll; the server logs once its stop signals are handled.
            deadline = time.monotonic() + 60
            while "MCP server listening on stdio" not in proc.log():
                assert proc.popen.poll() is None, proc.log()
                assert time.monotonic() < deadline, proc.log()[-3000:]
                time.sleep(0.1)
        proc.signal(sig)
        assert proc.wait(20) == 0, proc.log()[-3000:]
        assert "MCP server stopped" in proc.log()

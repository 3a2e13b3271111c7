"""The Redis window store on the real Redis: the per-process window cache never serves a
stale window, whoever wrote (two stores = two API processes)."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime

import numpy as np
import pytest
import redis.asyncio as aioredis

from app.repositories.working_memory.window import WindowCache, WindowEntry, WindowStore
from tests.conftest import REDIS_TEST_URL


@pytest.fixture
async def redis_prefix():
    r = aioredis.from_url(REDIS_TEST_URL)
    prefix = f"hindsight-test:{uuid.uuid4().hex[:12]}:"
    yield r, prefix
    keys = [k async for k in r.scan_iter(match=f"{prefix}*")]
    if keys:
        await r.delete(*keys)
    await r.aclose()


def store(r, prefix: str, cache: bool = True) -> WindowStore:
    return WindowStore(
        r,
        prefix=prefix,
        ttl_s=60,
        max_messages=3,
        max_tokens=10_000,
        cache=WindowCache(8 if cache else 0),
    )


def entry(seq: int, text: str) -> WindowEntry:
    return WindowEntry(
        seq=seq,
        role="user",
        content=text,
        created_at=datetime(2025, 1, 1, tzinfo=UTC),
        user_id="u1",
        metadata={"i": seq},
        tokens=len(text.split()),
        density=0.0,
        embedding=np.full(4, seq, np.float32),
    )


async def test_cache_follows_writes_from_another_process(redis_prefix):
    r, prefix = redis_prefix
    a, b = store(r, prefix), store(r, prefix)
    await b.add("ns", "s", [entry(1, "one")], "u1")
    first = await a.read("ns", "s", with_embeddings=False)
    assert [e.content for e in first.entries] == ["one"] and first.owner == "u1"
    assert await a.read("ns", "s", with_embeddings=False) is first  # unchanged: cached
    await b.add("ns", "s", [entry(2, "two")], None)
    second = await a.read("ns", "s", with_embeddings=False)
    assert [e.content for e in second.entries] == ["one", "two"]
    # A read that needs embeddings does not reuse a snapshot read without them.
    with_vec = await a.read("ns", "s", with_embeddings=True)
    assert with_vec.entries[1].embedding.tolist() == [2.0] * 4


async def test_cleared_and_rebuilt_window_is_not_confused_with_the_old_one(redis_prefix):
    r, prefix = redis_prefix
    a, b = store(r, prefix), store(r, prefix)
    await b.add("ns", "s", [entry(1, "old")], None)
    assert [e.content for e in (await a.read("ns", "s", with_embeddings=False)).entries] == ["old"]
    await b.clear("ns", "s")
    assert (await a.read("ns", "s", with_embeddings=False)).entries == []
    await b.add("ns", "s", [entry(1, "new")], None)  # same seq, same write count
    assert [e.content for e in (await a.read("ns", "s", with_embeddings=False)).entries] == ["new"]


async def test_add_is_idempotent_by_seq_and_trims_oldest(redis_prefix):
    r, prefix = redis_prefix
    s = store(r, prefix, cache=False)
    size = await s.add("ns", "s", [entry(i, f"m{i} x") for i in (1, 2)], None)
    assert (size.messages, size.tokens, size.trimmed) == (2, 4, 0)
    size = await s.add("ns", "s", [entry(2, "m2 x")], None)  # the same message again
    assert (size.messages, size.tokens) == (2, 4)
    size = await s.add("ns", "s", [entry(4, "m4 x"), entry(3, "m3 x")], None)  # out of order
    assert (size.messages, size.tokens, size.trimmed) == (3, 6, 1)
    snap = await s.read("ns", "s", with_embeddings=False)
    assert [e.seq for e in snap.entries] == [2, 3, 4]
    assert snap.entries[0].metadata == {"i": 2}


async def test_first_window_count_is_kept_and_old_entries_still_read(redis_prefix):
    """An entry keeps its first window's model-token count (tester D18); an entry written
    before that was kept (no ``"w"`` in its JSON: the blob of the old code) reads as
    before, without one."""
    from dataclasses import replace

    r, prefix = redis_prefix
    s = store(r, prefix, cache=False)
    kept = replace(entry(1, "one"), first_window=(5, 384, "multilingual-e5-small"))
    await s.add("ns", "s", [kept, entry(2, "two")], None)
    _, data, _, _ = s.keys("ns", "s")
    old_blob = (await r.hget(data, "2")).decode()
    assert '"w"' not in old_blob and old_blob.startswith('1\n{"r":')
    entries = (await s.read("ns", "s", with_embeddings=False)).entries
    assert [e.first_window for e in entries] == [(5, 384, "multilingual-e5-small"), None]
    assert [e.content for e in entries] == ["one", "two"]

"""Appends answer before their messages are embedded; reads that rank by relevance still see
every vector (waiting for the background task, or embedding what is missing themselves);
messages of a process that died unembedded are embedded by the next read; shutdown drains.

The background task's embedder is the real model behind a gate (:class:`GatedEmbedder`)
that holds every call until the test opens it: our own wrapper, so the test decides when
"the embedding finished" without timing anything."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import numpy as np
import pytest

from app.services.working_memory.embedding import WindowEmbeddings
from tests.services.working_memory.test_working_memory import (
    TOPICS,
    append,
    embeddings_settled,
    msg,
    window_keys,
)
from tests.services.working_memory.test_working_memory_recovery import lose_redis_data

QUERY = "when does my plane to Berlin depart?"


class GatedEmbedder:
    """The real embedder, but ``embed_passages`` waits until :attr:`gate` is set; each
    call's texts are kept in :attr:`batches`, in call order."""

    def __init__(self, inner) -> None:  # type: ignore[no-untyped-def]
        self.inner = inner
        self.model = inner.model
        self.dimension = inner.dimension
        self.gate = asyncio.Event()
        self.calls = 0
        self.batches: list[list[str]] = []

    async def embed_passages(self, texts: list[str], *, background: bool = False) -> np.ndarray:
        self.calls += 1
        self.batches.append(list(texts))
        await self.gate.wait()
        return await self.inner.embed_passages(texts, background=background)

    async def embed_queries(self, texts: list[str]) -> np.ndarray:
        return await self.inner.embed_queries(texts)

    async def aclose(self) -> None:
        return None


@pytest.fixture
async def gated(wm) -> AsyncIterator[GatedEmbedder]:  # type: ignore[no-untyped-def]
    """The app's background embedding queue, on a gated embedder (batches of 2), for this
    test; the original queue comes back afterwards."""
    runtime = wm.app.state.resources.working_memory
    original = runtime.embeddings
    embedder = GatedEmbedder(wm.app.state.resources.embedder)
    runtime.embeddings = WindowEmbeddings(embedder, batch_size=2)
    try:
        yield embedder
    finally:
        embedder.gate.set()
        await runtime.embeddings.close(30)
        runtime.embeddings = original


async def stored_vectors(wm, session: str) -> dict[int, bytes]:  # type: ignore[no-untyped-def]
    _, _, vec, _ = await window_keys(wm, session)
    return {int(k): v for k, v in (await wm.redis.hgetall(vec)).items()}


async def expected_cosines(wm, contents: list[str], query: str) -> list[float]:  # type: ignore[no-untyped-def]
    """What synchronous embedding gives: each message's cosine to the query."""
    embedder = wm.app.state.resources.embedder
    passages = await embedder.embed_passages(contents)
    q = (await embedder.embed_queries([query]))[0]
    return [float(v @ q) for v in passages]


async def ranked(wm, session: str, **params) -> dict:  # type: ignore[no-untyped-def]
    r = await wm.client.get(f"/working_memory/{session}", params=params)
    assert r.status_code == 200, r.text
    return r.json()


def assert_ranks_as(body: dict, cosines: list[float]) -> None:
    """Every message carries the cosine synchronous embedding gives, and the most similar
    one has relevance 1 (min-max over the whole window)."""
    by_seq = {m["seq"]: m for m in body["messages"]}
    assert len(by_seq) == len(cosines)
    for i, cos in enumerate(cosines, start=1):
        assert by_seq[i]["scores"]["cosine"] == pytest.approx(cos, abs=1e-4)
    best = 1 + int(np.argmax(cosines))
    assert by_seq[best]["scores"]["relevance"] == 1.0


async def test_append_answers_before_its_messages_are_embedded(wm, gated):
    body = await append(wm, "e1", *(msg(t) for t in TOPICS[:3]))
    assert body["seqs"] == [1, 2, 3]
    # Answered while the embedder is still held: durable in the window, vectors pending.
    queue = wm.app.state.resources.working_memory.embeddings
    assert queue.backlog == 3
    assert set((await stored_vectors(wm, "e1")).values()) == {b""}
    no_query = await ranked(wm, "e1")  # a read without a query needs no vector: no wait
    assert [m["seq"] for m in no_query["messages"]] == [1, 2, 3]

    gated.gate.set()
    await embeddings_settled(wm)
    stored = await stored_vectors(wm, "e1")
    expected = await wm.app.state.resources.embedder.embed_passages(TOPICS[:3])
    for seq in (1, 2, 3):
        vector = np.frombuffer(stored[seq], dtype=np.float32)
        assert float(vector @ expected[seq - 1]) > 0.999
    assert gated.calls == 2  # batches of 2: [1, 2], [3]


async def test_a_text_appended_twice_is_embedded_once(wm, gated):
    # As the append's token budget counts it (app/services/embedding_budget.py): a text
    # queued twice joins the batch of its first copy, even past the batch size (2 here).
    a, b = TOPICS[0], TOPICS[1]
    await append(wm, "twice", msg(a), msg(b), msg(a))
    gated.gate.set()
    await embeddings_settled(wm)
    assert gated.batches == [[a, b]]
    stored = await stored_vectors(wm, "twice")
    assert set(stored) == {1, 2, 3} and stored[1] == stored[3] != stored[2]


async def test_read_right_after_appends_ranks_as_with_synchronous_embedding(wm, gated):
    wm.configure(embed_wait_ms=20)
    for topic in TOPICS:  # one append per message: the first batch is held, the rest queued
        await append(wm, "e2", msg(topic))
    body = await ranked(wm, "e2", query=QUERY, max_tokens=4000)
    assert_ranks_as(body, await expected_cosines(wm, TOPICS, QUERY))
    # The read stored what it embedded; the held batch fills nothing twice.
    assert all(len(v) > 0 for v in (await stored_vectors(wm, "e2")).values())
    gated.gate.set()
    await embeddings_settled(wm)
    again = await ranked(wm, "e2", query=QUERY, max_tokens=4000)
    assert [m["scores"] for m in again["messages"]] == [m["scores"] for m in body["messages"]]


async def test_read_waits_for_the_batch_in_progress(wm, gated):
    wm.configure(embed_wait_ms=60_000)
    await append(wm, "e3", msg(TOPICS[0]), msg(TOPICS[1]))  # one batch, held
    read = asyncio.create_task(ranked(wm, "e3", query=QUERY))
    for _ in range(20):
        await asyncio.sleep(0.01)
    assert not read.done()  # waiting for the background batch, not embedding twice
    gated.gate.set()
    body = await read
    assert_ranks_as(body, await expected_cosines(wm, TOPICS[:2], QUERY))
    assert gated.calls == 1


async def test_messages_of_a_process_that_died_are_embedded_on_read(wm, gated):
    await append(wm, "e4", *(msg(t) for t in TOPICS))
    await append(wm, "e5", *(msg(t) for t in TOPICS[:3]))
    # The process dies before embedding: its queue is gone (a new process has an empty one).
    runtime = wm.app.state.resources.working_memory
    dead = runtime.embeddings
    runtime.embeddings = WindowEmbeddings(wm.app.state.resources.embedder)
    runtime.windows._items.clear()
    try:
        assert set((await stored_vectors(wm, "e4")).values()) == {b""}
        body = await ranked(wm, "e4", query=QUERY)
        assert_ranks_as(body, await expected_cosines(wm, TOPICS, QUERY))
        assert all(len(v) > 0 for v in (await stored_vectors(wm, "e4")).values())
        # Redis lost the window too: the recovery path rebuilds it and the read embeds.
        await lose_redis_data(wm)
        body = await ranked(wm, "e5", query=QUERY)
        assert_ranks_as(body, await expected_cosines(wm, TOPICS[:3], QUERY))
    finally:
        await runtime.embeddings.close(30)
        runtime.embeddings = dead  # the fixture opens its gate and closes it


async def test_shutdown_drains_the_queue(wm, gated):
    await append(wm, "e6", *(msg(t) for t in TOPICS[:5]))
    runtime = wm.app.state.resources.working_memory
    closing = asyncio.create_task(runtime.close(60))
    for _ in range(20):
        await asyncio.sleep(0.01)
    assert not closing.done()  # draining: the held batch and the queued ones
    gated.gate.set()
    assert await closing == 0
    stored = await stored_vectors(wm, "e6")
    assert sorted(stored) == [1, 2, 3, 4, 5] and all(len(v) > 0 for v in stored.values())


async def test_drain_that_runs_out_of_time_loses_no_message(wm, gated):
    await append(wm, "e7", *(msg(t) for t in TOPICS[:3]))
    runtime = wm.app.state.resources.working_memory
    assert await runtime.close(0.05) == 3  # the embedder never answered in time
    # The messages are in the window; the first read that ranks embeds them.
    body = await ranked(wm, "e7", query=QUERY)
    assert_ranks_as(body, await expected_cosines(wm, TOPICS[:3], QUERY))


async def test_stale_vector_never_lands_in_a_newer_window(wm, gated):
    await append(wm, "e8", msg("the old secret is 1234"))  # held in the gated batch
    r = await wm.client.delete("/working_memory/e8", params={"purge": "true"})
    assert r.status_code == 200
    await append(wm, "e8", msg(TOPICS[1]))  # seq 1 again, in a new window incarnation
    gated.gate.set()
    await embeddings_settled(wm)
    stored = np.frombuffer((await stored_vectors(wm, "e8"))[1], dtype=np.float32)
    new, old = await wm.app.state.resources.embedder.embed_passages(
        [TOPICS[1], "the old secret is 1234"]
    )
    assert float(stored @ new) > 0.999 and float(stored @ old) < 0.99


async def test_app_shutdown_drains_before_closing_redis(database_url, engine):
    """The lifespan's shutdown (what SIGTERM leads to, app/core/graceful.py) embeds and
    stores what the appends left queued before it closes the embedder and Redis."""
    import uuid

    import redis.asyncio as aioredis

    from app.core.config import Settings, WorkingMemorySettings
    from tests.conftest import REDIS_TEST_URL, running_app

    prefix = f"hindsight-test:{uuid.uuid4().hex[:12]}:"
    settings = Settings(
        database_url=database_url,
        redis_url=REDIS_TEST_URL,
        working_memory=WorkingMemorySettings(key_prefix=prefix),
    )
    redis = aioredis.from_url(REDIS_TEST_URL)
    try:
        async with running_app(settings, shutdown_timeout=60) as (app, c):
            runtime = app.state.resources.working_memory
            gated = GatedEmbedder(app.state.resources.embedder)
            runtime.embeddings.embedder = gated
            r = await c.post(
                "/working_memory/d1/messages",
                json={"messages": [{"role": "user", "content": t} for t in TOPICS[:4]]},
            )
            assert r.status_code == 200, r.text
            assert runtime.embeddings.backlog == 4
            asyncio.get_running_loop().call_later(0.2, gated.gate.set)
        # Shut down: the queue was drained, then Redis closed.
        vec = f"{prefix}wm:{{default:d1}}:vec"
        stored = {int(k): v for k, v in (await redis.hgetall(vec)).items()}
        assert sorted(stored) == [1, 2, 3, 4] and all(len(v) > 0 for v in stored.values())
    finally:
        keys = [k async for k in redis.scan_iter(match=f"{prefix}*", count=1000)]
        if keys:
            await redis.delete(*keys)
        await redis.aclose()


FAMILY = "👩\u200d👩\u200d👧\u200d👦"  # 7 code points, 7 model tokens
BACKGROUND_TASK = "working-memory embeddings"


def record_read_embeddings(wm, seen: list[list[str]]):  # type: ignore[no-untyped-def]
    """Have the real model record what is embedded outside the background task (the read's
    own embedding); returns a function that puts the model back."""
    embedder = wm.app.state.resources.embedder
    inner = embedder.inner

    class Recording:
        def __getattr__(self, name):  # type: ignore[no-untyped-def]
            return getattr(inner, name)

        async def embed_passages(self, texts, *, background=False):  # type: ignore[no-untyped-def]
            out = await inner.embed_passages(texts, background=background)
            task = asyncio.current_task()
            if task is None or task.get_name() != BACKGROUND_TASK:
                seen.append(list(texts))
            return out

    embedder.inner = Recording()

    def restore() -> None:
        embedder.inner = inner

    return restore


async def test_a_read_waits_for_the_appends_background_work_past_its_own_budget(wm, gated):
    """Messages past the read's own embedding budget that this process's background has
    queued or is embedding were paid for by their appends: the read waits for them (the queue
    takes this session's first) instead of ranking them without relevance, and embeds itself
    no more than its budget. A message whose first window is the whole 384 tokens (never
    within a read's budget, the query takes part of it) is among them (issue 31, F1, F4)."""
    wm.configure(embed_wait_ms=60_000)
    batches = gated.batches
    other = [f"other session {i}" for i in range(4)]
    await append(wm, "w0", *(msg(t) for t in other))  # [0, 1] held, [2, 3] queued
    notes = [f"{FAMILY * 16} note {i}" for i in range(8)]  # ~120 model tokens each
    long = "Boarding pass to Berlin: " + FAMILY * 200  # first window: 384 tokens
    for text in [*notes, long]:
        await append(wm, "w1", msg(text))
    seen: list[list[str]] = []
    restore = record_read_embeddings(wm, seen)
    try:
        read = asyncio.create_task(ranked(wm, "w1", query=QUERY, max_tokens=8000))
        for _ in range(3000):  # the read's own embedding, then its wait
            if seen:
                break
            await asyncio.sleep(0.01)
        for _ in range(20):
            await asyncio.sleep(0.01)
        assert seen and not read.done()  # waiting for the background, not ranking without
        gated.gate.set()
        body = await read
    finally:
        restore()
    assert body["unembedded_seqs"] == []
    assert all(m["scores"]["relevance"] is not None for m in body["messages"])
    tokens = wm.app.state.resources.model_tokens
    spent = sum(tokens.count(t) for call in seen for t in call)
    assert 0 < spent <= 384 - tokens.count(QUERY, query=True)
    assert not any(t.startswith("Boarding pass") for call in seen for t in call)
    # The background embedded the rest, this session's queued jobs before the other's, in
    # append order (the read embedded the newest, 5..7, itself), each once. The read answers
    # as soon as its last batch has its vectors, while the background still stores them and
    # has yet to start the other session's batch: the whole order is known once it is idle.
    await embeddings_settled(wm)
    assert batches == [other[:2], notes[0:2], notes[2:4], [notes[4], long], other[2:]]
    assert all(len(v) > 0 for v in (await stored_vectors(wm, "w1")).values())


async def test_a_read_waits_once_until_its_deadline(wm, gated):
    """The background never answers (gate held): a window read returns at its deadline with
    the messages it could not embed itself ranked without relevance."""
    wait_s = 1.5
    wm.configure(embed_wait_ms=int(wait_s * 1000))
    notes = [f"{FAMILY * 16} note {i}" for i in range(6)]
    for text in notes:
        await append(wm, "w2", msg(text, user_id="u1"))
    loop = asyncio.get_running_loop()
    start = loop.time()
    body = await ranked(wm, "w2", query=QUERY)
    took = loop.time() - start
    assert wait_s <= took < 2 * wait_s
    # The newest (within the read's budget) ranked by relevance, the oldest waited for.
    assert body["unembedded_seqs"] and body["unembedded_seqs"][0] == 1
    assert body["unembedded_seqs"] == list(range(1, len(body["unembedded_seqs"]) + 1))


async def test_context_waits_once_until_its_deadline(wm, gated):
    """/context reads the window twice (before and after it knows its query): the
    background never answering (gate held), it waits once, until its one deadline."""
    wait_s = 1.5
    wm.configure(embed_wait_ms=int(wait_s * 1000))
    notes = [f"{FAMILY * 16} note {i}" for i in range(4)]
    loop = asyncio.get_running_loop()
    await append(wm, "w3", *(msg(t, user_id="u1") for t in notes[:2]))  # held: running
    await append(wm, "w3", *(msg(t, user_id="u1") for t in notes[2:4]))  # queued
    start = loop.time()
    r = await wm.client.get("/context", params={"user_id": "u1", "session_id": "w3"})
    took = loop.time() - start
    assert r.status_code == 200, r.text
    assert wait_s <= took < 2 * wait_s

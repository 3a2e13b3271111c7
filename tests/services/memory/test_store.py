"""``POST /store`` and ``GET /memories/{id}``: round trips in English and Chinese, dedupe
(merge, normalised duplicates, negation kept apart, scope), concurrent identical stores,
and ``Idempotency-Key``."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest
from sqlalchemy import text

from tests.conftest import count_rows


def unit(value: str, **over: Any) -> dict[str, Any]:
    return {"user_id": "alice", "value": value, **over}


async def store(client: httpx.AsyncClient, *memories: dict[str, Any], **kw: Any) -> list[dict]:
    r = await client.post("/store", json={"memories": list(memories)}, **kw)
    assert r.status_code == 200, r.text
    return r.json()["results"]


def parse_time(value: str) -> datetime:
    return datetime.fromisoformat(value.replace("Z", "+00:00"))


# ---- round trips ------------------------------------------------------------------------------


async def test_round_trip_english(client, engine):
    before = datetime.now(UTC)
    [res] = await store(
        client,
        unit(
            "The user is allergic to peanuts",
            type="constraint",
            agent_id="travel-bot",
            session_id="s-1",
            task_id="t-9",
            query="when the user orders food or picks a restaurant",
            entities=["peanuts"],
            confidence=0.9,
            source="agent",
            raw_ref="session s-1 turn 4",
            metadata={"channel": "chat", "tags": ["health", 1, None, True]},
            occurred_at="2026-03-01T09:30:00Z",
            ttl_days=10,
        ),
    )
    assert res["outcome"] == "created"
    m = res["memory"]
    assert m["id"] == res["id"]
    assert (m["user_id"], m["agent_id"], m["session_id"], m["task_id"]) == (
        "alice",
        "travel-bot",
        "s-1",
        "t-9",
    )
    assert m["type"] == "constraint" and m["source"] == "agent" and m["confidence"] == 0.9
    assert m["value"] == "The user is allergic to peanuts"
    assert m["query"] == "when the user orders food or picks a restaurant"
    assert m["entities"] == ["peanuts"] and m["raw_ref"] == ["session s-1 turn 4"]
    assert m["metadata"] == {"channel": "chat", "tags": ["health", 1, None, True]}
    assert m["status"] == "active" and m["superseded_by"] is None and m["conflicts_with"] == []
    # A naive occurred_at means UTC.
    assert parse_time(m["occurred_at"]) == datetime(2026, 3, 1, 9, 30, tzinfo=UTC)
    created = parse_time(m["created_at"])
    assert before - timedelta(seconds=1) <= created <= datetime.now(UTC)
    assert parse_time(m["last_confirmed_at"]) == created
    expires = parse_time(m["expires_at"])
    assert abs(expires - (created + timedelta(days=10))) < timedelta(seconds=5)

    r = await client.get(f"/memories/{res['id']}")
    assert r.status_code == 200, r.text
    read = r.json()
    # GET /memories/{id} adds the usage counts (MemoryDetail) to the stored unit.
    assert (read.pop("access_count"), read.pop("merge_count")) == (0, 0)
    assert read.pop("access_window_days") > 0
    assert {k: v for k, v in read.items() if k != "last_accessed_at"} == {
        k: v for k, v in m.items() if k != "last_accessed_at"
    }
    assert await count_rows(engine) == 1

    r = await client.post(
        "/recall", json={"query": "can the user eat satay sauce?", "user_id": "alice"}
    )
    assert r.status_code == 200, r.text
    assert r.json()["memories"][0]["id"] == res["id"]


async def test_round_trip_chinese(client, engine):
    [res] = await store(
        client,
        unit(
            "用户住在上海，在陆家嘴上班。",
            type="fact",
            entities=["上海", "陆家嘴"],
            query="当用户问通勤或周末去哪儿玩时",
        ),
    )
    assert res["outcome"] == "created"
    m = res["memory"]
    assert m["value"] == "用户住在上海，在陆家嘴上班。"
    assert m["entities"] == ["上海", "陆家嘴"]
    r = await client.get(f"/memories/{res['id']}")
    assert r.status_code == 200 and r.json()["value"] == "用户住在上海，在陆家嘴上班。"
    r = await client.post("/recall", json={"query": "用户在哪里工作？", "user_id": "alice"})
    assert r.status_code == 200, r.text
    assert [h["id"] for h in r.json()["memories"]] == [res["id"]]
    assert await count_rows(engine) == 1


async def test_defaults(client):
    [res] = await store(client, unit("The user's bike is blue"))
    m = res["memory"]
    # the type read from the value (tests/api/test_store_inferred.py): nothing says one
    assert (m["type"], m["source"], m["confidence"]) == ("fact", "user", 1.0)
    assert m["agent_id"] is None and m["query"] is None and m["entities"] == []
    assert m["raw_ref"] == [] and m["metadata"] == {"inferred": ["type"]}  # read, not given
    # occurred_at defaults to the time of the store.
    assert parse_time(m["occurred_at"]) == parse_time(m["created_at"])


async def test_batch_results_come_in_input_order(client, engine):
    values = ["The user plays the cello", "用户养了一只猫", "The user's team uses Rust"]
    results = await store(client, *(unit(v) for v in values))
    assert [r["memory"]["value"] for r in results] == values
    assert [r["outcome"] for r in results] == ["created"] * 3
    assert len({r["id"] for r in results}) == 3
    assert await count_rows(engine) == 3


async def test_server_timing_names_the_stages(client):
    r = await client.post("/store", json={"memories": [unit("The user's cat is called Miso")]})
    assert r.status_code == 200, r.text
    parts = dict(p.split(";dur=") for p in r.headers["Server-Timing"].split(", "))
    assert list(parts) == ["embed", "lock", "read", "decide", "write", "total"]
    ms = {k: float(v) for k, v in parts.items()}
    assert all(v >= 0 for v in ms.values()) and ms["embed"] > 0
    assert sum(v for k, v in ms.items() if k != "total") <= ms["total"] + 0.05


# ---- dedupe -----------------------------------------------------------------------------------


async def test_near_duplicate_merges_into_the_existing_unit(client, engine):
    [first] = await store(
        client,
        unit(
            "The user prefers window seats",
            confidence=0.8,
            raw_ref="turn-1",
            entities=["window seat"],
        ),
    )
    await asyncio.sleep(0.01)
    [second] = await store(
        client,
        unit(
            "The user prefers a window seat.",
            confidence=0.6,
            source="agent",
            raw_ref=["turn-7", "turn-8"],
            entities=["Window Seat", "KLM"],
            query="when booking a flight",
            metadata={"via": "extraction"},
        ),
    )
    assert second["outcome"] == "merged"
    assert second["id"] == first["id"]
    m = second["memory"]
    assert m["value"] == "The user prefers window seats"  # the existing text is kept
    # Confidence raised by noisy-OR: 1 - (1 - 0.8)(1 - 0.6) = 0.92.
    assert m["confidence"] == pytest.approx(0.92)
    assert parse_time(m["last_confirmed_at"]) > parse_time(first["memory"]["last_confirmed_at"])
    assert parse_time(m["created_at"]) == parse_time(first["memory"]["created_at"])
    assert m["raw_ref"] == ["turn-1", "turn-7", "turn-8"]  # every source reference kept
    assert m["entities"] == ["window seat", "Window Seat", "KLM"]
    assert m["query"] == "when booking a flight"
    assert m["metadata"]["sources"] == ["user", "agent"]
    assert m["metadata"]["via"] == "extraction"
    assert await count_rows(engine) == 1
    r = await client.get(f"/memories/{first['id']}")
    assert r.json()["confidence"] == pytest.approx(0.92)


@pytest.mark.parametrize(
    ("first", "again"),
    [
        ("The user is allergic to peanuts.", "  THE USER IS ALLERGIC TO PEANUTS  "),
        ("The user's order is SKU-42!", "the user's order is sku 42"),
        ("用户住在上海。", "用户住在上海"),
        ("用户喜欢喝绿茶！", "用户喜欢喝绿茶!"),
        ("用户的股票代码是６００５１９", "用户的股票代码是600519。"),
        ("ＡＰＩ key rotates monthly", "API key rotates monthly"),
    ],
    ids=[
        "case-space",
        "punctuation",
        "zh-full-stop",
        "zh-full-width-bang",
        "full-width-digits",
        "full-width-latin",
    ],
)
async def test_normalised_duplicates_always_merge(client, engine, first, again):
    [a] = await store(client, unit(first))
    [b] = await store(client, unit(again))
    assert (b["outcome"], b["id"]) == ("merged", a["id"])
    assert await count_rows(engine) == 1


async def test_duplicates_in_one_batch_leave_one_row(client, engine):
    results = await store(
        client, unit("用户对花生过敏"), unit("用户对花生过敏。"), unit("用户 对 花生 过敏")
    )
    assert [r["outcome"] for r in results] == ["created", "merged", "merged"]
    assert len({r["id"] for r in results}) == 1
    assert await count_rows(engine) == 1


@pytest.mark.parametrize(
    ("first", "negated"),
    [
        ("I like cilantro", "I don't like cilantro"),
        ("The user is available on weekends", "The user is not available on weekends"),
        ("用户喜欢香菜", "用户不喜欢香菜"),
        ("用户周末有空", "用户周末没空"),
    ],
)
async def test_negation_is_never_merged(client, engine, first, negated):
    [a] = await store(client, unit(first))
    [b] = await store(client, unit(negated))
    assert b["outcome"] != "merged"
    assert b["id"] != a["id"]
    assert b["memory"]["value"] == negated
    assert await count_rows(engine) == 2


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("Alice reports to Bob", "Bob reports to Alice"),
        ("用户借给张三100元", "张三借给用户100元"),
        ("用户住在上海。", "用户对花生过敏。"),
    ],
    ids=["swapped-roles", "zh-swapped-roles", "zh-unrelated-close-cosine"],
)
async def test_hard_non_duplicates_are_not_merged(client, engine, first, second):
    [a] = await store(client, unit(first))
    [b] = await store(client, unit(second))
    assert b["outcome"] != "merged" and b["id"] != a["id"]
    assert await count_rows(engine) == 2


async def test_disagreeing_entities_keep_near_duplicates_apart(client, engine):
    [a] = await store(client, unit("The user's sister is named Anna", entities=["Anna"]))
    [b] = await store(client, unit("The user's sister is named Anna.", entities=["Anne"]))
    # Normalised-equal text always merges, whatever the entities say...
    assert (b["outcome"], b["id"]) == ("merged", a["id"])
    [c] = await store(client, unit("The user prefers the window seat", entities=["Lufthansa"]))
    [d] = await store(client, unit("The user prefers a window seat", entities=["KLM"]))
    # ...but near-duplicates naming different entities stay apart.
    assert c["outcome"] == "created" and d["outcome"] != "merged"
    assert await count_rows(engine) == 3


async def test_dedupe_stays_within_the_subject(client, engine):
    value = "The user prefers aisle seats"
    [a] = await store(client, unit(value))
    [b] = await store(client, unit(value, user_id="bob"))
    [c] = await store(client, unit(value, agent_id="travel-bot"))
    [d] = await store(client, unit(value, agent_id="travel-bot"))
    assert [x["outcome"] for x in (a, b, c, d)] == ["created", "created", "created", "merged"]
    assert len({a["id"], b["id"], c["id"]}) == 3 and d["id"] == c["id"]
    assert await count_rows(engine) == 3


async def test_only_active_units_absorb_duplicates(client, engine):
    [a] = await store(client, unit("The user drives a Volvo"))
    async with engine.begin() as conn:
        await conn.execute(text("UPDATE memory_units SET status = 'superseded'"))
    [b] = await store(client, unit("The user drives a Volvo"))
    assert b["outcome"] == "created" and b["id"] != a["id"]
    assert await count_rows(engine) == 2


# ---- concurrency ------------------------------------------------------------------------------


@pytest.mark.parametrize("n", [2, 10])
async def test_concurrent_identical_stores_leave_one_row(client, engine, n):
    body = {"memories": [unit("The user's favourite airline is KLM", confidence=0.5)]}
    responses = await asyncio.gather(*(client.post("/store", json=body) for _ in range(n)))
    assert all(r.status_code == 200 for r in responses), [r.text for r in responses]
    results = [r.json()["results"][0] for r in responses]
    assert sorted(r["outcome"] for r in results) == ["created"] + ["merged"] * (n - 1)
    assert len({r["id"] for r in results}) == 1
    assert await count_rows(engine) == 1
    # Every store was counted: confidence 1 - 0.5^n.
    r = await client.get(f"/memories/{results[0]['id']}")
    assert r.json()["confidence"] == pytest.approx(1 - 0.5**n)


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("The user enjoys hiking", "The user likes hiking"),
        ("用户有两个孩子", "用户有2个孩子"),
        ("The flight leaves at 9pm", "The flight leaves at 21:00"),
    ],
)
async def test_concurrent_stores_of_two_paraphrases_leave_one_unit(client, engine, first, second):
    bodies = [{"memories": [unit(v)]} for v in (first, second)]
    responses = await asyncio.gather(*(client.post("/store", json=b) for b in bodies))
    assert all(r.status_code == 200 for r in responses), [r.text for r in responses]
    results = [r.json()["results"][0] for r in responses]
    assert sorted(r["outcome"] for r in results) == ["created", "merged"]
    assert len({r["id"] for r in results}) == 1
    assert await count_rows(engine) == 1


async def test_concurrent_batches_in_opposite_order_do_not_deadlock(client, engine):
    x = unit("用户喜欢爬山", user_id="carol")
    y = unit("The user collects stamps", user_id="dave")
    responses = await asyncio.gather(
        client.post("/store", json={"memories": [x, y]}),
        client.post("/store", json={"memories": [y, x]}),
    )
    assert [r.status_code for r in responses] == [200, 200]
    assert await count_rows(engine) == 2


# ---- Idempotency-Key --------------------------------------------------------------------------


async def test_idempotency_key_replays_the_first_response(client, engine):
    body = {"memories": [unit("The user is learning Portuguese", confidence=0.5)]}
    headers = {"Idempotency-Key": "req-1"}
    first = await client.post("/store", json=body, headers=headers)
    assert first.status_code == 200, first.text
    assert first.headers["Idempotent-Replayed"] == "false"
    again = await client.post("/store", json=body, headers=headers)
    assert again.status_code == 200
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.json() == first.json()
    assert await count_rows(engine) == 1
    # The retry did not act: no merge, confidence unchanged.
    r = await client.get(f"/memories/{first.json()['results'][0]['id']}")
    assert r.json()["confidence"] == 0.5
    # Without the key the same body is a new store (here: a merge).
    plain = await client.post("/store", json=body)
    assert plain.json()["results"][0]["outcome"] == "merged"
    assert "Idempotent-Replayed" not in plain.headers


async def test_idempotency_key_with_another_body_is_422(client, engine):
    headers = {"Idempotency-Key": "req-2"}
    r = await client.post(
        "/store", json={"memories": [unit("The user likes tea")]}, headers=headers
    )
    assert r.status_code == 200
    r = await client.post(
        "/store", json={"memories": [unit("The user likes coffee")]}, headers=headers
    )
    assert r.status_code == 422
    assert r.headers["content-type"].startswith("application/problem+json")
    assert r.json()["code"] == "idempotency_key_reused"
    assert "req-2" in r.json()["detail"]
    assert await count_rows(engine) == 1
    async with engine.connect() as conn:
        values = (await conn.execute(text("SELECT value FROM memory_units"))).scalars().all()
    assert values == ["The user likes tea"]


async def test_concurrent_retries_with_one_key_act_once(client, engine):
    body = {"memories": [unit("The user's gym is on Elm Street", confidence=0.5)]}
    responses = await asyncio.gather(
        *(client.post("/store", json=body, headers={"Idempotency-Key": "req-3"}) for _ in range(4))
    )
    assert all(r.status_code == 200 for r in responses)
    assert sorted(r.headers["Idempotent-Replayed"] for r in responses) == [
        "false",
        "true",
        "true",
        "true",
    ]
    assert len({r.text for r in responses}) == 1
    assert await count_rows(engine) == 1


async def test_idempotency_keys_are_per_key(client, engine):
    body = {"memories": [unit("The user's cat is called Miso")]}
    a = await client.post("/store", json=body, headers={"Idempotency-Key": "k-a"})
    b = await client.post("/store", json=body, headers={"Idempotency-Key": "k-b"})
    assert a.json()["results"][0]["outcome"] == "created"
    assert b.json()["results"][0]["outcome"] == "merged"
    assert b.headers["Idempotent-Replayed"] == "false"


async def test_failed_request_does_not_consume_the_key(client, engine):
    headers = {"Idempotency-Key": "req-4"}
    bad = await client.post("/store", json={"memories": [unit("")]}, headers=headers)
    assert bad.status_code == 422
    good = await client.post("/store", json={"memories": [unit("The user rows")]}, headers=headers)
    assert good.status_code == 200 and good.headers["Idempotent-Replayed"] == "false"
    assert await count_rows(engine) == 1


# ---- reads ------------------------------------------------------------------------------------


async def test_read_is_scoped_to_the_user_when_asked(client):
    [a] = await store(client, unit("The user's PIN hint is the dog's birthday"))
    ok = await client.get(f"/memories/{a['id']}", params={"user_id": "alice"})
    assert ok.status_code == 200 and ok.json()["user_id"] == "alice"
    other = await client.get(f"/memories/{a['id']}", params={"user_id": "bob"})
    missing = await client.get(
        "/memories/0190b8a4-7c1e-7000-8000-000000000000", params={"user_id": "bob"}
    )
    # Another user's unit is answered exactly like a missing one.
    assert other.status_code == missing.status_code == 404
    assert other.json()["code"] == missing.json()["code"] == "not_found"
    assert other.json()["detail"].replace(a["id"], "ID") == missing.json()["detail"].replace(
        "0190b8a4-7c1e-7000-8000-000000000000", "ID"
    )


async def test_sharing_one_slot_is_not_the_same_memory(client, engine):
    # Both say where the user lives, but each carries another fact: merging would lose one.
    [a] = await store(client, unit("The user lives in Berlin and works remotely"))
    [b] = await store(client, unit("The user lives in Berlin and keeps two cats"))
    assert b["outcome"] != "merged" and b["id"] != a["id"]
    [c] = await store(client, unit("用户住在上海，在银行工作"))
    [d] = await store(client, unit("用户住在上海，养了一只猫"))
    assert d["outcome"] != "merged" and d["id"] != c["id"]
    assert await count_rows(engine) == 4

"""The REST additions the console reads (and REST users get too): ``GET /stats``,
``GET /subjects``, ``GET /extract``, a unit's access and merge counts, recall's applied
weights, and the window messages left out with the reason."""

from __future__ import annotations

import math

import pytest

JOB_STATES = ["queued", "running", "retrying", "succeeded", "failed", "cancelled"]


async def store(client, *memories: dict) -> list[dict]:  # type: ignore[no-untyped-def]
    r = await client.post("/store", json={"memories": list(memories)})
    assert r.status_code == 200, r.text
    return r.json()["results"]


async def test_stats_counts_units_per_type_and_status_and_jobs_per_state(client):
    assert (await client.get("/stats")).json() == {
        "namespace": "default",
        "units": {},
        "total_units": 0,
        "jobs": dict.fromkeys(JOB_STATES, 0),
        "sessions": 0,
        "open_reviews": 0,
    }
    await store(
        client,
        {"user_id": "u1", "value": "The user lives in Shanghai.",
         "occurred_at": "2026-01-10T00:00:00Z", "entities": ["Shanghai"]},
        {"user_id": "u1", "type": "preference", "value": "用户喜欢靠窗的座位。"},
        {"user_id": "u2", "agent_id": "planner", "type": "constraint",
         "value": "Bob never flies before 9 am."},
    )  # fmt: skip
    moved = "The user moved to Beijing and now lives there."
    await store(
        client,
        {"user_id": "u1", "value": moved, "occurred_at": "2026-06-01T00:00:00Z",
         "entities": ["Beijing"]},
    )  # fmt: skip
    r = await client.post(
        "/extract?wait=true",
        json={"user_id": "u3", "messages": [{"role": "user", "content": "I live in Lyon."}]},
    )
    assert r.status_code == 200, r.text
    stats = (await client.get("/stats")).json()
    assert stats["units"]["fact"]["superseded"] == 1
    assert stats["units"]["preference"] == {"active": 1}
    assert stats["units"]["constraint"] == {"active": 1}
    assert stats["total_units"] == sum(n for t in stats["units"].values() for n in t.values())
    assert stats["jobs"] == {**dict.fromkeys(JOB_STATES, 0), "succeeded": 1}
    # One subject only.
    bob = (await client.get("/stats", params={"user_id": "u2"})).json()
    assert bob["units"] == {"constraint": {"active": 1}} and bob["total_units"] == 1
    assert bob["jobs"]["succeeded"] == 0
    assert (await client.get("/stats", params={"agent_id": "planner"})).json()["total_units"] == 1


async def test_subjects_page_by_id_with_counts_prefix_and_cursor(client):
    await store(
        client,
        {"user_id": "alice", "value": "Alice is allergic to peanuts", "session_id": "s-1"},
        {"user_id": "alice", "value": "Alice prefers window seats", "agent_id": "travel"},
        {"user_id": "a_b", "value": "An underscore user"},
        {"user_id": "axb", "value": "Not matched by the prefix a_"},
        {"user_id": "张三", "value": "用户住在上海。"},
    )
    [axb] = (await client.get("/memories", params={"user_id": "axb"})).json()["memories"]
    r = await client.patch(f"/memories/{axb['id']}", json={"status": "archived"})
    assert r.status_code == 200, r.text
    seen, cursor = [], None
    while True:
        r = await client.get(
            "/subjects", params={"limit": 2, **({"cursor": cursor} if cursor else {})}
        )
        assert r.status_code == 200, r.text
        page = r.json()
        seen += page["subjects"]
        cursor = page["next_cursor"]
        if cursor is None:
            break
    assert sorted(s["id"] for s in seen) == sorted(["a_b", "alice", "axb", "张三"])
    assert len(seen) == 4  # none repeated across pages
    by_id = {s["id"]: s for s in seen}
    assert (by_id["alice"]["units"], by_id["alice"]["active_units"]) == (2, 2)
    assert (by_id["axb"]["units"], by_id["axb"]["active_units"]) == (1, 0)
    assert by_id["alice"]["kind"] == "user" and by_id["alice"]["last_stored_at"]
    # LIKE wildcards in the prefix are literal.
    r = await client.get("/subjects", params={"prefix": "a_"})
    assert [s["id"] for s in r.json()["subjects"]] == ["a_b"]
    r = await client.get("/subjects", params={"prefix": "张"})
    assert [s["id"] for s in r.json()["subjects"]] == ["张三"]
    agents = (await client.get("/subjects", params={"kind": "agent"})).json()["subjects"]
    assert [(a["id"], a["units"]) for a in agents] == [("travel", 1)]


async def test_subjects_sessions_join_units_and_transcripts(client):
    await store(
        client,
        {"user_id": "alice", "value": "Alice likes tea", "session_id": "both"},
        {"user_id": "alice", "value": "Alice likes jazz", "session_id": "units-only"},
    )
    for session in ("both", "talk-only"):
        r = await client.post(
            f"/working_memory/{session}/messages",
            json={"messages": [{"role": "user", "content": "hello there", "user_id": "alice"}]},
        )
        assert r.status_code == 200, r.text
    sessions = (await client.get("/subjects", params={"kind": "session"})).json()["subjects"]
    by_id = {s["id"]: s for s in sessions}
    assert list(by_id) == ["both", "talk-only", "units-only"]
    assert (by_id["both"]["units"], by_id["both"]["messages"]) == (1, 1)
    assert by_id["both"]["tokens"] > 0 and by_id["both"]["user_id"] == "alice"
    assert (by_id["talk-only"]["units"], by_id["talk-only"]["messages"]) == (0, 1)
    assert (by_id["units-only"]["units"], by_id["units-only"]["messages"]) == (1, None)
    mine = await client.get("/subjects", params={"kind": "session", "user_id": "nobody"})
    assert mine.json()["subjects"] == []


@pytest.mark.parametrize(
    "params",
    [
        {"kind": "user", "user_id": "alice"},
        {"kind": "robot"},
        {"limit": 0},
        {"limit": 201},
        {"cursor": "not-a-cursor"},
    ],
)
async def test_bad_subject_queries_are_422(client, params):
    r = await client.get("/subjects", params=params)
    assert r.status_code == 422, r.text
    assert r.headers["content-type"].startswith("application/problem+json")
    assert r.json()["code"] == "invalid_request"


async def test_a_subject_cursor_only_works_with_its_filters(client):
    await store(client, *({"user_id": f"u{i}", "value": f"fact number {i}"} for i in range(3)))
    cursor = (await client.get("/subjects", params={"limit": 1})).json()["next_cursor"]
    assert cursor
    r = await client.get("/subjects", params={"limit": 1, "cursor": cursor, "prefix": "u"})
    assert r.status_code == 422 and "other filters" in r.json()["detail"]


async def test_unit_detail_counts_recalls_and_merges(client):
    [first] = await store(client, {"user_id": "u1", "value": "The user is allergic to peanuts"})
    detail = (await client.get(f"/memories/{first['id']}")).json()
    assert (detail["access_count"], detail["merge_count"]) == (0, 0)
    assert detail["access_window_days"] == 90
    for _ in range(2):
        r = await client.post("/recall", json={"query": "peanut allergy", "user_id": "u1"})
        assert [m["id"] for m in r.json()["memories"]] == [first["id"]]
    [again] = await store(client, {"user_id": "u1", "value": "the user is allergic to peanuts!"})
    assert again["outcome"] == "merged"
    detail = (await client.get(f"/memories/{first['id']}")).json()
    assert (detail["access_count"], detail["merge_count"]) == (2, 1)
    # An inspection (record_access=false) is not an access.
    body = {"query": "peanut allergy", "user_id": "u1", "record_access": False}
    assert (await client.post("/recall", json=body)).json()["memories"][0]["id"] == first["id"]
    after = (await client.get(f"/memories/{first['id']}")).json()
    assert after["access_count"] == 2
    assert (after["last_accessed_at"], after["expires_at"]) == (
        detail["last_accessed_at"],
        detail["expires_at"],
    )
    # The list keeps MemoryRead (no per-unit count queries).
    listed = (await client.get("/memories")).json()["memories"][0]
    assert "access_count" not in listed


async def test_recall_answers_the_applied_weights_and_they_make_the_score(client):
    await store(
        client,
        {"user_id": "u1", "value": "The user is allergic to peanuts", "entities": ["peanuts"]},
        {"user_id": "u1", "value": "用户住在上海，在一家银行工作。", "entities": ["上海"]},
    )
    body = {"query": "peanuts at dinner", "user_id": "u1", "top_k": 2}
    answer = (await client.post("/recall", json=body)).json()
    w = answer["weights"]
    assert set(w) == {"semantic", "keyword", "recency", "confidence", "entity", "context",
                      "time", "answer_type", "recency_lambda"}  # fmt: skip
    for hit in answer["memories"]:
        total = sum(w[s] * v for s, v in hit["scores"].items())
        assert math.isclose(total, hit["score"], rel_tol=1e-9, abs_tol=1e-12)
    override = {**body, "profile": "short_term", "weights": {"keyword": 0.7, "recency_lambda": 0.5}}
    w2 = (await client.post("/recall", json=override)).json()["weights"]
    assert (w2["semantic"], w2["keyword"], w2["recency_lambda"]) == (0.5, 0.7, 0.5)


async def test_window_lists_the_messages_left_out_and_why(client):
    messages = [
        {"role": "user", "content": "The quarterly report covers revenue, costs and hiring."},
        {"role": "assistant", "content": "Noted, flight LH123 on 2026-05-03, seat 12A."},
        {"role": "user", "content": "好的，谢谢！我们明天上午十点在上海见面。"},
        {"role": "assistant", "content": "See you tomorrow at ten in Shanghai, then."},
    ]
    r = await client.post("/working_memory/s1/messages", json={"messages": messages})
    assert r.status_code == 200, r.text
    plain = (await client.get("/working_memory/s1", params={"max_tokens": 40})).json()
    assert plain["omitted"] is None and plain["omitted_seqs"]
    full = (
        await client.get("/working_memory/s1", params={"max_tokens": 40, "include_omitted": True})
    ).json()
    assert [m["seq"] for m in full["omitted"]] == full["omitted_seqs"] == plain["omitted_seqs"]
    chosen = {m["seq"] for m in full["messages"]}
    assert chosen.isdisjoint(full["omitted_seqs"])
    assert chosen | set(full["omitted_seqs"]) == {1, 2, 3, 4}
    for left in full["omitted"]:
        assert left["reason"] == "budget"
        assert left["needed_tokens"] > left["free_tokens"] >= 0
        assert left["content"] == messages[left["seq"] - 1]["content"]
        assert 1 < left["rank"] <= 4  # the best-scored message always gets in


async def test_job_list_newest_first_with_filters_and_cursor(client):
    ids = []
    for i in range(3):
        r = await client.post(
            "/extract",
            json={
                "user_id": "u1",
                "messages": [{"role": "user", "content": f"I live in city {i}."}],
            },
        )
        assert r.status_code in (200, 202), r.text
        ids.append(r.json()["id"])
    page = (await client.get("/extract", params={"limit": 2})).json()
    assert [j["id"] for j in page["jobs"]] == ids[::-1][:2]
    rest = (await client.get("/extract", params={"limit": 2, "cursor": page["next_cursor"]})).json()
    assert [j["id"] for j in rest["jobs"]] == [ids[0]] and rest["next_cursor"] is None
    assert (await client.get("/extract", params={"user_id": "nobody"})).json()["jobs"] == []
    r = await client.get("/extract", params={"limit": 2, "cursor": page["next_cursor"],
                                             "user_id": "u1"})  # fmt: skip
    assert r.status_code == 422
    r = await client.get("/extract", params={"status": "exploded"})
    assert r.status_code == 422 and r.json()["code"] == "invalid_request"


async def test_stats_of_an_agent_counts_only_its_sessions(client):
    """Tester hbreak6 G32: `/stats?agent_id=…` gave the namespace's session count, also for
    an agent that does not exist."""
    for session, agent in (("g32-a", "travel-bot"), ("g32-b", "chef-bot")):
        msg = {"role": "user", "user_id": "g32", "content": "I like trains."}
        r = await client.post(f"/working_memory/{session}/messages", json={"messages": [msg]})
        assert r.status_code == 200, r.text
        unit = {"user_id": "g32", "agent_id": agent, "session_id": session,
                "value": f"The user talked to {agent}."}  # fmt: skip
        assert (await client.post("/store", json={"memories": [unit]})).status_code == 200
    stats = lambda **q: client.get("/stats", params=q)  # noqa: E731
    assert (await stats()).json()["sessions"] == 2
    assert (await stats(agent_id="travel-bot")).json()["sessions"] == 1
    assert (await stats(agent_id="no-such-agent")).json()["sessions"] == 0

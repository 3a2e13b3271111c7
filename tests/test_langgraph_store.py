"""The LangGraph store (`hindsight_client.integrations.langgraph.HindsightStore`, langgraph
1.2.22) against the real service over HTTP (keys required, ``keyed_api_url``): put/get/
search/delete and list_namespaces through ``BaseStore``'s own methods (which batch), the
async variants, the namespace → subject mapping (default and custom) as the API sees it,
search through ``/recall`` (recall records an access), prefix search over several
namespaces, filters, items merged by the service's dedupe, TTL, and a compiled graph whose
nodes write and search through ``runtime.store``."""

from __future__ import annotations

import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TypedDict

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "clients" / "python"))

import hindsight_client as hc  # noqa: E402
from hindsight_client.integrations.langgraph import HindsightStore, entry_name  # noqa: E402
from langgraph.graph import END, START, StateGraph  # noqa: E402
from langgraph.runtime import Runtime  # noqa: E402
from langgraph.store.base import InvalidNamespaceError, Item, SearchItem  # noqa: E402


@pytest.fixture
async def api(keyed_api_url, make_api_key):
    key = await make_api_key("langgraph")
    with hc.Hindsight(keyed_api_url, key) as client:
        yield client


async def test_put_get_delete_and_the_unit_the_api_sees(api):
    store = HindsightStore(api)
    ns = ("alice", "memories")
    store.put(ns, "diet", {"text": "Alice is allergic to peanuts", "type": "constraint"})
    item = store.get(ns, "diet")
    assert isinstance(item, Item)
    assert (item.namespace, item.key) == (ns, "diet")
    assert item.value == {"text": "Alice is allergic to peanuts", "type": "constraint"}
    assert item.created_at == item.updated_at

    # The namespace is the user "alice.memories"; the text is the unit's value, the item
    # is kept whole in its metadata.
    [unit] = api.list_memories(user_id="alice.memories").memories
    assert unit.value == "Alice is allergic to peanuts" and unit.type == "constraint"
    assert unit.metadata[entry_name(ns, "diet")]["value"] == item.value
    assert store.get(ns, "missing") is None and store.get(("bob",), "diet") is None

    # Overwrite: one item, new value, created_at kept, updated_at moved on.
    store.put(ns, "diet", {"text": "Alice is allergic to peanuts and cashews"})
    again = store.get(ns, "diet")
    assert again is not None and again.value["text"].endswith("cashews")
    assert again.created_at == item.created_at and again.updated_at > item.updated_at
    assert [u.value for u in api.list_memories(user_id="alice.memories").memories] == [
        "Alice is allergic to peanuts and cashews"
    ]

    # A value without a text field is stored as JSON.
    store.put(ns, "seat", {"seat": "window", "class": "economy"})
    seat = api.list_memories(user_id="alice.memories", limit=1).memories[0]
    assert seat.value == '{"class": "economy", "seat": "window"}'

    store.delete(ns, "diet")
    assert store.get(ns, "diet") is None
    assert [u.value for u in api.list_memories(user_id="alice.memories").memories] == [seat.value]
    store.delete(ns, "never-there")  # deleting a missing key is not an error

    with pytest.raises(InvalidNamespaceError):
        store.put(("a.b",), "k", {"text": "x"})


async def test_search_goes_through_recall_and_covers_the_prefix(api):
    store = HindsightStore(api)
    store.put(("alice", "food"), "peanuts", {"text": "Alice is allergic to peanuts"})
    store.put(("alice", "travel"), "seat", {"text": "Alice prefers window seats on flights",
                                            "kind": "seat"})  # fmt: skip
    store.put(("alice", "travel"), "city", {"text": "Alice lives in Lyon, France",
                                            "kind": "home"})  # fmt: skip
    store.put(("bob", "food"), "shellfish", {"text": "Bob is allergic to shellfish"})

    hits = store.search(("alice",), query="what is Alice allergic to?", limit=3)
    assert all(isinstance(h, SearchItem) for h in hits)
    assert hits[0].key == "peanuts" and hits[0].namespace == ("alice", "food")
    assert {h.namespace[0] for h in hits} == {"alice"}  # Bob's namespace is not under it
    assert all(h.score is not None and 0 <= h.score <= 1 for h in hits)
    assert hits[0].score == max(h.score or 0 for h in hits)

    # It was /recall: the unit recorded an access.
    unit = api.list_memories(user_id="alice.food").memories[0]
    assert api.get_memory(str(unit.id)).access_count == 1

    # Several subjects (alice.food, alice.travel) are merged by relevance, one keeps
    # recall's order and score.
    food = api.recall("what is Alice allergic to?", user_id="alice.food", top_k=1).memories[0]
    assert hits[0].score == pytest.approx(food.relevance, abs=0.01)
    travel = store.search(("alice", "travel"), query="where does Alice live?", limit=1)
    assert [h.key for h in travel] == ["city"]
    city = api.recall("where does Alice live?", user_id="alice.travel", top_k=1).memories[0]
    assert travel[0].score == pytest.approx(city.score, abs=0.01)
    filtered = store.search(("alice",), query="Alice", filter={"kind": "seat"})
    assert [h.key for h in filtered] == ["seat"]
    assert [h.key for h in store.search(("alice",), query="Alice", filter={"kind": {"$ne": "seat"}})
            if h.namespace == ("alice", "travel")] == ["city"]  # fmt: skip

    # Without a query: newest first, offset and limit.
    listed = store.search(("alice",), limit=2)
    assert [h.key for h in listed] == ["city", "seat"] and listed[0].score is None
    assert [h.key for h in store.search(("alice",), limit=2, offset=2)] == ["peanuts"]

    assert store.list_namespaces() == [
        ("alice", "food"), ("alice", "travel"), ("bob", "food")]  # fmt: skip
    assert store.list_namespaces(prefix=("alice",)) == [("alice", "food"), ("alice", "travel")]
    assert store.list_namespaces(suffix=("food",)) == [("alice", "food"), ("bob", "food")]
    assert store.list_namespaces(max_depth=1) == [("alice",), ("bob",)]
    assert store.list_namespaces(limit=1, offset=1) == [("alice", "travel")]


async def test_a_search_score_can_pass_one_as_the_docs_say(api):
    # Tester C21b: documented as 0..1, a search scored 1.05: recall's time signal adds on top
    # of weights that sum to 1. The docs give the real range (up to 1.35 with the defaults).
    import hindsight_client.integrations.langgraph as module

    store = HindsightStore(api)
    store.put(("ruth",), "stock", {"text": "用户持有贵州茅台（600519）的股票。"})
    [hit] = store.search(("ruth",), query="600519 今天涨了吗", limit=1)
    assert hit.score is not None and 1 < hit.score <= 1.35
    doc = " ".join((module.__doc__ or "").split())
    assert "up to 1.35 with the defaults" in doc and "not 0..1" in doc
    readme = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    assert "score 0..1" not in readme and "up to 1.35 with the default weights" in readme


async def test_items_the_service_merges_keep_their_own_values(api):
    store = HindsightStore(api)
    ns = ("carol",)
    store.put(ns, "a", {"text": "Carol is vegetarian", "from": "chat 1"})
    store.put(ns, "b", {"text": "Carol is vegetarian!", "from": "chat 2"})
    units = api.list_memories(user_id="carol").memories
    assert len(units) == 1, [u.value for u in units]  # merged by the service's dedupe
    a, b = store.get(ns, "a"), store.get(ns, "b")
    assert a is not None and b is not None
    assert (a.value["from"], b.value["from"]) == ("chat 1", "chat 2")
    assert {h.key for h in store.search(ns, query="what does Carol eat?")} == {"a", "b"}

    store.delete(ns, "a")
    assert store.get(ns, "a") is None
    b_after = store.get(ns, "b")
    assert b_after is not None and b_after.value == b.value
    assert b_after.created_at == b.created_at


async def test_async_methods_custom_subjects_and_ttl(api):
    store = HindsightStore(
        api, subject=lambda ns: {"user_id": ns[0], "agent_id": ".".join(ns[1:]) or None}
    )
    await store.aput(("dave", "planner"), "trip", {"text": "Dave flies to Tokyo in March"})
    await store.aput(("dave", "chef"), "diet", {"text": "Dave eats no pork"}, ttl=60 * 24 * 7)
    got = await store.aget(("dave", "planner"), "trip")
    assert got is not None and got.value["text"] == "Dave flies to Tokyo in March"

    # The user is "dave", each agent its own; a prefix search of the user spans the agents.
    units = {u.agent_id: u for u in api.list_memories(user_id="dave").memories}
    assert set(units) == {"planner", "chef"}
    expires = units["chef"].expires_at
    assert expires is not None
    assert abs(expires - datetime.now(UTC) - timedelta(days=7)) < timedelta(minutes=5)
    hits = await store.asearch(("dave",), query="what does Dave eat?", limit=1)
    assert [(h.namespace, h.key) for h in hits] == [(("dave", "chef"), "diet")]

    await store.adelete(("dave", "chef"), "diet")
    assert await store.aget(("dave", "chef"), "diet") is None
    assert [u.agent_id for u in api.list_memories(user_id="dave").memories] == ["planner"]
    with pytest.raises(NotImplementedError):
        await store.alist_namespaces()


class State(TypedDict):
    user: str
    said: str
    recalled: list[str]


def remember(state: State, runtime: Runtime[None]) -> dict[str, object]:
    assert runtime.store is not None
    runtime.store.put((state["user"], "memories"), "said-1", {"text": state["said"]})
    return {}


def recall(state: State, runtime: Runtime[None]) -> dict[str, object]:
    assert runtime.store is not None
    hits = runtime.store.search((state["user"],), query="what should I avoid eating?", limit=1)
    return {"recalled": [h.value["text"] for h in hits]}


async def test_a_compiled_graph_uses_the_store(api):
    graph = (
        StateGraph(State)
        .add_node("remember", remember)
        .add_node("recall", recall)
        .add_edge(START, "remember")
        .add_edge("remember", "recall")
        .add_edge("recall", END)
        .compile(store=HindsightStore(api))
    )
    out = graph.invoke({"user": "erin", "said": "Erin is allergic to sesame", "recalled": []})
    assert out["recalled"] == ["Erin is allergic to sesame"]
    assert api.list_memories(user_id="erin.memories").memories[0].value == out["recalled"][0]
    # The async path of the graph runs abatch.
    out = await graph.ainvoke({"user": "erin", "said": "Erin is allergic to sesame",
                               "recalled": []})  # fmt: skip
    assert out["recalled"] == ["Erin is allergic to sesame"]


def test_without_the_extra_the_import_names_it():
    import subprocess

    code = (
        "import sys; sys.modules['langgraph'] = None\n"  # as if LangGraph were not installed
        "import hindsight_client.integrations.langgraph"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
        env={"PYTHONPATH": str(ROOT / "clients" / "python"), "PATH": "/usr/bin:/bin"},
    )  # fmt: skip
    assert out.returncode == 1
    assert 'pip install "hindsight-client[langgraph]"' in out.stderr, out.stderr

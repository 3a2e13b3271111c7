"""The first ``/context`` read after a long user message embeds its default query (the
message's first window, up to 384 model tokens) once (tester H34: recall embedded it, gave up
at its time budget, and the window ranking embedded it again, ~2 s in all). The read starts
the embedding before it waits for the message's own, and recall and the window share it; a
recall past its budget leaves it running for the window. Counted, not timed."""

from __future__ import annotations

import random

from app.api.deps import get_settings_dep
from tests.services.working_memory.test_working_memory import append, msg

WORDS = (
    "we walked along the river with the kids and talked about school music dinner plans "
    "the garden the new bike and grandmother's recipes for plum cake"
).split()


def _hurried(wm):  # type: ignore[no-untyped-def]
    """Recall gets 10 ms: it gives up waiting for the query embedding (as a busy machine
    made it do with 500)."""
    settings = wm.configure()
    recall = settings.recall.model_copy(update={"budget_ms": 10})
    hurried = settings.model_copy(update={"recall": recall})
    wm.app.dependency_overrides[get_settings_dep] = lambda: hurried


def _count_queries(wm, monkeypatch) -> list[str]:  # type: ignore[no-untyped-def]
    embedder = wm.app.state.resources.embedder
    asked: list[str] = []
    inner = embedder.embed_queries

    async def counting(texts: list[str]):  # type: ignore[no-untyped-def]
        asked.extend(texts)
        return await inner(texts)

    monkeypatch.setattr(embedder, "embed_queries", counting)
    return asked


async def test_the_default_query_is_embedded_once_per_read(wm, monkeypatch):
    _hurried(wm)
    r = await wm.client.post("/store", json={"memories": [
        {"user_id": "u1", "value": "The user likes long walks.", "entities": []}]})  # fmt: skip
    assert r.status_code == 200, r.text
    asked = _count_queries(wm, monkeypatch)
    rng = random.Random(11)
    long = " ".join(rng.choice(WORDS) for _ in range(3000)) + "."
    await append(wm, "s1", msg(long, user_id="u1"))
    r = await wm.client.get("/context", params={"user_id": "u1", "session_id": "s1"})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["query_source"] == "last_user_message"
    assert long.startswith(body["query"]) and len(body["query"]) < len(long)
    assert asked.count(body["query"]) == 1, len(asked)
    assert [m["seq"] for m in body["parts"]["window"]]  # the message is in the window
    # read again: from the cache, no model call
    r = await wm.client.get("/context", params={"user_id": "u1", "session_id": "s1"})
    assert r.status_code == 200 and asked.count(body["query"]) == 1

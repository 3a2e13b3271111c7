"""The subject cache's profiles (app/services/recall/subjects.py, issue 29): a small subject's
size class and names are kept until a recall's own statement disagrees, not for a fixed time —
an agent asking minutes apart no longer reads the profile before every recall — and the
answers are those of a recall without any cache, when the subject grows past the exact-scan
limit or names someone new; a larger subject's profile still lives for the TTL."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

from app.core.config import RecallSettings
from app.core.db import create_session_factory
from app.repositories.recall.repository import RecallRepository
from app.schemas.recall import RecallRequest
from app.services.recall.service import RecallService
from app.services.recall.subjects import SubjectCache
from tests.services.lifecycle.test_lifecycle import store
from tests.services.recall.test_recall_speed import CountingEmbedder

TTL_S = 0.05


def _settings(cap: int = 3000) -> RecallSettings:
    # A budget no loaded test machine reaches: these tests compare answers and stages.
    return RecallSettings(budget_ms=600_000, exact_scan_limit=cap)


async def _recall(  # type: ignore[no-untyped-def]
    engine, embedder, query: str, cache: SubjectCache | None, cap: int = 3000
):
    """The hits (id, semantic score, entity signal) and the stages of one recall of u1."""
    async with create_session_factory(engine)() as session, session.begin():
        service = RecallService(RecallRepository(session), embedder, _settings(cap), subjects=cache)
        req = RecallRequest(query=query, user_id="u1", record_access=False)
        result = await service.recall("default", req, datetime.now(UTC))
    hits = [(str(u.id), round(r.scores["semantic"], 6), r.scores["entity"]) for u, r in result.hits]
    return hits, set(result.stages_ms)


async def test_a_small_subjects_profile_outlives_the_ttl(client, engine) -> None:
    await store(
        client,
        {"user_id": "u1", "value": "The user's sister Ana lives in Porto", "entities": ["Ana"]},
        {"user_id": "u1", "value": "The user plays the cello"},
    )
    embedder, cache = CountingEmbedder(), SubjectCache(16, TTL_S)
    first, stages = await _recall(engine, embedder, "Where does Ana live?", cache)
    assert "profile" in stages  # read once
    await asyncio.sleep(3 * TTL_S)  # the next question comes well after the TTL
    again, stages = await _recall(engine, embedder, "Which instrument does Ana play?", cache)
    assert "profile" not in stages  # kept: the statement read 2 units and the names predicted
    assert again == (await _recall(engine, embedder, "Which instrument does Ana play?", None))[0]
    assert first[0][2] == 1.0  # Ana's unit first, with the entity signal


async def test_a_subject_grown_past_the_limit_is_read_again(client, engine) -> None:
    await store(client, *({"user_id": "u1", "value": f"The user visited museum {i}"} for i in "AB"))
    embedder, cache = CountingEmbedder(), SubjectCache(16, 600)
    _, stages = await _recall(engine, embedder, "Which museum?", cache, cap=3)
    assert "profile" in stages
    await store(client, *({"user_id": "u1", "value": f"The user likes painter {i}"} for i in "CDE"))
    # the cached profile still says 2 units: this recall scans exactly, reads 5 > 3, drops it
    grown, stages = await _recall(engine, embedder, "Which painter?", cache, cap=3)
    assert "profile" not in stages
    assert grown == (await _recall(engine, embedder, "Which painter?", None, cap=3))[0]
    # the next recall reads the profile again: more than the limit, the shortlist path
    _, stages = await _recall(engine, embedder, "Which museum?", cache, cap=3)
    assert "profile" in stages


async def test_a_larger_subjects_profile_lives_for_the_ttl(client, engine) -> None:
    await store(
        client, *({"user_id": "u1", "value": f"The user visited museum {i}"} for i in "ABCDE")
    )
    embedder, cache = CountingEmbedder(), SubjectCache(16, 3.0)
    _, stages = await _recall(engine, embedder, "Which museum?", cache, cap=3)
    assert "profile" in stages
    _, stages = await _recall(engine, embedder, "Which museum did the user visit?", cache, cap=3)
    assert "profile" not in stages
    await asyncio.sleep(3.5)  # nothing of a shortlist recall reads the whole subject
    _, stages = await _recall(engine, embedder, "What museum was it?", cache, cap=3)
    assert "profile" in stages


async def test_a_kept_profile_that_misses_a_new_name_costs_a_restart_not_the_answer(
    client, engine
) -> None:
    await store(client, {"user_id": "u1", "value": "The user likes jazz", "entities": ["Ana"]})
    embedder, cache = CountingEmbedder(), SubjectCache(16, TTL_S)
    await _recall(engine, embedder, "What music does the user like?", cache)
    await asyncio.sleep(3 * TTL_S)
    await store(client, {"user_id": "u1", "value": "Zed plays drums", "entities": ["Zed"]})
    embedder.queries.clear()
    kept, stages = await _recall(engine, embedder, "What does Zed play?", cache)
    # predicted unknown, reported known: embedded again without the name, the profile dropped
    assert embedder.queries == ["What does Zed play?", "What does play?"]
    assert "profile" not in stages
    assert kept == (await _recall(engine, embedder, "What does Zed play?", None))[0]
    assert kept[0][2] == 1.0
    _, stages = await _recall(engine, embedder, "Who plays drums?", cache)
    assert "profile" in stages  # read again, with Zed

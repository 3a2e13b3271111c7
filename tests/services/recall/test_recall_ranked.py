"""The exact path ranked in the database (app.repositories.recall.ranked, issue 29 aim 2): the
head it returns is the head of :func:`app.services.recall.scoring.rank` over the candidates
statement's rows — the same ids in the same order, the same scores, breakdowns, relevance and
``via``, bit for bit — for every weighting, time window and *when* question, and with the
answer columns and close pairs ``RecallRepository.head`` reads; and ``/recall`` answers the
same whichever path ranked it."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import numpy as np
import pytest

from app.core.config import RecallSettings
from app.core.db import create_session_factory
from app.repositories.memory.filters import UnitFilters
from app.repositories.recall.repository import RecallRepository
from app.repositories.recall.sql import DATED_TSQUERY
from app.repositories.recall.statements import RecallStatements
from app.services.recall.scoring import (
    SHORT_TERM,
    Weighting,
    profile_weights,
    rank,
    rank_spec,
    ranked_rows,
)
from tests.services.recall.test_recall_api import recall

NOW = datetime(2026, 6, 1, 12, 0, tzinfo=UTC)
HOUR = timedelta(hours=1)

TEXTS = [
    "Ana plays the cello in an orchestra",
    "Yes, last Friday!",
    "Bo moved to Lisbon for the orchestra",
    "The user prefers green tea in the morning",
    "We went hiking in the mountains yesterday",
    "Thanks, Jon!",
    "Thanks, Gina!",
    "Ana's orchestra plays in Lisbon in May",
    "My sister adopted a dog last week",
    "The dog is called Pepper",
    "I started learning the cello two years ago",
    "Green tea and a book, that's my Sunday",
]


async def _subject(client) -> None:  # type: ignore[no-untyped-def]
    """A subject of sessions (sizes 1 to 9, units sharing a time), units without one, names,
    date words and several confidences."""
    memories: list[dict[str, Any]] = []
    for i in range(40):
        text = f"{TEXTS[i % len(TEXTS)]} ({i})"
        unit: dict[str, Any] = {
            "user_id": "u1",
            "value": text,
            "confidence": [0.9, 0.6, 1.0, 0.75][i % 4],
            # every third unit shares its time with the one before
            "occurred_at": (NOW - (400 - 7 * (i - i % 3 // 2)) * HOUR).isoformat(),
        }
        if i % 7:
            unit["session_id"] = f"s{i % 5}" if i < 30 else "s-big"
        if "Ana" in text or "Bo" in text:
            unit["entities"] = [n for n in ("Ana", "Bo", "Lisbon") if n in text]
        memories.append(unit)
    for at in range(0, len(memories), 10):  # the request token limit
        r = await client.post("/store", json={"memories": memories[at : at + 10]})
        assert r.status_code == 200, r.text  # (some supersede others: fewer units, no matter)


WEIGHTINGS = [
    profile_weights("long_term", RecallSettings()),
    Weighting(dict(SHORT_TERM), 0.01),
    # no semantic or keyword weight: the context signal's mix is 0
    Weighting({**dict(SHORT_TERM), "semantic": 0.0, "keyword": 0.0, "context": 0.3}, 0.05),
]
QUERIES = [
    ("who plays the cello in the orchestra", ["ana", "orchestra"]),
    ("what is the dog called", []),
    ("thanks", []),
    ("zzz qqq", []),
]


@pytest.mark.parametrize("weighting", WEIGHTINGS)
@pytest.mark.parametrize("time_case", ["none", "window", "when"])
@pytest.mark.parametrize("with_embedding", [True, False])
async def test_the_database_ranks_as_rank_does(
    client, engine, weighting: Weighting, time_case: str, with_embedding: bool
) -> None:
    await _subject(client)
    f = UnitFilters(namespace="default", user_id="u1")
    statements = RecallStatements()
    rng = np.random.default_rng(11)
    window = (NOW - 300 * HOUR, NOW - 150 * HOUR) if time_case == "window" else None
    asks_when = time_case == "when"
    dated = DATED_TSQUERY if asks_when else None
    for limit in (1, 5, 15, 100):
        for query, ents in QUERIES:
            embedding = rng.standard_normal(384).astype(np.float32) if with_embedding else None
            spec = rank_spec(weighting, NOW, limit, window, asks_when, 0.1)
            async with create_session_factory(engine)() as session, session.begin():
                repo = RecallRepository(session, statements)
                found = await repo.candidates(
                    f, embedding, query, ents, exact=True, per_source=40, ef_search=40,
                    entity_names=["ana"] if ents else None, dated=dated,
                )  # fmt: skip
                want = rank(found.columns, weighting, NOW, limit, window, asks_when)
                units, pairs = await repo.head([r.id for r in want], 0.9)
                got = await repo.ranked(
                    f, embedding, query, ents, spec,
                    entity_names=["ana"] if ents else None, dated=dated,
                )  # fmt: skip
            assert got is not None and got.size == found.size > 10
            assert got.known == found.known
            ranked = ranked_rows(got.ranked, weighting, got.named)
            assert [r.id for r in ranked] == [r.id for r in want]
            assert ranked == want  # scores, breakdowns, relevance, via and raw: the same bits
            assert got.units == units
            assert sorted(got.pairs) == sorted(pairs)


async def test_a_recall_answers_the_same_whichever_path_ranks_it(client, monkeypatch) -> None:
    """``min_score`` 0 (every score is ≥ 0) sends a recall through the candidates' rows and
    Python's ranking, then the head statement; without it the database ranks, in the one
    statement: the same answer."""
    await _subject(client)
    heads: list[int] = []
    head = RecallRepository.head

    async def counted(self, ids, min_cosine):  # type: ignore[no-untyped-def]
        heads.append(len(ids))
        return await head(self, ids, min_cosine)

    monkeypatch.setattr(RecallRepository, "head", counted)
    for query in ("who plays the cello in the orchestra", "what happened last week", "thanks"):
        for top_k in (3, 10):
            body = {"query": query, "user_id": "u1", "top_k": top_k, "now": NOW.isoformat()}
            one = await recall(client, **body)
            assert not heads  # one statement: no head statement of its own
            two = await recall(client, **body, min_score=0.0)
            assert len(heads) == 1 and heads[0] <= top_k + 5
            heads.clear()
            assert one and one == two


async def test_an_empty_subject_ranks_nothing(client, engine) -> None:
    await _subject(client)
    f = UnitFilters(namespace="default", user_id="nobody")
    spec = rank_spec(WEIGHTINGS[0], NOW, 15, None, False, 0.1)
    async with create_session_factory(engine)() as session:
        got = await RecallRepository(session).ranked(f, None, "cello", ["ana"], spec)
    assert got is not None and got.size == 0 and got.ranked == [] and got.known == []
    assert await recall(client, query="cello", user_id="nobody") == []

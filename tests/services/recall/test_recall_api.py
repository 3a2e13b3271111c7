"""``POST /recall`` through the API: every filter, subject isolation, and ranking that follows
the returned score (recency against ``now``, confidence). Scoring internals are tested
elsewhere; here only the contract: hits sorted by ``score``, ``score`` the weighted sum of
``scores``, filters exact."""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest
from sqlalchemy import text

from app.schemas.recall import Weights

NOW = datetime(2026, 6, 1, 12, 0, tzinfo=UTC)


def iso(t: datetime) -> str:
    return t.isoformat()


def only(signal: str, weight: float = 1.0, **extra: float) -> dict[str, float]:
    """Weights that zero every signal but ``signal``."""
    weights = {name: 0.0 for name in Weights.model_fields if name != "recency_lambda"}
    return {**weights, signal: weight, **extra}


async def store(client: httpx.AsyncClient, *memories: dict[str, Any]) -> list[str]:
    r = await client.post("/store", json={"memories": list(memories)})
    assert r.status_code == 200, r.text
    assert all(x["outcome"] == "created" for x in r.json()["results"]), r.text
    return [x["id"] for x in r.json()["results"]]


async def recall(client: httpx.AsyncClient, **body: Any) -> list[dict[str, Any]]:
    body.setdefault("top_k", 100)
    r = await client.post("/recall", json=body)
    assert r.status_code == 200, r.text
    payload = r.json()
    assert isinstance(payload["degraded"], bool) and payload["took_ms"] >= 0
    hits = payload["memories"]
    scores = [h["score"] for h in hits]
    assert scores == sorted(scores, reverse=True), "hits must be sorted by score"
    return hits


def values(hits: list[dict[str, Any]]) -> list[str]:
    return [h["value"] for h in hits]


# ---- filters ----------------------------------------------------------------------------------


async def test_types_filter(client):
    await store(
        client,
        {"user_id": "u", "type": "fact", "value": "The user flies to Tokyo in May"},
        {"user_id": "u", "type": "preference", "value": "The user prefers aisle seats"},
        {"user_id": "u", "type": "constraint", "value": "The user cannot fly overnight"},
        {"user_id": "u", "type": "event", "value": "用户五月去东京出差"},
    )
    hits = await recall(client, query="flight booking", user_id="u", types=["preference"])
    assert values(hits) == ["The user prefers aisle seats"]
    hits = await recall(client, query="flight", user_id="u", types=["constraint", "event"])
    assert sorted(h["type"] for h in hits) == ["constraint", "event"]
    assert len(await recall(client, query="flight", user_id="u")) == 4


async def test_entities_filter_is_case_insensitive(client):
    await store(
        client,
        {"user_id": "u", "value": "The user's broker holds Moutai shares", "entities": ["600519"]},
        {"user_id": "u", "value": "用户住在上海", "entities": ["上海"]},
        {"user_id": "u", "value": "The user visits Shanghai Disney", "entities": ["Shanghai"]},
        {"user_id": "u", "value": "The user has a dog"},
    )
    hits = await recall(client, query="city", user_id="u", entities=["SHANGHAI", "上海"])
    assert sorted(values(hits)) == sorted(["用户住在上海", "The user visits Shanghai Disney"])
    hits = await recall(client, query="stocks", user_id="u", entities=["600519"])
    assert values(hits) == ["The user's broker holds Moutai shares"]
    assert await recall(client, query="stocks", user_id="u", entities=["nasdaq"]) == []


DATED_VALUES = [
    "The user went running along the river",
    "用户周末去爬了香山",
    "The user baked sourdough bread",
    "The user repainted the garden fence",
]


@pytest.fixture
async def dated(client) -> dict[str, str]:
    ages = {
        "2 hours": timedelta(hours=2),
        "3 days": timedelta(days=3),
        "20 days": timedelta(days=20),
        "60 days": timedelta(days=60),
    }
    ids = await store(
        client,
        *(
            {"user_id": "u", "value": value, "occurred_at": iso(NOW - delta), "ttl_days": 3650}
            for value, delta in zip(DATED_VALUES, ages.values(), strict=True)
        ),
    )
    return dict(zip(ages, ids, strict=True))


@pytest.mark.parametrize(
    ("time_range", "expected"),
    [
        ("last_24_hours", ["2 hours"]),
        ("last_7_days", ["2 hours", "3 days"]),
        ("last_30_days", ["2 hours", "3 days", "20 days"]),
    ],
)
async def test_time_range_counts_back_from_now(client, dated, time_range, expected):
    hits = await recall(client, query="running", user_id="u", time_range=time_range, now=iso(NOW))
    assert sorted(h["id"] for h in hits) == sorted(dated[k] for k in expected)


async def test_time_range_follows_the_given_now(client, dated):
    # Thirty days later, nothing is in the last 7 days.
    later = NOW + timedelta(days=30)
    assert (
        await recall(client, query="running", user_id="u", time_range="last_7_days", now=iso(later))
        == []
    )


async def test_since_and_until(client, dated):
    hits = await recall(
        client,
        query="running",
        user_id="u",
        since=iso(NOW - timedelta(days=30)),
        until=iso(NOW - timedelta(days=1)),
    )
    assert sorted(h["id"] for h in hits) == sorted([dated["3 days"], dated["20 days"]])
    hits = await recall(client, query="running", user_id="u", since=iso(NOW - timedelta(days=4)))
    assert sorted(h["id"] for h in hits) == sorted([dated["2 hours"], dated["3 days"]])


async def test_session_and_agent_scopes(client):
    await store(
        client,
        {
            "user_id": "u",
            "session_id": "s1",
            "agent_id": "a1",
            "value": "The user asked for a refund",
        },
        {
            "user_id": "u",
            "session_id": "s2",
            "agent_id": "a1",
            "value": "The user asked about shipping",
        },
        {
            "user_id": "u",
            "session_id": "s2",
            "agent_id": "a2",
            "value": "The user asked for an invoice",
        },
        {
            "user_id": "v",
            "session_id": "s3",  # s1 is u's (a session is one user's: tester C20)
            "agent_id": "a1",
            "value": "The user asked for a discount",
        },
    )
    hits = await recall(client, query="what did the user ask", session_id="s2")
    assert sorted(values(hits)) == [
        "The user asked about shipping",
        "The user asked for an invoice",
    ]
    hits = await recall(client, query="what did the user ask", agent_id="a1", user_id="u")
    assert sorted(values(hits)) == ["The user asked about shipping", "The user asked for a refund"]
    hits = await recall(client, query="what did the user ask", user_id="u", session_id="s1")
    assert values(hits) == ["The user asked for a refund"]


async def test_superseded_and_archived_need_their_flags(client, engine):
    ids = await store(
        client,
        {"user_id": "u", "value": "The user lives in Lyon"},
        {"user_id": "u", "value": "The user plays the oboe"},
        {"user_id": "u", "value": "The user keeps bees"},
    )
    async with engine.begin() as conn:
        await conn.execute(
            text("UPDATE memory_units SET status = 'superseded' WHERE id = :i"), {"i": ids[1]}
        )
        await conn.execute(
            text("UPDATE memory_units SET status = 'archived' WHERE id = :i"), {"i": ids[2]}
        )
    q = {"query": "what about the user", "user_id": "u"}
    assert [h["id"] for h in await recall(client, **q)] == [ids[0]]
    hits = await recall(client, **q, include_superseded=True)
    assert sorted(h["id"] for h in hits) == sorted(ids[:2])
    assert {h["status"] for h in hits} == {"active", "superseded"}
    hits = await recall(client, **q, include_archived=True)
    assert sorted(h["id"] for h in hits) == sorted([ids[0], ids[2]])


async def test_expired_units_are_left_out_unless_archived_ones_are_wanted(client):
    ids = await store(
        client,
        {"user_id": "u", "value": "The user's parcel code is 4471", "ttl_days": 1},
        {"user_id": "u", "value": "The user's locker number is 9902", "ttl_days": 30},
    )
    q = {"query": "code", "user_id": "u"}
    # Asked first (a recall that returns a unit may extend its expiry, TTL__EXTEND_ON_ACCESS).
    later = iso(datetime.now(UTC) + timedelta(days=2))
    assert [h["id"] for h in await recall(client, **q, now=later)] == [ids[1]]
    hits = await recall(client, **q, now=later, include_archived=True)
    assert sorted(h["id"] for h in hits) == sorted(ids)
    assert sorted(h["id"] for h in await recall(client, **q)) == sorted(ids)


async def test_top_k_and_min_score(client):
    museums = [
        "the Louvre",
        "the Prado",
        "the Uffizi",
        "MoMA",
        "the Hermitage",
        "故宫博物院",
        "the Rijksmuseum",
    ]
    await store(client, *({"user_id": "u", "value": f"The user visited {m}"} for m in museums))
    now = iso(datetime.now(UTC))  # a fixed clock: scores repeat exactly between calls
    q = {"query": "museum", "user_id": "u", "now": now}
    r = await client.post("/recall", json=q)
    assert len(r.json()["memories"]) == 5  # default top_k
    every = await recall(client, **q)
    assert len(every) == 7
    top3 = await recall(client, **q, top_k=3)
    assert [h["id"] for h in top3] == [h["id"] for h in every[:3]]
    assert len(await recall(client, **q, top_k=1)) == 1
    cut = every[2]["score"]
    kept = await recall(client, **q, min_score=cut)
    assert [h["id"] for h in kept] == [h["id"] for h in every if h["score"] >= cut]
    assert len(kept) >= 3
    assert await recall(client, **q, min_score=1000) == []


# ---- isolation --------------------------------------------------------------------------------


async def test_one_users_units_never_reach_another_users_recall(client):
    alice = await store(
        client,
        {"user_id": "alice", "value": "The user's bank PIN hint is 0420", "entities": ["PIN"]},
        {"user_id": "alice", "value": "用户的护照号码是E12345678", "entities": ["护照"]},
    )
    bob = await store(client, {"user_id": "bob", "value": "The user likes chess"})
    for query in ["The user's bank PIN hint is 0420", "用户的护照号码", "PIN", "E12345678"]:
        for weights in (None, only("keyword"), only("semantic")):
            body: dict[str, Any] = {"query": query, "user_id": "bob"}
            if weights:
                body["weights"] = weights
            hits = await recall(client, **body)
            assert [h["id"] for h in hits] == bob, (query, weights)
            assert all(h["user_id"] == "bob" for h in hits)
        hits = await recall(client, query=query, user_id="bob", entities=["PIN", "护照"])
        assert hits == []
    # Alice still finds her own.
    hits = await recall(client, query="PIN hint", user_id="alice")
    assert hits[0]["id"] == alice[0]


async def test_agent_scope_does_not_leak_other_users_of_the_agent(client):
    await store(
        client,
        {"user_id": "alice", "agent_id": "bot", "value": "The user is allergic to shellfish"},
        {"user_id": "bob", "agent_id": "bot", "value": "The user is vegan"},
    )
    hits = await recall(client, query="diet", user_id="bob", agent_id="bot")
    assert values(hits) == ["The user is vegan"]


# ---- ranking follows the score -----------------------------------------------------------------


async def test_recency_ranks_newest_first_relative_to_now(client):
    ages_h = {"old": 24 * 100, "week": 24 * 7, "fresh": 1}
    # Values far apart (value cosine below the diversity floor, 0.90): a near-repeat of a
    # better-placed hit would lose part of its score (app.services.recall.collapse).
    notes = {
        "old": "Bought a vintage guitar in Lisbon",
        "week": "The dentist appointment moved to Friday",
        "fresh": "Planted tomatoes on the balcony",
    }
    ids = await store(
        client,
        *(
            {
                "user_id": "u",
                "value": notes[name],
                "occurred_at": iso(NOW - timedelta(hours=h)),
                "ttl_days": 3650,
            }
            for name, h in ages_h.items()
        ),
    )
    by_name = dict(zip(ages_h, ids, strict=True))
    lam = 0.01
    hits = await recall(
        client,
        query="noted item",
        user_id="u",
        now=iso(NOW),
        weights=only("recency", recency_lambda=lam),
    )
    assert [h["id"] for h in hits] == [by_name["fresh"], by_name["week"], by_name["old"]]
    for h in hits:
        hours = ages_h[next(k for k, v in by_name.items() if v == h["id"])]
        assert h["scores"]["recency"] == pytest.approx(math.exp(-lam * hours), rel=1e-3)
        assert h["score"] == pytest.approx(h["scores"]["recency"], rel=1e-6)
    # Seen from 50 days later, every unit is older and scores lower; the order is the same.
    later = await recall(
        client,
        query="noted item",
        user_id="u",
        now=iso(NOW + timedelta(days=50)),
        weights=only("recency", recency_lambda=lam),
    )
    assert [h["id"] for h in later] == [h["id"] for h in hits]
    assert all(b["score"] < a["score"] for a, b in zip(hits, later, strict=True))


async def test_confidence_ranks_when_it_is_the_only_weight(client):
    conf = {"low": 0.3, "high": 0.95, "mid": 0.6}
    # Values far apart: see test_recency_ranks_newest_first_relative_to_now.
    genres = {
        "low": "Enjoys jazz records from the fifties",
        "high": "Listens to heavy metal while running",
        "mid": "Sings in a church choir on Sundays",
    }
    ids = await store(
        client,
        *({"user_id": "u", "value": genres[name], "confidence": c} for name, c in conf.items()),
    )
    by_id = dict(zip(ids, conf.values(), strict=True))
    hits = await recall(client, query="music taste", user_id="u", weights=only("confidence", 2.0))
    assert [by_id[h["id"]] for h in hits] == [0.95, 0.6, 0.3]
    for h in hits:
        assert h["scores"]["confidence"] == pytest.approx(by_id[h["id"]])
        assert h["score"] == pytest.approx(2.0 * by_id[h["id"]], rel=1e-6)


async def test_score_is_the_weighted_sum_of_the_returned_signals(client):
    await store(
        client,
        {"user_id": "u", "value": "The user is allergic to peanuts", "confidence": 0.9},
        {"user_id": "u", "value": "The user lives in Shanghai", "confidence": 0.5},
        {"user_id": "u", "value": "用户喜欢喝绿茶", "confidence": 0.7},
    )
    weights = only("semantic", 0.4, keyword=0.3, recency=0.2, confidence=0.1)
    hits = await recall(
        client, query="peanut allergy", user_id="u", weights=weights, now=iso(datetime.now(UTC))
    )
    assert hits[0]["value"] == "The user is allergic to peanuts"
    for h in hits:
        assert set(h["scores"]) >= {"semantic", "keyword", "recency", "confidence", "entity"}
        assert all(0.0 <= v <= 1.0 + 1e-9 for v in h["scores"].values())
        expected = sum(weights[k] * h["scores"][k] for k in h["scores"] if k in weights)
        assert h["score"] == pytest.approx(expected, rel=1e-6, abs=1e-9)

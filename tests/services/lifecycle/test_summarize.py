"""POST /summarize: offline and through an LLM (a real HTTP server on 127.0.0.1 speaking the
OpenAI chat API, tests/fake_llm.py) with valid, malformed and failing replies — sources are
archived only together with their summary, and a failure loses nothing."""

from __future__ import annotations

import json

import pytest
from sqlalchemy import text

from tests.conftest import count_rows
from tests.fake_llm import Reply
from tests.services.lifecycle.test_lifecycle import store

KYOTO = [
    {"user_id": "u1", "value": "The user visited Kyoto in April", "entities": ["Kyoto"]},
    {"user_id": "u1", "value": "The user loved the temples in Kyoto", "entities": ["Kyoto"]},
    {
        "user_id": "u1",
        "value": "The user wants to return to Kyoto in autumn",
        "entities": ["kyoto", "autumn"],
    },
]


async def statuses(engine, user_id: str = "u1") -> dict[str, str]:
    async with engine.connect() as conn:
        rows = await conn.execute(
            text("SELECT value, status FROM memory_units WHERE user_id = :u"), {"u": user_id}
        )
        return {r.value: r.status for r in rows}


async def test_offline_summary_archives_and_links_sources(client, engine):
    sources = await store(
        client,
        *KYOTO,
        {"user_id": "u1", "value": "The user's sister is called Mei", "entities": ["Mei"]},
        {"user_id": "u1", "agent_id": "a1", "value": "Agent note on Kyoto", "entities": ["Kyoto"]},
        {"user_id": "u2", "value": "Another user went to Kyoto", "entities": ["Kyoto"]},
    )
    r = await client.post("/summarize", json={"user_id": "u1"})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["mode"] == "offline" and body["archived"] == 3
    [summary] = body["summaries"]
    assert summary["entity"] == "Kyoto" and summary["outcome"] == "created"
    assert sorted(summary["source_ids"]) == sorted(s["id"] for s in sources[:3])
    memory = summary["memory"]
    assert memory["value"].startswith("Kyoto:\n- The user visited Kyoto in April.\n- ")
    assert "autumn" in memory["value"] and memory["type"] == "fact"
    assert memory["source"] == "system" and memory["status"] == "active"

    st = await statuses(engine)
    assert [st[k["value"]] for k in KYOTO] == ["archived"] * 3
    assert st["The user's sister is called Mei"] == "active"  # a group of one stays
    assert (await statuses(engine, "u2")) == {"Another user went to Kyoto": "active"}
    r = await client.get(f"/memories/{sources[4]['id']}")
    assert r.json()["status"] == "active"  # another agent's unit is not this subject's

    history = (await client.get(f"/memories/{summary['id']}/history")).json()
    assert {(x["source_id"], x["kind"]) for x in history["links"]} == {
        (s["id"], "summary") for s in sources[:3]
    }
    r = await client.post("/recall", json={"query": "Kyoto trip", "user_id": "u1", "top_k": 10})
    ids = [m["id"] for m in r.json()["memories"]]
    assert summary["id"] in ids and not set(ids) & {s["id"] for s in sources[:3]}
    r = await client.post(
        "/recall",
        json={"query": "Kyoto trip", "user_id": "u1", "top_k": 10, "include_archived": True},
    )
    assert {s["id"] for s in sources[:3]} <= {m["id"] for m in r.json()["memories"]}
    # a second call finds nothing left to consolidate
    r = await client.post("/summarize", json={"user_id": "u1"})
    assert r.json()["summaries"] == [] and r.json()["archived"] == 0


async def test_summary_by_entity_window_and_min_group(client, engine):
    await store(
        client,
        *({**k, "occurred_at": "2026-03-01T00:00:00Z"} for k in KYOTO[:2]),
        {**KYOTO[2], "occurred_at": "2026-09-01T00:00:00Z"},
        {"user_id": "u1", "value": "Mei likes jazz", "entities": ["Mei"]},
        {"user_id": "u1", "value": "Mei lives in Osaka", "entities": ["Mei", "Osaka"]},
    )
    r = await client.post(
        "/summarize",
        json={"user_id": "u1", "entity": "KYOTO", "until": "2026-06-01T00:00:00Z"},
    )
    assert r.status_code == 200, r.text
    assert r.json()["archived"] == 2
    st = await statuses(engine)
    assert st[KYOTO[2]["value"]] == "active" and st["Mei likes jazz"] == "active"
    r = await client.post("/summarize", json={"user_id": "u1", "entity": "Mei", "min_group": 3})
    assert r.json()["summaries"] == []
    for bad in (
        {},
        {"user_id": "u1", "since": "2026-06-01T00:00:00Z", "until": "2026-01-01T00:00:00Z"},
        {"user_id": "u1", "min_group": 1},
        {"user_id": "u1", "unknown": 1},
    ):
        r = await client.post("/summarize", json=bad)
        assert r.status_code == 422, bad


# ---- through an LLM ------------------------------------------------------------------------


@pytest.fixture
async def llm(llm_app, fake_llm, client):  # type: ignore[no-untyped-def]
    """The LLM-backed app on empty tables (seed data through ``client``: no LLM calls)."""
    fake_llm.default = Reply(content="not json at all")
    return llm_app


SUMMARY = json.dumps(
    {
        "value": "The user visited Kyoto in April, loved its temples and wants to return in "
        "autumn.",
        "query": "When the user plans travel to Japan",
        "type": "preference",
    }
)


async def test_llm_summary(llm, client, fake_llm, engine):
    sources = await store(client, *KYOTO)
    fake_llm.push(Reply(content=f"```json\n{SUMMARY}\n```"))
    r = await llm.post("/summarize", json={"user_id": "u1"})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["mode"] == "llm" and body["archived"] == 3
    memory = body["summaries"][0]["memory"]
    assert memory["value"].startswith("The user visited Kyoto in April, loved its temples")
    assert memory["query"] == "When the user plans travel to Japan"
    assert memory["type"] == "preference"
    prompt = fake_llm.requests[0]["messages"][1]["content"]
    assert all(k["value"] in prompt for k in KYOTO)
    st = await statuses(engine)
    assert [st[k["value"]] for k in KYOTO] == ["archived"] * 3
    assert sorted(body["summaries"][0]["source_ids"]) == sorted(s["id"] for s in sources)


async def test_llm_malformed_then_valid_reply_is_repaired(llm, client, fake_llm, engine):
    await store(client, *KYOTO)
    fake_llm.push(Reply(content='{"value": '), Reply(content=SUMMARY))
    r = await llm.post("/summarize", json={"user_id": "u1"})
    assert r.status_code == 200, r.text
    assert len(fake_llm.requests) == 2
    assert "could not be used" in fake_llm.requests[1]["messages"][-1]["content"]


@pytest.mark.parametrize(
    ("replies", "status", "code"),
    [
        (
            [Reply(content='{"value": "'), Reply(content="Sure! Here is a summary.")],
            502,
            "provider_bad_reply",
        ),
        (
            [Reply(content='{"value": ""}'), Reply(content='{"value": 42}')],
            502,
            "provider_bad_reply",
        ),
        ([Reply(content=json.dumps({"value": "x" * 2001}))] * 2, 502, "provider_bad_reply"),
        ([Reply(status=500), Reply(status=503)], 502, "provider_error"),
        ([Reply(content=SUMMARY, delay_s=1.0)] * 2, 504, "provider_timeout"),
    ],
    ids=["truncated-then-prose", "empty-and-wrong-type", "too-long", "http-5xx", "timeout"],
)
async def test_llm_failure_leaves_everything_as_it_was(
    llm, client, fake_llm, engine, replies, status, code
):
    await store(client, *KYOTO)
    async with engine.connect() as conn:
        before = (
            await conn.execute(text("SELECT id, status, updated_at FROM memory_units ORDER BY id"))
        ).all()
    fake_llm.push(*replies)
    r = await llm.post("/summarize", json={"user_id": "u1"})
    assert r.status_code == status, r.text
    assert r.json()["code"] == code
    async with engine.connect() as conn:
        after = (
            await conn.execute(text("SELECT id, status, updated_at FROM memory_units ORDER BY id"))
        ).all()
    assert after == before and len(after) == 3
    assert await count_rows(engine, "memory_links") == 0


async def test_summary_keeps_constraints_and_only_the_newest_preference(client, engine):
    """An allergy, an old and a newer seat preference (stored in one hour, so the write path
    kept both, in conflict) and a few facts: the summary keeps the allergy a constraint and
    only the newer preference active, and /context still lists both."""
    at = "2026-11-20T09:00:00Z"
    stored = await store(
        client,
        {"user_id": "flyer", "type": "constraint", "value": "The user is allergic to peanuts",
         "entities": ["flights"], "occurred_at": at},
        {"user_id": "flyer", "type": "preference", "value": "The user prefers aisle seats",
         "entities": ["flights"], "occurred_at": at},
        {"user_id": "flyer", "type": "preference", "value": "The user prefers window seats",
         "entities": ["flights"], "occurred_at": "2026-11-20T09:20:00Z"},
        {"user_id": "flyer", "type": "event",
         "value": "Hi, the user needs a flight from Berlin to Tokyo. Thanks!",
         "entities": ["flights"], "occurred_at": at},
        {"user_id": "flyer", "type": "fact", "value": "The user flies with Lufthansa",
         "entities": ["flights"], "occurred_at": at},
        {"user_id": "flyer", "type": "fact", "value": "The user flies with Lufthansa.",
         "entities": ["flights"], "occurred_at": "2026-11-21T09:00:00Z"},
    )  # fmt: skip
    allergy, aisle, window, flight, *_ = stored
    assert window["outcome"] == "conflict"  # same hour: the write path keeps both active

    r = await client.post("/summarize", json={"user_id": "flyer"})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["superseded"] == [{"id": aisle["id"], "superseded_by": window["id"]}]
    assert set(body["standing_ids"]) == {allergy["id"], window["id"]}
    [summary] = body["summaries"]
    assert summary["memory"]["type"] == "fact"
    assert summary["memory"]["value"] == (
        "flights:\n- The user needs a flight from Berlin to Tokyo.\n"
        "- The user flies with Lufthansa."
    )
    assert allergy["id"] not in summary["source_ids"] and flight["id"] in summary["source_ids"]

    st = await statuses(engine, "flyer")
    assert st["The user is allergic to peanuts"] == "active"
    assert st["The user prefers window seats"] == "active"
    assert st["The user prefers aisle seats"] == "superseded"
    assert (await client.get(f"/memories/{allergy['id']}")).json()["type"] == "constraint"

    r = await client.get("/context", params={"user_id": "flyer", "query": "book my flight"})
    assert r.status_code == 200, r.text
    standing = [u["value"] for u in r.json()["parts"]["preferences"]]
    assert "The user is allergic to peanuts" in standing
    assert "The user prefers window seats" in standing
    assert "The user prefers aisle seats" not in r.json()["text"]


async def test_offline_digest_fits_what_the_model_embeds(client, engine):
    # Tester B8: a digest of 514 model tokens was stored and embedded by its first 384 tokens
    # only, so the claims after them could not be recalled while their sources were archived.
    # The digest now stops at LIMITS__TEXT_TOKENS; the sources it could not hold stay active.
    places = ["Lisbon", "Porto", "Madrid", "Seville", "Valencia", "Bilbao", "Granada", "Malaga",
              "Toledo", "Cordoba", "Girona", "Cadiz", "Segovia", "Salamanca", "Zaragoza",
              "Pamplona", "Coimbra", "Braga", "Faro", "Evora"]  # fmt: skip
    facts = [
        {"user_id": "u1", "entities": ["Caroline"],
         "value": f"Caroline spent a long weekend in {p} with her cousins in month {k + 1} and "
                  f"wrote down every restaurant they tried near the old harbour of {p}."}
        for k, p in enumerate(places)
    ]  # fmt: skip
    sources = await store(client, *facts)
    r = await client.post("/summarize", json={"user_id": "u1"})
    assert r.status_code == 200, r.text
    [summary] = r.json()["summaries"]
    digest = summary["memory"]["value"]
    assert len(digest) < 2000  # the character limit alone would have let it run on
    tokens = client._transport.app.state.resources.model_tokens  # the service's own tokenizer
    assert tokens.count(digest) <= 384
    held = set(summary["source_ids"])
    assert 0 < len(held) < len(sources)
    st = await statuses(engine)
    for fact, source in zip(facts, sources, strict=True):
        assert st[fact["value"]] == ("archived" if source["id"] in held else "active")
        if source["id"] not in held:
            assert fact["value"].split(" in ")[1].split(" with")[0] not in digest


async def test_a_summary_is_dated_by_the_span_of_its_sources(client):
    """Tester C22: the digest was anchored at its newest source (in practice the time of the
    run: sources stored without a date are dated by their write), so recall ``as_of`` a
    moment of the sources' span found nothing once they were archived. Its ``occurred_at`` is
    now the earliest of its sources; ``metadata.span`` their first and last dates."""
    april = [
        {**KYOTO[0], "occurred_at": "2024-04-10T00:00:00Z"},
        {**KYOTO[1], "occurred_at": "2024-04-12T00:00:00Z"},
        {**KYOTO[2], "occurred_at": "2024-05-01T00:00:00Z"},
    ]
    await store(client, *april)
    r = await client.post("/summarize", json={"user_id": "u1"})
    assert r.status_code == 200, r.text
    [summary] = r.json()["summaries"]
    memory = (await client.get(f"/memories/{summary['id']}")).json()
    assert memory["occurred_at"] == memory["valid_from"] == "2024-04-10T00:00:00Z", memory
    assert memory["metadata"]["span"] == {
        "from": "2024-04-10T00:00:00+00:00",
        "to": "2024-05-01T00:00:00+00:00",
    }
    assert memory["created_at"] > "2026"  # written now, dated by its sources
    r = await client.post(
        "/recall",
        json={"query": "Kyoto", "user_id": "u1", "top_k": 5, "as_of": "2024-04-20T00:00:00Z"},
    )
    assert r.status_code == 200, r.text
    assert [m["id"] for m in r.json()["memories"]] == [summary["id"]]

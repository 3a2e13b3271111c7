"""POST /summarize does bounded work (tester finding K9: 600 units took 15 s of CPU) and
the digests of one run are not decided against each other (K10: digests of two entity groups
with similar lines were left as a review between them)."""

from __future__ import annotations

import random
from collections import Counter
from types import SimpleNamespace
from typing import Any

import httpx

from app.core.config import LifecycleSettings, Settings
from app.services.lifecycle.summarizers import MAX_GROUP, OfflineSummarizer, group_by_entity
from tests.conftest import running_app
from tests.services.lifecycle.test_lifecycle import store


def pair(city: str) -> list[dict[str, Any]]:
    """Two units about ``city`` alone, alike for every city but its name."""
    return [
        {"user_id": "u1", "value": f"The user booked a hotel in {city} for May 3.",
         "entities": [city], "occurred_at": "2026-03-01T10:00:00Z"},
        {"user_id": "u1", "value": f"The user will take the train to {city} on May 3.",
         "entities": [city], "occurred_at": "2026-03-01T10:05:00Z"},
    ]  # fmt: skip


async def open_reviews(client: httpx.AsyncClient, user: str = "u1") -> list[dict[str, Any]]:
    r = await client.get("/reviews", params={"user_id": user, "limit": 200})
    assert r.status_code == 200, r.text
    return list(r.json()["reviews"])


async def test_digests_of_one_run_open_no_review_against_each_other(client, engine):
    await store(client, *pair("Kyoto"), *pair("Osaka"))
    before = {x["id"] for x in await open_reviews(client)}
    r = await client.post("/summarize", json={"user_id": "u1"})
    assert r.status_code == 200, r.text
    body = r.json()
    assert sorted(s["entity"] for s in body["summaries"]) == ["Kyoto", "Osaka"]
    assert [s["outcome"] for s in body["summaries"]] == ["created", "created"]
    digests = {s["id"] for s in body["summaries"]}
    new = [x for x in await open_reviews(client) if x["id"] not in before]
    assert [x for x in new if {x["unit_id"], x["candidate_id"]} & digests] == []
    for s in body["summaries"]:
        memory = (await client.get(f"/memories/{s['id']}")).json()
        assert memory["status"] == "active" and memory["conflicts_with"] == []


async def test_a_digest_is_still_decided_against_an_older_unit(client):
    # An older unit, outside the window, that says what the digest will say: merged into.
    digest = "Kyoto:\n- The user booked a hotel in Kyoto for May 3.\n" \
        "- The user will take the train to Kyoto on May 3."  # fmt: skip
    [older] = await store(
        client, {"user_id": "u1", "value": digest, "occurred_at": "2026-01-01T00:00:00Z"}
    )
    await store(client, *pair("Kyoto"), *pair("Osaka"))
    window = {"user_id": "u1", "since": "2026-02-01T00:00:00Z"}
    r = await client.post("/summarize", json=window)
    assert r.status_code == 200, r.text
    by_entity = {s["entity"]: s for s in r.json()["summaries"]}
    assert by_entity["Kyoto"]["outcome"] == "merged" and by_entity["Kyoto"]["id"] == older["id"]
    assert by_entity["Osaka"]["outcome"] == "created"


async def test_a_call_writes_summaries_up_to_its_token_budget_and_says_what_remains(
    settings: Settings, engine
):
    bounded = settings.model_copy(
        update={"lifecycle": LifecycleSettings(summarize_max_tokens=16, summarize_max_units=5)}
    )
    async with running_app(bounded) as (_, client):
        await store(client, *pair("Kyoto"), *pair("Osaka"), *pair("Nara"))
        seen: list[tuple[list[str], int, int]] = []
        for _ in range(4):
            r = await client.post("/summarize", json={"user_id": "u1"})
            assert r.status_code == 200, r.text
            body = r.json()
            seen.append(([s["entity"] for s in body["summaries"]], body["archived"],
                         body["remaining"]))  # fmt: skip
        # 6 units, 5 read a call; one summary a call (16 tokens: the first is always written)
        assert seen[0] == (["Kyoto"], 2, 3)  # Osaka's 2 waiting, 1 unread (Nara's second)
        assert seen[1] == (["Nara"], 2, 2)  # read: Osaka, Nara, two digests (oldest first)
        assert seen[2] == (["Osaka"], 2, 0)
        assert seen[3] == ([], 0, 0)


async def test_the_digest_cut_by_bisection_is_the_cut_line_by_line(client):
    # K9: the digest's token cut counted its whole text once per claim (O(n²) tokens); it
    # bisects now, and must keep exactly the lines the claim-by-claim scan kept.
    tokens = client._transport.app.state.resources.model_tokens  # the service's tokenizer
    lines = ["Caroline:"] + [
        f"- Caroline spent {k} weekends in town number {k * 7} and wrote down what she ate."
        for k in range(40)
    ]
    for limit in (8, 60, 200, 384, 5000):
        digest = OfflineSummarizer(tokens, limit)
        scan = 1
        while scan < len(lines) and digest._fits(lines[: scan + 1]):
            scan += 1
        assert digest._fitting(lines) == scan, limit


def test_grouping_by_entity_indexes_units_by_entity_and_groups_as_before():
    # K9: grouping looked at every unit once per entity of the subject (O(units × entities));
    # it indexes them by entity now. The groups are those of the former scan.
    def former(units: list[Any], min_group: int) -> list[tuple[str, list[Any]]]:
        counts = Counter(k for u in units for k in dict.fromkeys(u.entity_keys))
        taken: set[Any] = set()
        out = []
        for key in sorted(counts, key=lambda k: (-counts[k], k)):
            members = [u for u in units if u.id not in taken and key in u.entity_keys]
            if len(members) >= min_group:
                out.append((key, members[:MAX_GROUP]))
                taken.update(u.id for u in members[:MAX_GROUP])
        return out

    rng = random.Random(9)
    names = [f"name{k}" for k in range(40)]
    units = []
    for k in range(400):
        keys = rng.sample(names[: rng.choice((4, 12, 40))], rng.randint(0, 4))
        units.append(SimpleNamespace(id=k, entities=keys, entity_keys=keys))
    for min_group in (2, 3, 7):
        got = group_by_entity(units, min_group)  # type: ignore[arg-type]
        assert [(g.key, g.units) for g in got] == former(units, min_group)
        assert len({u.id for g in got for u in g.units}) == sum(len(g.units) for g in got)

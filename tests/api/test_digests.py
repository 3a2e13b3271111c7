"""A digest (``POST /summarize``) is its parts (tester hbreak6 G10, G40; docs/LIFECYCLE.md
"Consolidation"): a change of one fact supersedes that fact, not the whole digest, and
forgetting a digest gives back the units it consolidated (or forgets them with
``parts=forget``). Through the API, on embedded PostgreSQL and Redis."""

from __future__ import annotations

from typing import Any

import httpx

from tests.services.lifecycle.test_lifecycle import store

USER = "sam"
FACTS = [
    {"user_id": USER, "value": "Sam works at Google.", "entities": ["Sam"]},
    {"user_id": USER, "value": "Sam lives in Berlin.", "entities": ["Sam"]},
    {"user_id": USER, "value": "Sam has a dog named Rex.", "entities": ["Sam"]},
]
EVERY_STATUS = {"user_id": USER, "status": ["active", "archived", "superseded", "merged"]}


async def digest_of_facts(client: httpx.AsyncClient) -> tuple[list[str], dict[str, Any]]:
    """The three facts stored and summarised: their ids and the digest."""
    sources = [s["id"] for s in await store(client, *FACTS)]
    r = await client.post("/summarize", json={"user_id": USER})
    assert r.status_code == 200, r.text
    [summary] = r.json()["summaries"]
    assert sorted(summary["source_ids"]) == sorted(sources)
    return sources, summary["memory"]


async def statuses(client: httpx.AsyncClient) -> dict[str, str]:
    r = await client.get("/memories", params={**EVERY_STATUS, "limit": 200})
    return {m["value"]: m["status"] for m in r.json()["memories"]}


async def recalled(client: httpx.AsyncClient, query: str) -> list[str]:
    r = await client.post("/recall", json={"query": query, "user_id": USER, "top_k": 10})
    assert r.status_code == 200, r.text
    return [m["value"] for m in r.json()["memories"]]


async def test_a_changed_fact_supersedes_that_fact_not_the_digest(client):
    """G10: "Sam now works at Microsoft" superseded the whole digest, and Berlin and Rex
    dropped out of recall. Now it supersedes "Sam works at Google"; the digest is unpacked
    (archived, ``metadata.unpacked``) and its other parts are active units again."""
    (google, berlin, rex), digest = await digest_of_facts(client)
    new = {"user_id": USER, "value": "Sam now works at Microsoft.", "entities": ["Sam"]}
    [result] = await store(client, new)
    assert result["outcome"] == "superseded", result
    assert result["memory"]["metadata"]["supersedes"] == [google], result

    assert await statuses(client) == {
        "Sam now works at Microsoft.": "active",
        "Sam works at Google.": "superseded",
        "Sam lives in Berlin.": "active",
        "Sam has a dog named Rex.": "active",
        digest["value"]: "archived",
    }
    old = (await client.get(f"/memories/{google}")).json()
    assert old["superseded_by"] == result["id"], old
    unpacked = (await client.get(f"/memories/{digest['id']}")).json()
    assert unpacked["metadata"]["unpacked"]["by"] == result["id"], unpacked
    assert sorted(unpacked["metadata"]["unpacked"]["parts"]) == sorted([google, berlin, rex])
    # the parts live at least as long as the digest that kept them
    for part in (berlin, rex):
        unit = (await client.get(f"/memories/{part}")).json()
        assert unit["expires_at"] >= digest["expires_at"], unit
    assert "Sam lives in Berlin." in await recalled(client, "Where does Sam live?")
    assert "Sam has a dog named Rex." in await recalled(client, "What is Sam's dog called?")
    work = await recalled(client, "Where does Sam work?")
    assert "Sam now works at Microsoft." in work and "Sam works at Google." not in work
    history = (await client.get(f"/memories/{result['id']}/history")).json()
    assert [u["id"] for u in history["memories"]] == [google, result["id"]], history


async def test_a_restatement_merges_into_the_digest_and_another_fact_leaves_it(client):
    """Restating a fact the digest holds merges into the digest (it holds that fact); an
    unrelated fact leaves the digest as it is."""
    _, digest = await digest_of_facts(client)
    again = {"user_id": USER, "value": "Sam lives in Berlin.", "entities": ["Sam"]}
    [result] = await store(client, again)
    assert (result["outcome"], result["id"]) == ("merged", digest["id"]), result
    other = {"user_id": USER, "value": "Sam plays the cello.", "entities": ["Sam"]}
    [result] = await store(client, other)
    assert result["outcome"] == "created", result
    unit = (await client.get(f"/memories/{digest['id']}")).json()
    assert unit["status"] == "active" and "unpacked" not in unit["metadata"], unit


async def test_forgetting_a_digest_restores_its_parts(client):
    """G40: forgetting a digest left its sources archived, out of recall, with nothing
    holding them. They are active again and listed in the receipt's ``restored``, as the
    units a forgotten head of a supersede chain had superseded are."""
    sources, digest = await digest_of_facts(client)
    r = await client.delete(f"/memories/{digest['id']}")
    assert r.status_code == 200, r.text
    assert r.json()["restored"] == sorted(sources), r.json()
    assert r.json()["removed"]["memory_units"] == 1
    assert await statuses(client) == {f["value"]: "active" for f in FACTS}
    assert "Sam lives in Berlin." in await recalled(client, "Where does Sam live?")
    assert (await client.get(f"/memories/{digest['id']}")).status_code == 404


async def test_forgetting_a_digest_with_its_parts(client):
    """``parts=forget`` forgets the units the digest consolidated with it."""
    sources, digest = await digest_of_facts(client)
    r = await client.delete(f"/memories/{digest['id']}", params={"parts": "forget"})
    assert r.status_code == 200, r.text
    assert r.json()["restored"] == [] and r.json()["removed"]["memory_units"] == 4, r.json()
    assert await statuses(client) == {}
    for unit in (digest["id"], *sources):
        assert (await client.get(f"/memories/{unit}")).status_code == 404
    r = await client.delete(f"/memories/{digest['id']}", params={"parts": "everything"})
    assert r.status_code == 422, r.text


async def test_a_digest_held_by_a_digest_is_unpacked_on_the_way_to_the_changed_fact(client):
    """A digest consolidated again is a part of the new digest (its lines, not "- - …"
    bullets); a change of one of its facts unpacks both, and every other fact is current."""
    _, first = await digest_of_facts(client)
    await store(
        client,
        {"user_id": USER, "value": "Sam plays the cello.", "entities": ["Sam"]},
        {"user_id": USER, "value": "Sam speaks German.", "entities": ["Sam"]},
    )
    r = await client.post("/summarize", json={"user_id": USER})
    [summary] = r.json()["summaries"]
    assert first["id"] in summary["source_ids"], summary
    assert summary["memory"]["value"] == (
        "Sam:\n- Sam works at Google.\n- Sam lives in Berlin.\n- Sam has a dog named Rex.\n"
        "- Sam plays the cello.\n- Sam speaks German."
    )
    new = {"user_id": USER, "value": "Sam now works at Microsoft.", "entities": ["Sam"]}
    [result] = await store(client, new)
    assert result["outcome"] == "superseded", result
    st = await statuses(client)
    assert st.pop("Sam works at Google.") == "superseded"
    assert st.pop(first["value"]) == st.pop(summary["memory"]["value"]) == "archived"
    assert set(st.values()) == {"active"} and len(st) == 5, st


async def test_forgetting_a_fact_a_digest_holds_forgets_the_digest(client):
    """Forgetting one consolidated unit ("Sam lives in Berlin.") left its words in the digest,
    recallable. The digest goes with it (also one already unpacked: it keeps the words as
    history) and its other parts are active again (``restored``)."""
    (google, berlin, rex), digest = await digest_of_facts(client)
    r = await client.delete(f"/memories/{berlin}")
    assert r.status_code == 200, r.text
    assert r.json()["restored"] == sorted([google, rex]), r.json()
    assert r.json()["removed"]["memory_units"] == 2, r.json()
    assert await statuses(client) == {"Sam works at Google.": "active",
                                      "Sam has a dog named Rex.": "active"}  # fmt: skip
    assert "Berlin" not in str(await recalled(client, "Where does Sam live?"))


async def test_correcting_a_fact_a_digest_holds_unpacks_the_digest(client):
    """A correction of a consolidated unit ("Sam lives in Hamburg.", not Berlin) left the
    digest saying Berlin, the corrected unit archived behind it. The digest is unpacked: the
    corrected unit and the other parts are active."""
    (google, berlin, rex), digest = await digest_of_facts(client)
    r = await client.patch(f"/memories/{berlin}", json={"value": "Sam lives in Hamburg."})
    assert r.status_code == 200, r.text
    assert (r.json()["outcome"], r.json()["memory"]["status"]) == ("updated", "active"), r.json()
    assert await statuses(client) == {
        "Sam works at Google.": "active",
        "Sam lives in Hamburg.": "active",
        "Sam has a dog named Rex.": "active",
        digest["value"]: "archived",
    }
    unpacked = (await client.get(f"/memories/{digest['id']}")).json()
    assert unpacked["metadata"]["unpacked"]["by"] == berlin, unpacked
    assert "Sam lives in Hamburg." in await recalled(client, "Where does Sam live?")


async def test_a_digest_marked_invalid_gives_back_its_parts(client):
    """A digest marked wrong (``status: invalid``) left its sources archived: they are the
    record it was made from, and are active again."""
    _, digest = await digest_of_facts(client)
    r = await client.patch(f"/memories/{digest['id']}", json={"status": "invalid"})
    assert r.status_code == 200, r.text
    assert await statuses(client) == {f["value"]: "active" for f in FACTS}

"""``/store`` reads a type and entities left out from the value as extraction reads a message
(tester hbreak7 H18: every unit stored without a type was a ``fact``, so an allergy was never
a standing constraint; H29: without entities it had none, so the entity graph and
``memory_about`` found nothing). A type or entities given are kept as given."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

U = "inferred-user"


async def stored(client: httpx.AsyncClient, **unit: Any) -> dict[str, Any]:
    r = await client.post("/store", json={"memories": [{"user_id": U, **unit}]})
    assert r.status_code == 200, r.text
    memory: dict[str, Any] = r.json()["results"][0]["memory"]
    return memory


@pytest.mark.parametrize(
    ("value", "kind", "named"),
    [
        ("The user is allergic to peanuts.", "constraint", []),
        ("I'm allergic to penicillin", "constraint", []),
        ("The user never eats pork.", "constraint", []),
        ("The user prefers window seats on long flights.", "preference", []),
        ("The user went hiking with Anna in the Alps last week.", "event", ["Anna", "Alps"]),
        ("The user works at Siemens in Munich.", "fact", ["Siemens", "Munich"]),
        ("The user's sister Anna lives in Denver.", "fact", ["Anna", "Denver"]),
        ("Our wifi password rotates monthly.", "fact", []),
        ("用户对花生过敏。", "constraint", []),
        ("用户喜欢喝茶。", "preference", []),
        ("用户在杭州的阿里巴巴做产品经理。", "fact", ["杭州", "阿里巴巴"]),
    ],
)
async def test_a_type_left_out_is_read_from_the_value(client, value, kind, named) -> None:
    memory = await stored(client, value=value)
    assert memory["type"] == kind
    assert memory["value"] == value  # stored as sent
    assert all(n in memory["entities"] for n in named), memory["entities"]


async def test_a_type_and_entities_given_are_kept(client) -> None:
    memory = await stored(
        client, value="The user is allergic to cats.", type="fact", entities=["Mochi"]
    )
    assert (memory["type"], memory["entities"]) == ("fact", ["Mochi"])
    memory = await stored(client, value="The user lives in Porto.", type="event")
    assert memory["type"] == "event" and memory["entities"] == ["Porto"]
    memory = await stored(client, value="The user moved to Lisbon.", entities=[])
    assert memory["entities"] == []


async def test_an_allergy_stored_without_a_type_is_a_standing_constraint(client) -> None:
    await stored(client, value="The user is allergic to shellfish.")
    r = await client.get("/context", params={"user_id": U, "query": "plan a dinner"})
    assert r.status_code == 200, r.text
    standing = r.json()["parts"]["preferences"]
    assert [p["value"] for p in standing] == ["The user is allergic to shellfish."]
    assert standing[0]["type"] == "constraint"


async def test_entities_left_out_reach_the_entity_graph(client) -> None:
    memory = await stored(client, value="The user works at Siemens in Munich.")
    r = await client.get("/entities", params={"user_id": U})
    assert r.status_code == 200, r.text
    assert {"siemens", "munich"} <= {e["key"] for e in r.json()["entities"]}
    r = await client.get("/entities/Siemens", params={"user_id": U})
    assert r.status_code == 200, r.text
    assert memory["id"] in [m["id"] for m in r.json()["units"]]


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("The user is vegan.", "The user eats no animal products."),  # constraint / fact
        ("The user works at Google.", "用户在谷歌工作。"),  # entities Google / 谷歌
    ],
)
async def test_an_inferred_type_or_entities_keep_no_wording_from_merging(client, first, second):
    """Two wordings of one fact stored without type or entities merged before types were
    inferred (both ``fact``, no entities); read as a constraint and a fact, or naming Google
    and 谷歌, they stayed two units (the pair decision never merges across types or disjoint
    entities). An inferred field is listed in ``metadata.inferred`` and held against no merge."""
    user = f"inferred-merge-{len(first)}"
    r = await client.post("/store", json={"memories": [{"user_id": user, "value": first}]})
    kept = r.json()["results"][0]["memory"]
    assert kept["metadata"]["inferred"], kept
    r = await client.post("/store", json={"memories": [{"user_id": user, "value": second}]})
    assert r.status_code == 200, r.text
    result = r.json()["results"][0]
    assert result["outcome"] == "merged" and result["memory"]["id"] == kept["id"], result

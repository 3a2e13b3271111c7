"""Which unsure pairs open a review, and what the review offers (docs/DEDUPE.md, "Which unsure
pairs open a review"), through ``/store`` and ``/reviews`` offline (no LLM: every review a
store opens stays pending).

Tester E13: replaying LoCoMo conversations through extraction, two unrelated turns that both
name "Tim" or "Harry Potter" opened a review (P(same) 0.29-0.39, or 0.0 for a guarded pair),
~29 per 100 stores, most of kind ``duplicate`` offering a merge. Tester E8: a dog and a cat
with different names, and a corrected allergy, were offered as ``duplicate`` with
``merge_allowed: true``; one click merged a different fact away."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

# Two unrelated turns of conv-43 (E13's replay), each stored with the entities extraction gave.
UNRELATED = [
    (("Been discussing collaborations for a Harry Potter fan project Tim is working on - "
      "super excited!", ["Tim", "Harry Potter"]),
     ("Tim decorated this tree themselves, going all out with a Harry Potter theme! It was a "
      "blast! [shares a photo: a photo of a christmas tree with a harry potter theme].",
      ["Tim", "Harry Potter"])),
    (("John was congratulated by Tim on the new team.", ["John", "Tim"]),
     ("Let Tim know if John needs any tips for visiting.", ["Tim", "John"])),
]  # fmt: skip

# Tester E8's pairs (older, newer): two pets with two names; an allergy and its correction.
NO_MERGE = [
    ("用户养了一只狗，叫豆豆。", "用户等人还领养了一只猫，叫咪咪。"),
    ("The user has a dog named Rex.", "The user has a cat named Tom."),
    ("用户：，而且对花生过敏。", "纠正一下，用户不是对花生过敏，是对芒果过敏。"),
]


async def store(
    client: httpx.AsyncClient, user: str, value: str, entities: list[str] | None = None
) -> dict[str, Any]:
    unit: dict[str, Any] = {"user_id": user, "value": value}
    if entities is not None:
        unit["entities"] = entities
    r = await client.post("/store", json={"memories": [unit]})
    assert r.status_code == 200, r.text
    return r.json()["results"][0]


@pytest.mark.parametrize("pair", UNRELATED, ids=["harry-potter", "tim-john"])
async def test_an_unrelated_pair_naming_one_entity_opens_no_review(client, pair):
    user = f"e13-{UNRELATED.index(pair)}"
    (old, old_entities), (new, new_entities) = pair
    first = await store(client, user, old, old_entities)
    second = await store(client, user, new, new_entities)
    assert second["outcome"] == "created" and second["id"] != first["id"], second
    assert second["pending"] == [], second["pending"]
    assert (await client.get("/reviews", params={"user_id": user})).json()["reviews"] == []


@pytest.mark.parametrize("pair", NO_MERGE, ids=["dog-cat-zh", "dog-cat-en", "allergy-zh"])
async def test_two_names_or_a_correction_never_offer_a_merge(client, pair):
    user = f"e8-{NO_MERGE.index(pair)}"
    old, new = pair
    first = await store(client, user, old)
    second = await store(client, user, new)
    assert second["outcome"] == "created" and second["id"] != first["id"], second
    assert [p for p in second["pending"] if p["kind"] == "duplicate"] == [], second["pending"]
    listed = (await client.get("/reviews", params={"user_id": user})).json()["reviews"]
    assert all(not r["merge_allowed"] and r["kind"] == "contradiction" for r in listed), listed
    for review in listed:  # a click on merge is refused, and both facts stay
        r = await client.post(f"/reviews/{review['id']}", json={"action": "merge"})
        assert r.status_code == 409, r.text
    for unit in (first, second):
        assert (await client.get(f"/memories/{unit['id']}")).json()["status"] == "active"


def test_one_name_in_two_scripts_is_not_two_names():
    from app.services.memory.pairs.features import statement
    from app.services.memory.pairs.gate import merge_ruled_out

    melanie = statement("The user has a friend named Melanie.")
    assert merge_ruled_out(statement("用户有个朋友叫梅兰妮。"), melanie) is None
    assert merge_ruled_out(statement("The user has a friend named Anna."), melanie) == (
        "names_differ"
    )

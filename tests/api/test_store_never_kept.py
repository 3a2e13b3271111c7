"""`/store` and `PATCH` refuse the secrets extraction never keeps (tester hbreak6 G39: a card
number with its CVV and a bank password were stored through `/store` and MCP
`memory_store`, and recalled): a 422 naming the field and the kind, never the value, and
nothing of the batch is written."""

from __future__ import annotations

import pytest

CARD = "The user's Visa card is 4111 1111 1111 1111, exp 12/28, CVV 737."


@pytest.mark.parametrize(
    ("value", "kind"),
    [
        (CARD, "a payment card number"),
        ("The user's online banking password is Tr0ub4dor&3.", "a password"),
        ("The user's bank password is Hunter2!", "a password"),
        ("The alarm code for the house is 5521.", "an access code"),
    ],
)
async def test_a_secret_in_a_stored_unit_is_a_422_and_nothing_is_written(client, value, kind):
    ok = {"user_id": "g39", "value": "The user is allergic to peanuts."}
    r = await client.post("/store", json={"memories": [ok, {"user_id": "g39", "value": value}]})
    assert r.status_code == 422, r.text
    problem = r.json()
    assert problem["detail"].startswith("memories.1.value: holds " + kind), problem
    assert "never kept" in problem["detail"]
    assert "4111" not in r.text and "Hunter2" not in r.text and "5521" not in r.text
    listed = await client.get("/memories", params={"user_id": "g39"})
    assert listed.json()["memories"] == []


async def test_a_secret_in_a_trigger_scenario_or_a_patch_is_refused(client):
    unit = {"user_id": "g39b", "value": "The user banks online.",
            "query": "When logging in with password Tr0ub4dor&3"}  # fmt: skip
    r = await client.post("/store", json={"memories": [unit]})
    assert r.status_code == 422 and "memories.0.query" in r.json()["detail"], r.text
    r = await client.post("/store", json={"memories": [{**unit, "query": None}]})
    unit_id = r.json()["results"][0]["id"]
    r = await client.patch(f"/memories/{unit_id}", json={"value": CARD})
    assert r.status_code == 422 and r.json()["detail"].startswith("value: holds"), r.text
    got = await client.get(f"/memories/{unit_id}")
    assert got.json()["value"] == "The user banks online."


async def test_a_value_that_only_mentions_a_password_is_stored(client):
    unit = {"user_id": "g39c", "value": "The user keeps passwords in a password manager."}
    r = await client.post("/store", json={"memories": [unit]})
    assert r.status_code == 200, r.text

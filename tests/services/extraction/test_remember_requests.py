"""A request to remember is the statement it carries (tester hbreak6 G3: asked as a question
it made no unit, the penicillin allergy included; said as "Please remember that…" the request
stayed in the value), and a request not to keep something is honoured in its everyday shapes
(G15: "don't tell anyone or save this", "don't write that down", "don't keep a note of that"
were stored with the request in the value). Offline extractor, through the API."""

from __future__ import annotations

import pytest

from tests.services.extraction.extracted import NOW, units_of, user


@pytest.mark.parametrize(
    ("said", "value", "kind"),
    [
        ("Can you remember that I prefer aisle seats?", "The user prefers aisle seats.",
         "preference"),
        ("Could you note that I'm lactose intolerant?", "The user is lactose intolerant.",
         "constraint"),
        ("Would you remember that I'm allergic to penicillin?",
         "The user is allergic to penicillin.", "constraint"),
        ("Can you keep in mind that I don't eat pork?", "The user does not eat pork.",
         "constraint"),
        ("May I ask you to remember that I prefer aisle seats?", "The user prefers aisle seats.",
         "preference"),
        ("Please remember that my wife's birthday is on June 3.",
         "The user's wife's birthday is on June 3.", "fact"),
        ("你能记住我对花生过敏吗？", "用户对花生过敏。", "constraint"),
        ("请记住我对猫过敏。", "用户对猫过敏。", "constraint"),
    ],
)  # fmt: skip
async def test_a_request_to_remember_is_the_statement_it_carries(client, said, value, kind):
    units = await units_of(client, "g3", [user(said)])
    assert list(units) == [value], units
    assert units[value]["type"] == kind


async def test_asking_the_assistant_to_recall_is_still_a_question(client):
    assert await units_of(client, "g3q", [user("Can you remember my sister's name?")]) == {}


@pytest.mark.parametrize(
    "said",
    [
        "I'm pregnant, but please don't tell anyone or save this.",
        "I'm pregnant. Please don't write that down.",
        "I'm pregnant. Don't keep a note of that.",
        "I'm pregnant. Don't make a note of it.",
    ],
)
async def test_a_request_not_to_keep_it_keeps_nothing(client, said):
    body = {"user_id": "g15", "messages": [user(said)], "now": NOW}
    job = (await client.post("/extract?wait=true", json=body)).json()
    assert job["status"] == "succeeded", job
    assert [u["outcome"] for u in job["units"]] == ["dropped"], job["units"]
    assert "asked not to be remembered" in job["units"][0]["reason"]
    listed = (await client.get("/memories", params={"user_id": "g15"})).json()["memories"]
    assert listed == []


async def test_confidentiality_alone_is_no_request_to_forget(client):
    """ "Keep this between us" / "don't tell anyone" ask for discretion, which a per-user memory
    gives: the fact is kept, without the request in its words."""
    for said in ("Keep this between us: I'm pregnant.", "I'm pregnant, but don't tell anyone."):
        units = await units_of(client, "g15b", [user(said)])
        assert list(units) == ["The user is pregnant."], units

"""Tester D31: a merge kept only the first text — "用户每天吃两片药" then "用户每天吃三片药" came
back ``merged`` and the second dose was gone (两/三 before 片 were not read as numbers), and
"Alice likes hot dogs" merged into "Alice likes dogs". Now a numeral before a dose's measure
word is a value (the pair is a conflict, both kept), and a restatement worded otherwise is kept
in the survivor's ``metadata.restated_as``, so no accepted text is lost to a merge."""

from __future__ import annotations

import hashlib

import pytest

from tests.services.memory.as_fact import FACT


async def store(client, user: str, value: str, **more: str) -> dict:
    unit = {"user_id": user, "value": value, **FACT, **more}
    r = await client.post("/store", json={"memories": [unit]})
    assert r.status_code == 200, r.text
    return r.json()["results"][0]


@pytest.mark.parametrize(
    ("first", "second"),
    [("用户每天吃两片药。", "用户每天吃三片药。"), ("用户每天吃两粒药。", "用户每天吃三粒药。"),
     ("用户每天喝一罐可乐。", "用户每天喝两罐可乐。")],
)  # fmt: skip
async def test_a_dose_in_chinese_numerals_is_a_value(client, first, second):
    user = f"dose-{len(first)}-{second[5]}"
    await store(client, user, first)
    result = await store(client, user, second)
    assert result["outcome"] != "merged", result
    r = await client.get("/memories", params={"user_id": user, "include_superseded": "true"})
    assert {m["value"] for m in r.json()["memories"]} == {first, second}


async def test_a_merged_restatement_keeps_its_own_words(client):
    first = await store(client, "restated", "The user prefers window seats on flights")
    second = await store(client, "restated", "The user prefers window seats on flights.")
    third = await store(client, "restated", "On flights the user prefers window seats")
    assert second["outcome"] == third["outcome"] == "merged", (second, third)
    unit = (await client.get(f"/memories/{first['id']}")).json()
    assert unit["value"] == "The user prefers window seats on flights"
    assert unit["metadata"]["restated_as"] == [
        "The user prefers window seats on flights.",
        "On flights the user prefers window seats",
    ]


async def test_a_never_clause_sharing_only_the_name_and_a_verb_supersedes_nothing(client):
    """Tester D30 (LoCoMo conv-41): "John never give up." superseded "John is doing kickboxing
    and it's giving John so much energy." as a negation flip — the shorter side lay inside the
    longer by the name and one verb. A real flip ("John doesn't like coffee") still is one."""
    kickboxing = "John is doing kickboxing and it's giving John so much energy."
    first = await store(client, "d30", kickboxing, occurred_at="2022-12-17T11:01:00Z")
    await store(client, "d30", "John never give up.", occurred_at="2022-12-22T18:10:00Z")
    assert (await client.get(f"/memories/{first['id']}")).json()["status"] == "active"
    await store(client, "d30b", "John likes coffee.")
    flipped = await store(client, "d30b", "John doesn't like coffee.")
    assert flipped["outcome"] in ("conflict", "superseded"), flipped


@pytest.mark.parametrize(
    ("first", "second"),
    [("The user's blood type is A+.", "The user's blood type is A-."),
     ("The user's blood type is O+.", "The user's blood type is O-."),
     ("The user likes red wine.", "The user likes white wine."),
     ("The user likes dark chocolate.", "The user likes milk chocolate."),
     ("The user's daughter plays piano.", "The user's daughter plays piano and violin.")],
)  # fmt: skip
async def test_another_value_is_never_merged(client, first, second):
    """Tester hbreak5 F25: each second value came back `merged` and recall served only the
    first (A- into A+: the sign was not part of the key; red / white wine by the compound's
    head; "piano and violin" by the rewording rule, which kept "piano")."""
    user = "value-" + hashlib.sha1(second.encode()).hexdigest()[:10]
    await store(client, user, first)
    result = await store(client, user, second)
    assert result["outcome"] != "merged", result
    r = await client.get("/memories", params={"user_id": user, "include_superseded": "true"})
    assert {m["value"] for m in r.json()["memories"]} == {first, second}

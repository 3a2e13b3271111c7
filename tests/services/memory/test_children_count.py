"""A birth changes how many children the user's family has: "We just had our third baby."
(extracted as "The user just had the user's third baby.") against "The user and their partner
have two kids." was read as another person's fact (the baby after a possessive) and both stayed
active — the family still had two children. Now the count is superseded, kept as history;
another person's children are not the user's. Old fact by /store, the birth told to /extract
(offline)."""

from __future__ import annotations

import pytest

from tests.services.memory.told import store_value, tell


@pytest.mark.parametrize(
    ("old", "said"),
    [
        ("The user and their partner have two kids.", "We just had our third baby."),
        ("The user has two children.", "My wife and I just had our third child."),
        ("用户和伴侣有两个孩子。", "我们刚生了第三个孩子。"),
        ("用户有两个孩子。", "我刚生了第三个宝宝。"),
    ],
)  # fmt: skip
async def test_a_birth_supersedes_the_count_of_children(client, old, said):
    user = f"kids-{len(old)}-{len(said)}"
    old_id = await store_value(client, user, old)
    units = await tell(client, user, said)
    r = await client.get(f"/memories/{old_id}")
    assert r.json()["status"] == "superseded", (r.json(), units)
    assert r.json()["superseded_by"] in [u["memory_id"] for u in units], (r.json(), units)


async def test_another_persons_children_stay(client):
    user = "kids-sister"
    old_id = await store_value(client, user, "The user's sister has two kids.")
    await tell(client, user, "We just had our third baby.")
    assert (await client.get(f"/memories/{old_id}")).json()["status"] == "active"

"""One place or company named two ways is one value of its slot: 用户住在北京 / 用户住在北京市 and
用户在谷歌工作 / 用户在谷歌公司工作 were a contradiction of unclear order (both kept, linked as
conflicting, a review opened), "The user works at Google." / "… at Google Inc." too. Now the
two values agree (a tail CC-CEDICT defines only as a kind of place or firm: 市 city, 公司
company, 集团 group; a legal form in English): no contradiction, nothing superseded. Another
place or company is still one."""

from __future__ import annotations

import pytest

from tests.services.memory.told import stored as store


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("用户住在北京。", "用户住在北京市。"),
        ("用户住在北京市。", "用户住在北京。"),
        ("用户在谷歌工作。", "用户在谷歌公司工作。"),
        ("用户在阿里巴巴工作。", "用户在阿里巴巴集团工作。"),
        ("The user works at Google.", "The user works at Google Inc."),
    ],
)  # fmt: skip
async def test_one_value_named_two_ways_is_no_contradiction(client, old, new):
    user = f"twice-{len(old)}-{len(new)}"
    a = await store(client, user, old)
    b = await store(client, user, new)
    assert b["outcome"] in ("created", "merged"), b
    assert [p["kind"] for p in b.get("pending", [])] in ([], ["duplicate"]), b
    first = (await client.get(f"/memories/{a['id']}")).json()
    assert first["status"] in ("active", "merged") and first["conflicts_with"] == [], first
    r = await client.get("/reviews", params={"user_id": user, "kind": "contradiction"})
    assert r.json()["reviews"] == [], r.json()


@pytest.mark.parametrize(
    ("old", "new"),
    [("用户住在北京。", "用户住在上海市。"), ("用户在谷歌工作。", "用户在腾讯公司工作。")],
)
async def test_another_value_still_contradicts(client, old, new):
    user = f"twice-other-{len(new)}"
    await store(client, user, old)
    b = await store(client, user, new)
    assert b["outcome"] in ("superseded", "conflict"), b

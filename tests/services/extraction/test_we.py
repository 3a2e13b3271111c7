"""Who "we" is (tester B5): in a group chat, "We went camping last weekend" said by Jon was
stored as "Jon and others went camping…". Now the unit names who "we" is when the message or
the question it answers says it ("My wife Anna and I…", "Did you and Gina…?", 我和安娜…), and
otherwise stays with the speaker: "Jon went camping … with others". English and Chinese,
through /extract."""

from __future__ import annotations

import httpx
import pytest

NOW = "2026-12-06T10:00:00Z"  # Sunday: last weekend is 28–29 November


def said(name: str, content: str) -> dict:
    return {"role": "user", "name": name, "content": content}


async def values(client: httpx.AsyncClient, messages: list[dict]) -> list[str]:
    body = {"user_id": "jon", "messages": messages, "now": NOW}
    r = await client.post("/extract?wait=true", json=body)
    assert r.status_code == 200, r.text
    assert r.json()["status"] == "succeeded", r.json()
    r = await client.get("/memories", params={"user_id": "jon", "limit": 50})
    assert r.status_code == 200, r.text
    return [m["value"] for m in r.json()["memories"]]


@pytest.mark.parametrize(
    ("messages", "expected"),
    [
        ([said("Maria", "How was your weekend?"), said("Jon", "We went camping last weekend.")],
         "Jon went camping on the weekend of 2026-11-28 with others."),
        ([said("Maria", "How was your weekend?"),
          said("Jon", "My wife Anna and I went camping last weekend. We had a great time.")],
         "Jon and Anna had a great time."),
        ([said("Maria", "Did you and Gina go camping last weekend?"),
          said("Jon", "Yes! We loved it, we even saw a bear.")],
         "Jon and Gina loved it"),
        ([said("小王", "周末过得怎么样？"), said("小李", "我们上周末去露营了。")],
         "小李2026年11月28日那个周末去露营了（和其他人一起）。"),
        ([said("小王", "周末过得怎么样？"),
          said("小李", "我和安娜上周末去露营了，我们玩得很开心。")],
         "小李和安娜玩得很开心"),
        ([said("小王", "最近忙吗？"), said("小李", "我们上周一起去爬山了。")],
         "小李2026年11月23日那一周和其他人一起去爬山了。"),
    ],
)  # fmt: skip
async def test_we_is_who_the_transcript_says_or_the_speaker_with_others(client, messages, expected):
    units = await values(client, messages)
    assert [v for v in units if expected in v], units
    assert not [v for v in units if "and others" in v or "等人" in v], units

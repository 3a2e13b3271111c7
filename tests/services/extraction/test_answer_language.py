"""The language to answer in is a standing instruction that a later one replaces (tester hbreak7
H25: "From now on, reply in German." made no unit and "always answer in English" stayed the
standing constraint; 以后请用中文回答我 was a 30-day event). Offline, through the API."""

from __future__ import annotations

import pytest

from tests.services.extraction.extracted import units_of, user


@pytest.mark.parametrize(
    ("before", "after", "old", "new"),
    [
        ("Please always answer in English.", "From now on, reply in German.",
         "The user asked the assistant to always answer in English.",
         "The user asked the assistant to always answer in German."),
        ("请一直用英文回答。", "以后请用中文回答我。", "用户要求助手一直用英文回答。",
         "用户要求助手一直用中文回答。"),
    ],
)  # fmt: skip
async def test_a_later_answer_language_replaces_the_earlier(client, before, after, old, new):
    await units_of(client, "h25", [user(before)])
    units = await units_of(client, "h25", [user(after)])
    assert list(units) == [new] and units[new]["type"] == "constraint", units
    params = {"user_id": "h25", "status": "superseded"}
    history = (await client.get("/memories", params=params)).json()["memories"]
    assert [u["value"] for u in history] == [old], history

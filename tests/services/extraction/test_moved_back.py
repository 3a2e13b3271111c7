"""A move said with "back" or with this week's time is a move (tester hbreak7 H3: "I moved back
to Paris this week" and 我这周搬到北京了 were events that "Where do I live?" found with relevance
~0, below the documented "nothing relevant" line, beside the home they replace). Offline
extractor, through the API; English and Chinese."""

from __future__ import annotations

import pytest

from tests.services.extraction.extracted import units_of, user


@pytest.mark.parametrize(
    ("before", "said", "value", "question"),
    [
        ("I live in Lyon.", "I moved back to Paris this week.",
         "The user moved back to Paris in the week of 2026-11-30 and now lives there.",
         "Where do I live?"),
        ("我住在上海。", "我这周搬到北京了。", "用户2026年11月30日那一周搬到了北京，现在住在那里。",
         "我住在哪里？"),
        ("我住在上海。", "我又搬回杭州了。", "用户搬到了杭州，现在住在那里。", "我住在哪里？"),
    ],
)  # fmt: skip
async def test_a_move_back_or_this_week_is_the_new_home(client, before, said, value, question):
    await units_of(client, "h3", [user(before)])
    units = await units_of(client, "h3", [user(said)])
    assert units[value]["type"] == "fact", units
    assert [u["value"] for u in units.values() if u["status"] == "active"] == [value], units
    r = await client.post("/recall", json={"user_id": "h3", "query": question, "top_k": 3})
    hits = r.json()["memories"]
    assert hits[0]["value"] == value, hits
    assert r.json()["best_relevance"] >= 0.03, r.json()

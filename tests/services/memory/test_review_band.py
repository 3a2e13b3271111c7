"""The band of the review gate (docs/DEDUPE.md, "Which unsure pairs open a review" and "The
band's words"), through ``/store`` and ``/reviews`` offline (no LLM: every review a store opens
stays pending).

Issue 28 step 2: the LoCoMo dev ingest (each turn one unit, ``Speaker: text``) opened 20.4
reviews per 100 stores, nearly all by the band alone — two turns of chit-chat at cosine
0.95-0.99 ("Thanks, Maria. Your support means a lot…" / "Yep, definitely. Your support really
means a lot, Maria…"). A unit holds one fact; two turns that each say many things the other
does not, or ask a question, are not one fact told twice."""

from __future__ import annotations

from typing import Any

import httpx

from app.services.memory.pairs.features import statement
from app.services.memory.pairs.gate import in_band

# Turns of one speaker of LoCoMo dev conv-41 that the band alone paired with each other.
CHIT_CHAT = [
    "John: Thanks, Maria. Your support means a lot and it's awesome to have you by my side in "
    "our community work. Let's keep going and making great things happen!",
    "John: Thanks, Maria. Your encouragement means a lot to me. It's true that with effort and "
    "support, we can make a real difference in our community.",
    "John: Yep, definitely. Your support really means a lot, Maria. Thanks for always being "
    "there for me.",
    "John: Way to go, Maria! You're making a real difference. It's awesome how connecting with "
    "and helping others brings you so much joy. Keep it up!",
    "John: Yeah, Maria! I couldn't agree more. Thanks for being an awesome friend.",
]

# Real candidates (older, newer) the band must still send to review: a rewording that shares
# little wording (a duplicate) and another kind of one thing (a possible contradiction).
STILL_REVIEWED = [
    ("The user is bilingual in English and French", "The user speaks English and French fluently"),
    ("Jon is looking for Marley flooring for his dance studio",
     "Jon is looking for hardwood flooring for his dance studio"),
]  # fmt: skip


async def store(client: httpx.AsyncClient, user: str, value: str) -> dict[str, Any]:
    r = await client.post("/store", json={"memories": [{"user_id": user, "value": value}]})
    assert r.status_code == 200, r.text
    return r.json()["results"][0]


async def test_turns_of_chit_chat_stored_one_at_a_time_open_no_review(client):
    results = [await store(client, "band-chat", turn) for turn in CHIT_CHAT]
    assert [r["outcome"] for r in results] == ["created"] * len(CHIT_CHAT)
    assert [r["pending"] for r in results] == [[]] * len(CHIT_CHAT)
    listed = await client.get("/reviews", params={"user_id": "band-chat"})
    assert listed.json()["reviews"] == []
    stats = (await client.get("/stats", params={"user_id": "band-chat"})).json()
    assert stats.get("open_reviews", 0) == 0, stats


async def test_a_real_candidate_in_the_band_still_opens_a_review(client):
    for k, (old, new) in enumerate(STILL_REVIEWED):
        user = f"band-real-{k}"
        await store(client, user, old)
        second = await store(client, user, new)
        assert second["outcome"] == "created", second
        assert len(second["pending"]) == 1, second
        listed = (await client.get("/reviews", params={"user_id": user})).json()["reviews"]
        assert [r["unit_id"] for r in listed] == [second["id"]]
    flagged = (await client.get("/reviews", params={"user_id": "band-real-1"})).json()
    assert [r["kind"] for r in flagged["reviews"]] == ["contradiction"]


def test_a_question_is_not_one_fact_told_twice():
    asked = statement("Caroline: Hey Melanie! How have you been? Anything new?")
    again = statement("Caroline: Hey Melanie! How's it going? Anything new?")
    told = statement("Caroline: Hey Melanie! I have been busy. Nothing new.")
    assert not in_band(asked, again, 0.97)
    assert in_band(told, statement("Caroline: Hey Melanie! Busy lately. Nothing new."), 0.97)
    assert in_band(asked, again, 0.97, review_unmatched=None)  # the band without its words
    assert not in_band(told, told, 0.94)  # below the band

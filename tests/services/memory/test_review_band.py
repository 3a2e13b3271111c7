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
from app.services.memory.pairs.gate import in_band, other_speakers
from tests.services.memory.as_fact import FACT

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
    r = await client.post("/store", json={"memories": [{"user_id": user, "value": value, **FACT}]})
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


# Issue 28 step 2 (conv-41 and conv-42 held out stayed above 5 reviews per 100 stores): pairs
# of turns the ingest still sent to review, said by two speakers — each speaks for themselves.
TWO_SPEAKERS = [
    ("Maria: Thanks, John. I definitely will!", "John: Got it! Thanks, Maria. I definitely will."),
    ("John: Sure thing, Maria. Thanks for the support! It means a lot to me.",
     "Maria: Sure thing, John. Let me know if you need any help."),
    ("Joanna: Thanks Nate! See you later!", "Nate: Of course! Well see you later Joanna!"),
    ("Nate: Bye Joanna! Take care!", "Joanna: Later, take care!"),
]  # fmt: skip


def turn(value: str, user: str) -> dict[str, Any]:
    """A transcript turn as the LoCoMo ingest stores it (the speaker in ``entities``)."""
    return {"user_id": user, "value": value, "type": "event", "entities": [value.split(":")[0]]}


async def test_two_speakers_turns_open_no_review(client):
    for k, (old, new) in enumerate(TWO_SPEAKERS):
        user = f"band-speakers-{k}"
        for value in (old, new):
            r = await client.post("/store", json={"memories": [turn(value, user)]})
            assert r.status_code == 200, r.text
            assert r.json()["results"][0]["outcome"] == "created", r.text
            assert r.json()["results"][0]["pending"] == [], (old, new, r.text)
        listed = await client.get("/reviews", params={"user_id": user})
        assert listed.json()["reviews"] == []


async def test_one_speakers_possible_change_still_opens_a_review(client):
    user = "band-one-speaker"
    old, new = ("Jon: I'm looking for Marley flooring for my dance studio.",
                "Jon: I'm looking for hardwood flooring for my dance studio.")  # fmt: skip
    await client.post("/store", json={"memories": [turn(old, user)]})
    r = await client.post("/store", json={"memories": [turn(new, user)]})
    assert [p["kind"] for p in r.json()["results"][0]["pending"]] == ["contradiction"], r.text


def test_a_speaker_is_a_name_not_a_label():
    assert other_speakers("Maria: Thanks, John.", "John: Thanks, Maria.")
    assert other_speakers("张三：谢谢！", "李四：谢谢！")
    assert not other_speakers("Nate: Bye!", "Nate: See ya!")
    assert not other_speakers("Note: the user is vegan.", "Update: the user eats fish.")
    assert not other_speakers("User: I am vegan.", "Assistant: You are vegan.")

"""The other animal (tester H21): with the cat stored in English and the dog in Chinese (or the
reverse), "What is my dog's name?" ranked "The user has a cat named Luna." first ("name" its
only shared word) and 我的狗叫什么名字？ the Chinese cat. A hit naming only another thing of
the kind the query names is now scored at most the hits naming it
(app.services.recall.other_kind). Through ``/extract`` and ``/recall`` on the embedded
PostgreSQL."""

from __future__ import annotations

import pytest

from app.services.recall.other_kind import nouns, siblings
from tests.services.extraction.extracted import NOW, user


async def _extract(client, user_id: str, *said: str) -> None:
    body = {"user_id": user_id, "messages": [user(s) for s in said], "now": NOW}
    r = await client.post("/extract?wait=true", json=body)
    assert r.status_code == 200 and r.json()["status"] == "succeeded", r.text


async def _values(client, user_id: str, query: str) -> list[str]:
    r = await client.post("/recall", json={"user_id": user_id, "query": query, "top_k": 3})
    assert r.status_code == 200, r.text
    hits = r.json()["memories"]
    scores = [h["score"] for h in hits]
    assert scores == sorted(scores, reverse=True), hits
    return [h["value"] for h in hits]


@pytest.mark.parametrize(
    ("english", "chinese", "query", "answer", "other"),
    [
        ("I have a cat named Luna.", "我养了一只狗，叫旺财。", "What is my dog's name?",
         "旺财", "Luna"),
        ("I have a dog named Rex.", "我养了一只猫，叫咪咪。", "What is my cat's name?",
         "咪咪", "Rex"),
        ("I have a dog named Rex.", "我养了一只猫，叫咪咪。", "我的狗叫什么名字？", "Rex", "咪咪"),
    ],
)  # fmt: skip
async def test_the_animal_asked_about_comes_first_across_languages(
    client, english, chinese, query, answer, other
):
    await _extract(client, "h21", english, "I work as a nurse.")
    await _extract(client, "h21", chinese, "我住在杭州。")
    values = await _values(client, "h21", query)
    place = [i for i, v in enumerate(values) if answer in v]
    assert place, values  # 我的狗叫什么名字？ left "… a dog named Rex." out of the top 3
    assert all(place[0] < i for i, v in enumerate(values) if other in v), values
    if answer in ("旺财", "咪咪"):  # the English question: the answer first
        assert answer in values[0], values


def test_what_counts_as_another_thing_of_the_kind():
    assert nouns("我的狗叫什么名字？") >= {"dog"} and "cat" in nouns("用户养了一只猫，叫咪咪。")
    assert siblings("dog", "cat") and siblings("sister", "brother")
    assert not siblings("dog", "puppy")  # a kind of dog
    assert not siblings("book", "novel") and not siblings("dog", "user")

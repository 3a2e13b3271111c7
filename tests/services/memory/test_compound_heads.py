"""A compound matches its head word only when it names a kind of it (WordNet), through the
API."""

from __future__ import annotations

from app.services.memory.pairs.lexical import kind_of


async def test_a_compound_that_is_no_kind_of_its_head_is_no_restatement(client):
    """The fifth held-back part, spent: "loves dogs" / "loves hot dogs" merged (a hot dog is
    no dog: WordNet files it under sausage); "plays video games" still aligns with "games"."""
    r = await client.post(
        "/store", json={"memories": [{"user_id": "hd", "value": "The user loves dogs"}]}
    )
    first = r.json()["results"][0]
    r = await client.post(
        "/store", json={"memories": [{"user_id": "hd", "value": "The user loves hot dogs"}]}
    )
    second = r.json()["results"][0]
    assert second["outcome"] == "created" and second["id"] != first["id"], second


def test_kind_of():
    assert kind_of("video_game", "game") and kind_of("dark_chocolate", "chocolate")
    assert not kind_of("hot_dog", "dog") and not kind_of("sea_lion", "lion")
    assert kind_of("no_such_compound", "dog")  # unknown to WordNet: as before

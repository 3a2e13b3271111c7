"""Ids are normalised to NFC at the boundary (tester hbreak7 H28): "zéd" typed precomposed
(U+00E9) and decomposed (e + U+0301) were two users, so a unit stored under one was never
found under the other."""

from __future__ import annotations

COMPOSED = "z\u00e9d"
DECOMPOSED = "ze\u0301d"


async def test_one_user_however_the_accent_is_typed(client) -> None:
    unit = {"user_id": DECOMPOSED, "value": "The user plays the oboe.", "session_id": "s\u0301"}
    r = await client.post("/store", json={"memories": [unit]})
    assert r.status_code == 200, r.text
    memory = r.json()["results"][0]["memory"]
    assert memory["user_id"] == COMPOSED and memory["session_id"] == "\u015b"
    for who in (COMPOSED, DECOMPOSED):
        r = await client.get("/memories", params={"user_id": who})
        assert [m["value"] for m in r.json()["memories"]] == ["The user plays the oboe."], who
    r = await client.get("/subjects")
    assert r.status_code == 200, r.text
    assert DECOMPOSED not in r.text


async def test_one_session_however_the_accent_is_typed(client) -> None:
    said = {"role": "user", "content": "I play the oboe.", "user_id": DECOMPOSED}
    r = await client.post("/working_memory/cafe\u0301/messages", json={"messages": [said]})
    assert r.status_code == 200, r.text
    r = await client.get("/working_memory/caf\u00e9", params={"user_id": COMPOSED})
    assert r.status_code == 200, r.text
    assert [m["content"] for m in r.json()["messages"]] == ["I play the oboe."]
    assert r.json()["messages"][0]["user_id"] == COMPOSED

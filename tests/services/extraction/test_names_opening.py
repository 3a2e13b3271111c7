"""Tester hbreak8 H25: a name of two or more words that opens a value lost its first word —
/store of "David Wang is getting married in May." inferred the entity "Wang" (extraction of
"My friend David Wang…" gives "David Wang": two entities for one person), and
``GET /entities/David Wang`` was 404. A capitalised opener followed by another capitalised
word is kept when it is a given name or no English word; "Yesterday Anna…" still gives Anna."""

from __future__ import annotations

import pytest

from app.services.extraction.statements import en_entities


@pytest.mark.parametrize(
    ("said", "names"),
    [
        ("David Wang is getting married in May.", ["David Wang"]),
        ("Sarah Connor is the user's best friend.", ["Sarah Connor"]),
        ("Mary Jane Watson lives in Queens.", ["Mary Jane Watson", "Queens"]),
        ("Yesterday Anna called me.", ["Anna"]),
        ("Definitely Paris is nice.", ["Paris"]),
    ],
)
def test_a_name_that_opens_a_sentence_is_kept_whole(said, names):
    assert en_entities(said, []) == names


async def test_store_infers_the_whole_name(client):
    unit = {"user_id": "h25", "value": "David Wang is getting married in May."}
    r = await client.post("/store", json={"memories": [unit]})
    assert r.status_code == 200, r.text
    assert r.json()["results"][0]["memory"]["entities"] == ["David Wang"], r.text
    r = await client.get("/entities/David Wang", params={"user_id": "h25"})
    assert r.status_code == 200, r.text

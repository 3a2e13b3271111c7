"""Tester hbreak8 H33: chat English typed without apostrophes or capitals — "i cant have
dairy" became the event "The user cants have dairy." (expiring in 30 days, not a standing
constraint of /context), "i dont eat pork" an event. A lone "i" is the speaker and "cant",
"dont", "im" get their apostrophes back before the rules read the message."""

from __future__ import annotations

import asyncio
from datetime import datetime

import pytest

from app.services.extraction.casual import apostrophes
from app.services.extraction.offline import OfflineExtractor
from app.services.extraction.units import ExtractionContext, Turn
from tests.services.extraction.extracted import user

NOW = datetime.fromisoformat("2026-12-01T10:00:00+00:00")


@pytest.mark.parametrize(
    ("typed", "read"),
    [
        ("i cant have dairy", "I can't have dairy"),
        ("i dont eat pork", "I don't eat pork"),
        ("im vegan", "I'm vegan"),
        ("i wont fly ryanair again", "I won't fly ryanair again"),
        ("I won't go, it's a wont of mine", "I won't go, it's a wont of mine"),  # has apostrophes
        ("i.e. my son is ill", "i.e. my son is ill"),
    ],
)
def test_apostrophes_and_capitals_come_back(typed, read):
    assert apostrophes(typed) == read


@pytest.mark.parametrize(
    ("said", "value"),
    [("i cant have dairy", "The user cannot have dairy."),
     ("i dont eat pork", "The user does not eat pork."),
     ("im vegan", "The user is vegan.")],
)  # fmt: skip
def test_a_casual_constraint_is_a_constraint(said, value):
    ctx = ExtractionContext("u", NOW, "UTC")
    units = asyncio.run(OfflineExtractor().extract([Turn(0, "user", said, created_at=NOW)], ctx))
    assert [(u.type, u.value) for u in units.units] == [("constraint", value)]


async def test_context_lists_it_as_standing(client):
    body = {"user_id": "h33", "messages": [user("i cant have dairy")]}
    r = await client.post("/extract?wait=true", json=body)
    assert r.status_code == 200 and r.json()["status"] == "succeeded", r.text
    r = await client.get("/context", params={"user_id": "h33"})
    assert r.status_code == 200, r.text
    assert "The user cannot have dairy." in r.json()["text"], r.json()["text"]

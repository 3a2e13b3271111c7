"""A holiday named as the time of what a message tells dates its unit (tester hbreak7: "We're
going to my parents' for Christmas" and 春节的时候我回了老家 got no ``occurred_at``, so "What
did I do last Christmas?" could not find them by their day). The holiday's words stay in the
value with its year and day; a liking of a holiday, a thing named for one and a habit get no
date. English and Chinese, offline; one case through ``/extract`` and ``/recall``."""

from __future__ import annotations

import asyncio
from datetime import date, datetime

import pytest

from app.services.extraction.offline import OfflineExtractor
from app.services.extraction.units import Candidate, ExtractionContext, Turn
from tests.services.extraction.extracted import user

# Tuesday 2026-12-01, 10:00 UTC.
NOW = datetime.fromisoformat("2026-12-01T10:00:00+00:00")


def extract(said: str) -> list[Candidate]:
    ctx = ExtractionContext("u", NOW, "UTC")
    turns = [Turn(0, "user", said, created_at=NOW)]
    return asyncio.run(OfflineExtractor().extract(turns, ctx)).units


@pytest.mark.parametrize(
    ("said", "day", "words"),
    [
        ("We're going to my parents' for Christmas.", date(2026, 12, 25),
         "for Christmas 2026 (2026-12-25)"),
        ("Last Christmas I went skiing in Austria.", date(2025, 12, 25),
         "At Christmas 2025 (2025-12-25) the user went skiing"),
        ("On Christmas Eve we had dinner at Nobu.", date(2025, 12, 24),  # past: last year's
         "On Christmas Eve 2025 (2025-12-24)"),
        ("I'll be in Paris over Easter.", date(2027, 3, 28), "over Easter 2027 (2027-03-28)"),
        ("We celebrated Thanksgiving with my in-laws.", date(2026, 11, 26),
         "celebrated Thanksgiving 2026 (2026-11-26)"),
        ("We spent Christmas 2024 in Vienna.", date(2024, 12, 25), "Christmas 2024 (2024-12-25)"),
        ("圣诞节我要去北京看父母。", date(2026, 12, 25), "2026年圣诞节（12月25日）用户要去北京"),
        ("春节的时候我回了老家。", date(2026, 2, 17), "2026年春节（2月17日）的时候"),
        ("去年春节我们去了三亚。", date(2025, 1, 29), "2025年春节（1月29日）"),
    ],
)  # fmt: skip
def test_a_holiday_dates_the_unit(said, day, words):
    units = extract(said)
    assert len(units) == 1, units
    assert units[0].occurred_at is not None and units[0].occurred_at.date() == day, units
    assert words in units[0].value, units[0].value


@pytest.mark.parametrize(
    "said",
    ["I love Christmas.", "Christmas is my favourite holiday.", "Every Christmas we bake cookies.",
     "我喜欢春节。", "每年春节我们都回老家。"],
)  # fmt: skip
def test_a_holiday_that_is_no_time_of_the_statement(said):
    assert all(u.occurred_at is None for u in extract(said)), extract(said)


def test_i_after_a_leading_time_is_no_sentence_start():
    # "This Friday I'm …" was "On 2026-12-04 (Friday) The user is …"
    (unit,) = extract("This Friday I'm dressing up as a pirate.")
    assert unit.value.startswith("On 2026-12-04 (Friday) the user is dressing up"), unit.value


async def test_last_christmas_is_recalled_by_its_day(client):
    body = {"user_id": "holiday-x", "now": "2026-01-10T10:00:00Z",
            "messages": [user("Over Christmas we went skiing in the Alps.")]}  # fmt: skip
    r = await client.post("/extract?wait=true", json=body)
    assert r.status_code == 200 and r.json()["status"] == "succeeded", r.text
    for said in ("I started a pottery class.", "We watched a football match."):
        r = await client.post("/extract?wait=true", json={**body, "messages": [user(said)]})
        assert r.status_code == 200, r.text
    query = {"user_id": "holiday-x", "query": "What did I do for Christmas?", "top_k": 3,
             "now": "2026-12-06T10:00:00Z"}  # fmt: skip
    r = await client.post("/recall", json=query)
    assert r.status_code == 200, r.text
    first = r.json()["memories"][0]
    assert "skiing" in first["value"] and first["occurred_at"].startswith("2025-12-25"), first

"""Dates and names as said (tester hbreak6): an initialism written with periods is one name
(G5: "I went to M.I.T." made no unit, "I live in the U.S." became "lives in the U.", "now live
in the US" became "now live in the The user and others"); a year alone dates what happened
(G4: "I visited Japan in 2019" had no ``occurred_at``, "moved to the U.K. in 2020" lost its
year); a birth's month or day without its year stays without one (G21: "born in March" was
"born in March 2026", "born on March 3" dated 2027); a diagnosis of a lasting condition is a
fact, not a 30-day event (G36). Offline extractor, through the API; English and Chinese."""

from __future__ import annotations

import pytest

from tests.services.extraction.extracted import NOW, units_of, user


@pytest.mark.parametrize(
    ("said", "value"),
    [
        ("I went to M.I.T.", "The user went to M.I.T."),
        ("I live in the U.S.", "The user lives in the U.S."),
        ("I live in the US.", "The user lives in the US."),
        ("我在M.I.T.读书。", "用户在M.I.T.读书。"),
    ],
)
async def test_an_initialism_is_one_name(client, said, value):
    units = await units_of(client, "g5", [user(said)])
    assert list(units) == [value], units


@pytest.mark.parametrize(
    ("said", "value", "day"),
    [
        ("I visited Japan in 2019.", "The user visited Japan in 2019.", "2019-01-01"),
        ("I moved to the U.K. in 2020.", "The user moved to the U.K. in 2020 and now lives there.",
         "2020-01-01"),
        ("我2019年去了日本。", "用户2019年去了日本。", "2019-01-01"),
    ],
)  # fmt: skip
async def test_a_year_alone_dates_what_happened(client, said, value, day):
    units = await units_of(client, "g4", [user(said)])
    assert list(units) == [value], units
    assert (units[value]["occurred_at"] or "").startswith(day), units[value]


@pytest.mark.parametrize(
    ("said", "value"),
    [
        ("I was born in March.", "The user was born in March."),
        ("I was born on March 3.", "The user was born on March 3."),
        ("我三月出生。", "用户三月出生。"),
    ],
)
async def test_a_birth_without_its_year_gets_none(client, said, value):
    units = await units_of(client, "g21", [user(said)])
    assert list(units) == [value], units
    assert units[value]["type"] == "fact"
    assert units[value]["occurred_at"] == NOW  # the time it was said: no birth date made up


async def test_a_birth_with_its_year_or_a_relative_day_is_dated(client):
    units = await units_of(client, "g21d", [user("My niece was born last Tuesday.")])
    [(value, unit)] = units.items()
    assert unit["occurred_at"].startswith("2026-12-01"), unit


@pytest.mark.parametrize(
    ("said", "kind"),
    [
        ("I was diagnosed with asthma last year.", "fact"),
        ("我去年确诊了糖尿病。", "fact"),
        ("I was diagnosed with the flu last week.", "event"),
        ("我上周被诊断出流感。", "event"),
    ],
)
async def test_a_diagnosis_of_a_lasting_condition_is_a_fact(client, said, kind):
    units = await units_of(client, "g36", [user(said)])
    assert [u["type"] for u in units.values()] == [kind], units


@pytest.mark.parametrize(
    ("said", "value"),
    [
        ("The dentist moved my appointment to Thursday December 17.",
         "The dentist moved the user's appointment to 2026-12-17 (Thursday)."),
        ("My appointment is on Thursday, December 17.",
         "The user's appointment is on 2026-12-17 (Thursday)."),
        ("I have a meeting on Thursday the 17th.",
         "The user has a meeting on 2026-12-17 (Thursday)."),
        ("Dinner with Sam on Friday, Dec 18.", "Dinner with Sam on 2026-12-18 (Friday)."),
        ("我的面试在12月17日星期四。", "用户的面试在2026年12月17日（周四）。"),
    ],
)  # fmt: skip
async def test_a_weekday_beside_its_date_is_that_date(client, said, value):
    """Tester hbreak7 H4: the weekday was resolved on its own, a week early ("2026-12-10
    (Thursday) on 2026-12-17"), and ``occurred_at`` took it."""
    units = await units_of(client, "h4", [user(said)])
    assert list(units) == [value], units
    day = "2026-12-18" if "18" in said else "2026-12-17"
    assert units[value]["occurred_at"][:10] == day, units[value]


@pytest.mark.parametrize(
    ("said", "value", "name"),
    [
        ("My name is Dr. Anna Smith.", "The user's name is Dr. Anna Smith.", "Dr. Anna Smith"),
        ("Call me Dr. Smith.", "The user's name is Dr. Smith.", "Dr. Smith"),
        ("My name is José Ángel.", "The user's name is José Ángel.", "José Ángel"),
        ("我叫José Ángel。", "用户叫José Ángel。", "José Ángel"),
        ("I work at J.P. Morgan.", "The user works at J.P. Morgan.", "J.P. Morgan"),
    ],
)
async def test_a_name_keeps_its_title_and_accents(client, said, value, name):
    """Tester hbreak7 H23: "The user's name is Dr.", "works at J.", "José"."""
    units = await units_of(client, "h23", [user(said)])
    assert list(units) == [value], units
    assert units[value]["entities"] == [name], units[value]

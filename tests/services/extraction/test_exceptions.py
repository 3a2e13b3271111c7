""" "None but X" is the fact X (tester hbreak6 G35): "I don't have any allergies except
penicillin." was stored as "The user has no allergies." and superseded the penicillin allergy;
我除了青霉素以外没有别的过敏 became "用户要求不要的过敏。"; "I eat everything except pork." was a
30-day event. Offline extractor, through the API."""

from __future__ import annotations

import pytest

from tests.services.extraction.extracted import units_of, user


@pytest.mark.parametrize(
    ("first", "then", "allergy"),
    [
        ("I am allergic to penicillin.", "I don't have any allergies except penicillin.",
         "The user is allergic to penicillin."),
        ("I am allergic to penicillin.", "I'm not allergic to anything except penicillin.",
         "The user is allergic to penicillin."),
        ("我对青霉素过敏。", "我除了青霉素以外没有别的过敏。", "用户对青霉素过敏。"),
    ],
)  # fmt: skip
async def test_no_allergies_but_one_keeps_that_allergy(client, first, then, allergy):
    await units_of(client, "exc1", [user(first)])
    units = await units_of(client, "exc1", [user(then)])
    assert [v for v, u in units.items() if u["status"] == "active"] == [allergy], units
    assert units[allergy]["type"] == "constraint"
    assert not any("no allergies" in v or "不要的过敏" in v for v in units), units


@pytest.mark.parametrize(
    ("said", "value"),
    [
        ("I eat everything except pork.", "The user does not eat pork."),
        ("我什么都吃，就是不吃香菜。", "用户不吃香菜。"),
        ("I have no allergies other than to shellfish and peanuts.",
         "The user is allergic to shellfish."),
    ],
)  # fmt: skip
async def test_the_exception_is_a_constraint(client, said, value):
    units = await units_of(client, "exc2", [user(said)])
    assert units[value]["type"] == "constraint", units


async def test_no_allergies_alone_is_still_said(client):
    units = await units_of(client, "exc3", [user("I have no allergies.")])
    assert list(units) == ["The user has no allergies."]

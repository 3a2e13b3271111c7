"""A unit keeps the details that make the fact (tester E23: "I have a daughter called Mia."
was "The user has a daughter.", and a succeeded job keeps no message text, so the name was
gone for good). English and Chinese, through /extract."""

from __future__ import annotations

import pytest

from tests.services.extraction.extracted import units_of, user


@pytest.mark.parametrize(
    ("said", "expected"),
    [
        ("I have a daughter called Mia.", "The user has a daughter named Mia."),
        ("I have a son, his name is Leo.", "The user has a son named Leo."),
        ("I have a dog named Rex, he's a beagle.", "The user has a dog named Rex, a beagle."),
        ("我有一个女儿叫小美。", "用户有一个女儿叫小美。"),
        ("我有两个孩子：小美和小明。", "用户有两个孩子：小美和小明。"),
    ],
)  # fmt: skip
async def test_the_name_stays_with_the_fact(client, said, expected):
    units = await units_of(client, "parent", [user(said)])
    assert expected in units, units


async def test_an_age_said_with_the_name_is_kept(client):
    units = await units_of(client, "parent2", [user("My daughter is called Mia and she is 7.")])
    assert [v for v in units if "7" in v and "Mia" in v], units

"""A value the speaker withdraws in the same breath is never stored (tester E15: "I live in
Denver. Actually no, sorry, I live in Boulder." stored Denver, which superseded the true
previous city), "Wait, I meant dogs, not cats." in the next message corrects the allergy,
and the Chinese twins (我对猫过敏。不对，我说错了，是对狗过敏。). Through /extract."""

from __future__ import annotations

import pytest

from tests.services.extraction.extracted import units_of, user


@pytest.mark.parametrize(
    ("messages", "kept", "gone"),
    [
        ([user("I live in Denver. Actually no, sorry, I live in Boulder.")],
         "The user lives in Boulder.", "Denver"),
        ([user("I live in Denver, actually no, Boulder.")], "The user lives in Boulder.", "Denver"),
        ([user("I'm allergic to cats."), user("Wait, I meant dogs, not cats.")],
         "The user is allergic to dogs.", "cats"),
        ([user("我对猫过敏。不对，我说错了，是对狗过敏。")], "用户对狗过敏。", "猫"),
        ([user("我对猫过敏。"), user("等等，我说的是狗，不是猫。")], "用户对狗过敏。", "猫"),
        ([user("我住在波士顿，不对，是剑桥。")], "用户住在剑桥。", "波士顿"),
    ],
)  # fmt: skip
async def test_a_withdrawn_value_is_never_stored(client, messages, kept, gone):
    units = await units_of(client, "fixer", messages)
    assert kept in units, units
    assert not [v for v in units if gone in v], units


async def test_a_later_city_withdrawn_in_the_same_breath_leaves_the_true_one(client):
    await units_of(client, "mover", [user("I live in Cambridge.")])
    units = await units_of(
        client, "mover", [user("I live in Denver. Actually no, sorry, I live in Boulder.")]
    )
    assert not [v for v in units if "Denver" in v], units
    assert units["The user lives in Boulder."]["status"] == "active", units


async def test_a_non_food_allergen_has_its_own_trigger(client):
    units = await units_of(client, "sneezer", [user("I'm allergic to cats.")])
    query = units["The user is allergic to cats."]["query"]
    assert "recipes" not in query and "cats" in query, query

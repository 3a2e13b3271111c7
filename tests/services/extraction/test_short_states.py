"""Short statements of a life event, an origin or an ability made no unit at all (one content
word: "I got promoted.", "I'm Canadian.", "I'm from Brazil.", "I can't swim.", 我怀孕了).
Through /extract, offline."""

from __future__ import annotations

import pytest

from tests.services.extraction.extracted import units_of, user


@pytest.mark.parametrize(
    ("said", "value", "kind"),
    [
        ("I got promoted.", "The user got promoted.", "event"),
        ("I got engaged!", "The user got engaged!", "event"),
        ("I'm Canadian.", "The user is Canadian.", "fact"),
        ("I'm from Brazil.", "The user is from Brazil.", "fact"),
        ("I can't swim.", "The user can't swim.", "fact"),
        ("I'm in London.", "The user is in London.", "event"),
        ("I'm in the hospital.", "The user is in the hospital.", "event"),
        ("I'm getting a divorce.", "The user is getting a divorce.", "event"),
        ("我怀孕了。", "用户怀孕了。", "event"),
        ("我退休了。", "用户退休了。", "event"),
        ("我搬家了。", "用户搬家了。", "event"),
        ("I don't have a car.", "The user doesn't have a car.", "fact"),
        ("I follow a vegan diet.", "The user follows a vegan diet.", "constraint"),  # F37
        ("我吃纯素。", "用户吃纯素。", "constraint"),
        ("I'm afraid of heights.", "The user is afraid of heights.", "fact"),
        ("Write shorter answers please.", "The user prefers concise answers.", "preference"),
        ("I'm not a morning person.", "The user is not a morning person.", "fact"),
        ("Please don't use emojis.", "The user asked the assistant not to use emojis.",
         "constraint"),
        ("我戒烟了。", "用户戒烟了。", "event"),
    ],
)  # fmt: skip
async def test_a_short_state_is_kept(client, said, value, kind):
    units = await units_of(client, "short", [user(said)])
    assert list(units) == [value], units
    assert units[value]["type"] == kind, units[value]


@pytest.mark.parametrize("said", ["I'm Sorry.", "I'm Back.", "That was so moving.", "Keep going!"])
async def test_a_reaction_is_still_no_unit(client, said):
    assert await units_of(client, "reacts", [user(said)]) == {}


async def test_a_job_keeps_its_names_as_written(client):
    """An employer kept its period ("The user works at Google..") and "Python" was lower-cased."""
    said = [user("I got a new job at Google."), user("I'm a Python developer.")]
    units = await units_of(client, "coder", said)
    assert "The user works at Google." in units, units
    assert "The user is a Python developer." in units, units
    assert not [v for v in units if ".." in v], units

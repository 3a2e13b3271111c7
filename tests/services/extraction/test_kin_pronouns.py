"""A "he"/"she" that opens a sentence after the user named one relative of that gender is that
relative ("Can you help me plan a birthday party for my son? He's turning 7 next Saturday."
kept "He's turning 7 on 2026-12-12 (Saturday).", a unit that says nothing alone). Through
/extract, offline."""

from __future__ import annotations

from tests.services.extraction.extracted import units_of, user


async def test_he_after_my_son_is_the_son(client):
    said = "Can you help me plan a birthday party for my son? He's turning 7 next Saturday."
    units = await units_of(client, "parent", [user(said)])
    assert list(units) == ["The user's son is turning 7 on 2026-12-12 (Saturday)."], units


async def test_she_after_my_wife_and_her_after_my_mom(client):
    said = [user("I need a gift idea for my wife, she loves gardening."),
            user("My mom called. Her hip surgery went well.")]  # fmt: skip
    units = await units_of(client, "family", said)
    assert "The user's wife loves gardening." in units, units
    assert [v for v in units if "The user's mom's hip surgery went well." in v], units


async def test_a_friend_or_two_relatives_leave_the_pronoun(client):
    said = [user("My friend Tom is visiting next week. He loves jazz and blues."),
            user("My dad and my brother went fishing. He caught a huge trout.")]  # fmt: skip
    text = " ".join(await units_of(client, "others", said))
    assert "He loves jazz" in text, text
    assert "He caught a huge trout" in text and "dad caught" not in text, text

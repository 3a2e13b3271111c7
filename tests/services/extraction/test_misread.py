"""What the offline rules misread around names and lead-ins. A title or place abbreviation's
period ends no sentence (tester E30: "We climbed Mt. Rainier in July." became "The user climbed
Mt with others. Rainier in July.", and "Dr. Emily Stone-Watson" the entities "Dr" and
"Stone-Watson"); how to hold a fact is no part of it; never having liked is a dislike.
Through /extract, offline."""

from __future__ import annotations

from tests.services.extraction.extracted import units_of, user


async def test_a_place_abbreviation_keeps_the_sentence_whole(client):
    units = await units_of(client, "climber", [user("We climbed Mt. Rainier in July.")])
    [(value, unit)] = units.items()
    assert "Mt. Rainier in July" in value and "Mt with" not in value, value
    assert unit["entities"] == ["Mt. Rainier"], unit["entities"]


async def test_a_title_stays_with_the_name_it_opens(client):
    said = "My manager Dr. Emily Stone-Watson approved my leave."
    units = await units_of(client, "employee", [user(said)])
    [(value, unit)] = units.items()
    assert "Dr. Emily Stone-Watson approved" in value, value
    assert unit["entities"] == ["Dr. Emily Stone-Watson"], unit["entities"]


async def test_a_saint_and_a_plural_weekday(client):
    said = "I volunteer at St. Mary's Hospital on Sundays."
    units = await units_of(client, "volunteer", [user(said)])
    [(value, unit)] = units.items()
    assert value == "The user volunteers at St. Mary's Hospital on Sundays.", value
    assert unit["entities"] == ["St. Mary's Hospital"], unit["entities"]


async def test_a_sentence_that_ends_in_a_capitalised_word_still_ends(client):
    said = "I moved to Austin. Then I started a job at Dell."
    units = await units_of(client, "mover", [user(said)])
    text = " ".join(units)
    assert "\u2024" not in text and "Austin" in text and "Dell" in text, units


async def test_how_to_hold_a_fact_is_not_part_of_it(client):
    """A lead-in such as "Keep this private: …", "Between you and me, …" or 说实话 is no
    part of the fact: the values were "Keep this private: the user's salary is 120k." and
    "Between you and the user, The user is planning…"."""
    said = [user("Keep this private: my salary is 120k."),
            user("Between you and me, I'm planning to quit my job in March."),
            user("说实话，我不喜欢吃香菜。")]  # fmt: skip
    units = await units_of(client, "confider", said)
    assert "The user's salary is 120k." in units, units
    assert "The user is planning to quit the user's job in March 2027." in units, units
    assert "用户不喜欢吃香菜。" in units, units
    assert not [v for v in units if "private" in v or "etween" in v or "说实话" in v], units


async def test_never_liked_is_a_dislike_not_a_rule(client):
    """Never having liked something is a dislike: "I never liked sushi." was the constraint
    "The user never liked sushi." ("… that involves liked sushi"); "I've never enjoyed
    horror movies." an event."""
    said = [user("I never liked sushi."), user("I've never enjoyed horror movies.")]
    units = await units_of(client, "picky", said)
    for thing in ("sushi", "horror movies"):
        unit = units[f"The user does not like {thing}."]
        assert unit["type"] == "preference" and unit["entities"] == [thing], unit
    assert [u["type"] for u in units.values()] == ["preference", "preference"], units


async def test_a_move_leaves_the_job_said_with_the_old_home(client):
    """Tester hbreak5 F2: "St." ended the sentence, so the job rule missed it and an event held
    both facts ("…works as a nurse at St. Mary's Hospital, and the user lives in Boston."); the
    move then superseded it whole and no active unit said where the user works."""
    said = "I work as a nurse at St. Mary's Hospital, and I live in Boston."
    await units_of(client, "nurse", [user(said)])
    units = await units_of(client, "nurse", [user("I moved to Seattle.")])
    r = await client.get("/memories", params={"user_id": "nurse", "limit": 50})
    active = [m["value"] for m in r.json()["memories"] if m["status"] == "active"]
    assert "The user works as a nurse at St. Mary's Hospital." in active, units
    assert "The user lives in Boston." not in active, active
    assert not [v for v in active if "Boston" in v], active


async def test_not_allergic_to_one_thing_only_to_another(client):
    """Tester hbreak5 F1: "I'm not allergic to shellfish at all, only to shrimp." kept only
    "The user is not allergic to shellfish."; the shrimp allergy was never stored."""
    await units_of(client, "shrimp", [user("I'm allergic to shellfish.")])
    said = "Correction: I'm not allergic to shellfish at all, only to shrimp."
    units = await units_of(client, "shrimp", [user(said)])
    assert units["The user is allergic to shrimp."]["type"] == "constraint", units
    assert "The user is not allergic to shellfish." in units, units
    units = await units_of(client, "xia", [user("我不是对海鲜过敏，只对虾过敏。")])
    assert units["用户对虾过敏。"]["type"] == "constraint", units


async def test_a_weekday_abbreviation_is_no_entity(client):
    """Tester hbreak5 F10: "Fri" was an entity of the graph."""
    units = await units_of(client, "gym", [user("I'm meeting Tom at the gym on Fri.")])
    [(value, unit)] = units.items()
    assert unit["entities"] == ["Tom"], (value, unit["entities"])

"""Two things said in one breath are both kept, through working memory on the real Redis:
"I'm allergic to shellfish and peanuts." kept only shellfish (now a unit per allergen, no
review between them: two allergies are two facts), 我对海鲜和花生过敏 named both in one unit
with the entity 海鲜和花生; "I don't drink coffee anymore, I switched to green tea." lost the
green tea."""

from __future__ import annotations

import pytest

from tests.services.extraction.closed import close_task, memories, open_reviews, recalled


@pytest.mark.parametrize(
    ("said", "allergies", "query"),
    [
        ("I'm allergic to shellfish and peanuts.",
         ["The user is allergic to shellfish.", "The user is allergic to peanuts."],
         "Does this peanut sauce work for the user?"),
        ("I'm allergic to shellfish, peanuts and eggs, so no satay.",
         ["The user is allergic to shellfish.", "The user is allergic to peanuts.",
          "The user is allergic to eggs."], "peanut"),
        ("我对海鲜和花生过敏。", ["用户对海鲜过敏。", "用户对花生过敏。"], "花生"),
    ],
)  # fmt: skip
async def test_each_allergy_of_a_list_is_kept(wm, said, allergies, query):
    units = await close_task(wm, "allergies", [("user", said)])
    # "…, so no satay" is a constraint of its own ("The user must avoid satay.", tester F28)
    assert [u["value"] for u in units if "must avoid" not in u["value"]] == allergies, units
    assert {u["outcome"] for u in units} == {"created"}, units
    seen = await memories(wm)
    entities = [seen[v]["entities"] for v in allergies]
    assert all(len(e) == 1 for e in entities), entities  # 花生, not 海鲜和花生
    assert await open_reviews(wm) == []  # shellfish / peanuts: two facts, nothing to review
    peanut = next(v for v in allergies if "peanut" in v or "花生" in v)
    assert peanut in await recalled(wm, query, top_k=2)


async def test_an_allergy_taken_back_leaves_the_other(wm):
    await close_task(wm, "allergies-1", [("user", "I'm allergic to shellfish and peanuts.")])
    await close_task(wm, "allergies-2", [("user", "I'm no longer allergic to shellfish.")])
    seen = await memories(wm)
    assert seen["The user is allergic to shellfish."]["status"] == "superseded", seen
    assert seen["The user is allergic to peanuts."]["status"] == "active", seen


async def test_what_the_user_switched_to_is_kept_beside_what_they_gave_up(wm):
    said = "I don't drink coffee anymore, I switched to green tea."
    units = await close_task(wm, "switch", [("user", said)])
    assert [(u["value"], u["outcome"]) for u in units] == [
        ("The user no longer drinks coffee.", "created"),
        ("The user now drinks green tea.", "created"),
    ], units
    assert (await recalled(wm, "What does the user drink?", top_k=2))[0].endswith(
        ("drinks green tea.", "drinks coffee.")
    )
    assert "The user now drinks green tea." in await recalled(wm, "green tea", top_k=2)

"""A diet against a food it rules out (tester C18): "The user stopped eating meat and is
vegetarian now" beside "The user loves steak" was neither superseded nor flagged — no sentence
frame or slot in common. Now the pair is flagged as a possible contradiction: never merged, a
review of kind ``contradiction``, both units kept until a person or the LLM decides
(docs/DEDUPE.md). A dish named for the diet, a food it allows, a negated liking and other
interests are not flagged. English and Chinese."""

from __future__ import annotations

import pytest

from app.services.memory.pairs.decision import decide
from app.services.memory.pairs.diet import excludes
from app.services.memory.pairs.features import statement
from app.services.memory.pairs.gate import flags_contradiction
from tests.services.memory.flagged import store_flagged_pair
from tests.services.memory.told import store_value, tell

EXCLUDED = [
    ("The user loves steak.", "The user stopped eating meat and is vegetarian now."),
    ("The user's favourite food is cheese pizza.", "The user is vegan."),
    ("The user orders lamb every Friday.", "The user gave up meat."),
    ("The user eats eggs for breakfast.", "The user went vegan last year."),
    ("用户很喜欢吃牛排。", "用户现在吃素了。"),
    ("用户最爱吃红烧肉。", "用户不吃肉。"),
    ("The user drinks milk every morning.", "The user stopped eating dairy."),
    ("The user drinks milk every morning.", "The user no longer has dairy."),
    ("The user loves cheese.", "The user gave up dairy."),
    ("用户每天早上喝牛奶。", "用户不再吃乳制品了。"),
]
ALLOWED = [
    ("The user loves salmon.", "The user is pescatarian."),
    ("The user likes tofu.", "The user is vegetarian."),
    ("The user loves board games.", "The user is vegetarian."),
    ("The user doesn't like steak.", "The user is vegetarian."),
    ("The user loves steak.", "The user is not vegetarian."),
    ("Nate loves steak.", "Nate makes vegan ice cream."),
    ("用户喜欢吃豆腐。", "用户吃素。"),
    ("The user drinks oat milk every morning.", "The user stopped eating dairy."),
    ("The user drinks almond milk.", "The user is vegan."),
    ("The user drinks coffee every morning.", "The user stopped eating dairy."),
]


@pytest.mark.parametrize(("old", "new"), EXCLUDED)
def test_a_diet_against_a_food_it_rules_out_is_flagged(old, new):
    assert excludes(new, old) and excludes(old, new)
    d = decide(statement(new), statement(old), 0.9)
    assert (d.action, d.reason, d.merge_allowed) == ("unsure", "diet_excludes", False)
    assert flags_contradiction(d)


@pytest.mark.parametrize(("old", "new"), ALLOWED)
def test_allowed_foods_and_dishes_are_not_flagged(old, new):
    assert not excludes(new, old)
    assert decide(statement(new), statement(old), 0.9).reason != "diet_excludes"


@pytest.mark.parametrize(("old", "new"), [EXCLUDED[0], EXCLUDED[4]])
async def test_through_store_both_stay_and_a_contradiction_review_opens(client, old, new):
    user = f"diet-{len(old)}"
    pending = await store_flagged_pair(client, user, old, new, "diet_excludes")
    listed = await client.get("/reviews", params={"user_id": user, "kind": "contradiction"})
    assert [r["id"] for r in listed.json()["reviews"]] == [pending["review_id"]]


@pytest.mark.parametrize(
    ("old", "said"),
    [
        ("The user drinks milk every morning.", "No more dairy for me."),
        ("The user drinks milk every morning.", "I stopped eating dairy."),
        ("用户每天早上喝牛奶。", "我不再吃乳制品了。"),
    ],
)  # fmt: skip
async def test_dairy_given_up_is_flagged_against_milk(client, old, said):
    """Milk is dairy (WordNet: milk under dairy product): "No more dairy for me." beside "The
    user drinks milk every morning." opened nothing — "drinks" was no liking or habit of a
    food and "no more" / "no longer has" no diet. Now flagged, both kept."""
    user = f"dairy-{len(old)}-{len(said)}"
    old_id = await store_value(client, user, old)
    units = await tell(client, user, said)
    r = await client.get("/reviews", params={"user_id": user, "kind": "contradiction"})
    reviews = r.json()["reviews"]
    assert [x["reason"] for x in reviews] == ["diet_excludes"], (reviews, units)
    assert old_id in {reviews[0]["unit_id"], reviews[0]["candidate_id"]}
    assert (await client.get(f"/memories/{old_id}")).json()["status"] == "active"

"""Given entities that key one thing two ways (tester hbreak9 K22): ``peanuts`` / ``花生``,
``peanuts`` / ``peanut allergy``. The merge the words decide was held as ``entities_differ``
whenever the keys shared no string, so two agents' units with given entities were never linked
and one writer's restatement opened a review. Keys tell units apart only when a key names
something its own value does not say (app.services.memory.pairs.entities)."""

from __future__ import annotations

import pytest

from app.services.memory.pairs.decision import Thresholds
from app.services.memory.pairs.entities import entities_tell_apart, named
from app.services.memory.pairs.plan import Candidate, pair_decision
from tests.services.memory.told import stored
from tests.services.recall.test_recall_collapse_links import links, recall

PEANUTS_EN = "The user is allergic to peanuts."
PEANUTS_ZH = "用户对花生过敏。"


@pytest.mark.parametrize(
    ("key", "value", "expected"),
    [
        ("peanuts", PEANUTS_EN, True),
        ("peanut allergy", PEANUTS_EN, True),  # one word of the key, stemmed
        ("花生", PEANUTS_ZH, True),
        ("shellfish", PEANUTS_EN, False),
        ("alice", PEANUTS_EN, False),
        ("peanuts", PEANUTS_ZH, False),
    ],
)
def test_named(key: str, value: str, expected: bool) -> None:
    assert named(key, value) is expected


def test_keys_tell_apart_only_what_the_values_do_not_say() -> None:
    en, zh = frozenset({"peanuts"}), frozenset({"花生"})
    assert not entities_tell_apart(PEANUTS_EN, en, PEANUTS_ZH, zh)
    assert not entities_tell_apart(PEANUTS_EN, en, PEANUTS_ZH, frozenset())  # one side given
    # The same words about two people the values do not name: the keys alone tell them apart.
    alice, bob = frozenset({"alice"}), frozenset({"bob"})
    assert entities_tell_apart("Likes spicy food.", alice, "Likes spicy food.", bob)
    # Two speakers' turns, each keyed by its speaker, each naming the other.
    maria, john = "Maria: Thanks, John. I will!", "John: Got it! Thanks, Maria. I will!"
    assert entities_tell_apart(maria, frozenset({"maria"}), john, frozenset({"john"}))


def test_a_cross_language_restatement_with_its_own_keys_merges() -> None:
    c = Candidate(PEANUTS_EN, "constraint", frozenset({"peanuts"}), 0.90)
    d = pair_decision(PEANUTS_ZH, "constraint", frozenset({"花生"}), c, Thresholds())
    assert d.action == "merge", d


def test_two_people_with_the_same_words_still_do_not_merge() -> None:
    c = Candidate("Likes spicy food.", "preference", frozenset({"alice"}), 0.99)
    d = pair_decision("Likes spicy food.", "preference", frozenset({"bob"}), c, Thresholds())
    assert d.action != "merge" and d.reason == "entities_differ", d
    c = Candidate("Alice likes spicy food.", "preference", frozenset({"alice"}), 0.97)
    d = pair_decision("Bob likes spicy food.", "preference", frozenset({"bob"}), c, Thresholds())
    assert d.action != "merge", d


@pytest.mark.parametrize(
    ("first", "second"), [(["peanuts"], ["花生"]), (["peanut allergy"], ["花生"])]
)
async def test_two_agents_units_with_given_entities_are_linked(client, engine, first, second):
    a = await stored(
        client, "u1", PEANUTS_EN, agent_id="planner", type="constraint", entities=first
    )
    b = await stored(
        client, "u1", PEANUTS_ZH, agent_id="concierge", type="constraint", entities=second
    )
    assert await links(engine) == [(b["id"], a["id"])]
    assert len(await recall(client, "peanuts")) == 1

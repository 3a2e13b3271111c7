"""A rewording that shares few words merges on the embedding alone when its cosine is above
every training pair of other facts (``reword_cosine``, English; ``reword_cosine_zh``,
Chinese) and nothing says the two are other facts: the same names and values, no slot
swapped, not two events, a content word in common (English) — issue 28 step 1, the tenth run
of docs/DEDUPE.md. The survivor keeps the other wording in ``metadata.restated_as``. Pairs
from the development groups of tests/dedupe_pairs_unseen.py (multilingual-e5-small cosines
0.969 and 0.982), and the ninth run's false merge ("Matt Patterson" / "Taylor Swift sang at
the concert …", 0.956), which the name check stops."""

from __future__ import annotations

import pytest

from app.services.memory.pairs.decision import Thresholds, decide
from app.services.memory.pairs.features import statement
from tests.services.memory.as_fact import FACT

REWORDED = [
    ("Max became part of Nate's family in May 2022", "Nate welcomed Max into his home in May 2022"),
    ("用户的母亲去年去世了", "用户的妈妈去年走了"),
]  # fmt: skip

NOT_REWORDED = [
    # another singer: the names differ (the ninth run's false merge, cosine 0.956)
    ("Matt Patterson sang at the concert Melanie took her daughter to for her birthday",
     "Taylor Swift sang at the concert Melanie took her daughter to for her birthday"),
    # one slot swapped: another action on the same thing
    ("Tim is writing a fantasy novel", "Tim is reading a fantasy novel"),
    # nothing in common but the subject
    ("The user can't swim", "The user can't ride a bike"),
    ("The user is self-employed", "The user works from home"),
    # two past events on one day
    ("Caroline went to an LGBTQ support group on 7 May 2023",
     "Caroline gave a talk at a school on 7 May 2023"),
    ("用户每天骑自行车上班", "用户每天骑自行车去健身房"),
    # another mood, another person opening the sentence (e5 cosines 0.969 and 0.985)
    ("John is training for a marathon", "John ran a marathon"),
    ("The user's sister lives in Boston", "The user lives near his sister in Boston"),
    # (用户养了两只猫 / 用户家里有2只猫咪, a development duplicate the mood check leaves
    # unmerged here, merges by the alignment's one added thing since the eleventh run)
]  # fmt: skip


@pytest.mark.parametrize(("old", "new"), REWORDED)
def test_a_rewording_merges_from_the_fitted_cosine(old, new):
    # the rewording rule alone: no thing one side adds (用户的母亲去年去世了 / 妈妈去年走了 also
    # aligns with one, align_things = 1, eleventh run)
    alone = Thresholds(align_things=0)
    d = decide(statement(new), statement(old), 0.99, thresholds=alone)
    assert (d.action, d.reason) == ("merge", "reworded")
    off = Thresholds(align_things=0, reword_cosine=None, reword_cosine_zh=None)
    assert decide(statement(new), statement(old), 0.99, thresholds=off).action != "merge"
    below = decide(statement(new), statement(old), 0.95)
    assert below.action != "merge"


@pytest.mark.parametrize(("old", "new"), NOT_REWORDED)
def test_other_facts_never_merge_however_close(old, new):
    d = decide(statement(new), statement(old), 0.99)
    assert d.action != "merge", d


@pytest.mark.parametrize(("old", "new"), REWORDED)
async def test_through_store_the_rewording_merges_and_keeps_its_words(client, old, new):
    user = f"reworded-{len(old)}"
    results = []
    for value in (old, new):
        unit = {"user_id": user, "value": value, **FACT}
        r = await client.post("/store", json={"memories": [unit]})
        assert r.status_code == 200, r.text
        results.append(r.json()["results"][0])
    first, second = results
    assert second["outcome"] == "merged" and second["id"] == first["id"], second
    unit = (await client.get(f"/memories/{first['id']}")).json()
    assert unit["value"] == old and unit["metadata"]["restated_as"] == [new]


async def test_through_store_another_singer_is_kept(client):
    old, new = NOT_REWORDED[0]
    for value in (old, new):
        r = await client.post("/store", json={"memories": [{"user_id": "singer", "value": value}]})
        assert r.status_code == 200, r.text
        assert r.json()["results"][0]["outcome"] != "merged"
    listed = (await client.get("/memories", params={"user_id": "singer"})).json()
    assert {m["value"] for m in listed["memories"]} == {old, new}

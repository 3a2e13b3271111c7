"""One past event told again with only its day changed ("went to a fair on 24 April" / "on
14 April") is a corrected date or the same thing done twice: the write path cannot tell, so
it supersedes neither and flags the pair as a possible contradiction — a review of kind
``contradiction`` that always opens, shown in the ``/store`` answer, by ``GET /reviews`` and
on the unit's reviews — while both units stay active and recallable until a person (or the
LLM) decides it (docs/DEDUPE.md, "Sixth run"). Two runs of other distances on other days
(tester T11) stay as they were: no flag."""

from __future__ import annotations

import pytest

from app.services.memory.pairs.decision import decide
from app.services.memory.pairs.features import statement
from app.services.memory.pairs.gate import flags_contradiction

CHANGED_DAY = [
    ("Jon went to a fair on 24 April 2023 to promote his dance studio.",
     "Jon went to a fair on 14 April 2023 to promote his dance studio."),
    ("用户4月24日去了集市推广舞蹈工作室", "用户4月14日去了集市推广舞蹈工作室"),
]  # fmt: skip


async def _store(client, user: str, value: str, occurred_at: str) -> dict:
    r = await client.post("/store", json={"memories": [
        {"user_id": user, "value": value, "occurred_at": occurred_at}]})  # fmt: skip
    assert r.status_code == 200, r.text
    return r.json()["results"][0]


@pytest.mark.parametrize(("old", "new"), CHANGED_DAY)
async def test_a_changed_day_is_flagged_for_review_and_both_are_kept(client, old, new):
    user = f"fair-{len(old)}"
    first = await _store(client, user, old, "2026-11-01T10:00:00Z")
    second = await _store(client, user, new, "2026-11-08T10:00:00Z")  # a week later
    assert second["outcome"] == "created", second
    [pending] = second["pending"]
    assert pending["candidate_id"] == first["id"]
    assert (pending["kind"], pending["reason"]) == ("contradiction", "event_day_changed")
    for unit in (first, second):
        got = (await client.get(f"/memories/{unit['id']}")).json()
        assert got["status"] == "active", got  # nothing superseded: history and recall kept
    listed = await client.get("/reviews", params={"user_id": user, "kind": "contradiction"})
    assert [r["id"] for r in listed.json()["reviews"]] == [pending["review_id"]]
    # the unit page's "Conflicts" box reads the open reviews naming the older unit
    of_old = await client.get("/reviews", params={"memory_id": first["id"], "status": "open"})
    [review] = of_old.json()["reviews"]
    assert review["kind"] == "contradiction" and review["unit"]["value"] == new
    recalled = await client.post("/recall", json={
        "query": old, "user_id": user, "top_k": 5})  # fmt: skip
    assert first["id"] in [m["id"] for m in recalled.json()["memories"]]
    # deciding it as a corrected date supersedes the older one, history kept
    r = await client.post(f"/reviews/{pending['review_id']}", json={"action": "supersede"})
    assert r.status_code == 200, r.text
    got = (await client.get(f"/memories/{first['id']}")).json()
    assert got["status"] == "superseded" and got["superseded_by"] == second["id"]


@pytest.mark.parametrize(
    ("old", "new", "flagged"),
    [
        *((old, new, True) for old, new in CHANGED_DAY),
        ("Melanie painted a sunrise in 2022", "Melanie painted a sunrise in 2020", True),
        ("用户2022年画了一幅日出", "用户2020年画了一幅日出", True),
        # another distance as well: two runs (T11), reviewed only as before
        ("The user ran 5 km on Saturday.", "The user ran 10 km on Sunday.", False),
        ("用户周六跑了5公里。", "用户周日跑了10公里。", False),
        # another event: not a change of day
        ("Caroline went to a support group on 7 May 2023",
         "Caroline went to a pride parade on 11 June 2023", False),
    ],
)  # fmt: skip
def test_only_a_changed_day_is_flagged(old, new, flagged):
    d = decide(statement(new), statement(old), 0.97)
    assert d.action == "unsure" and not d.merge_allowed
    assert flags_contradiction(d) is flagged
    assert (d.reason == "event_day_changed") is flagged

"""A fact told with the company it is shared with ("I live in Hamburg with my boyfriend
Jonas", 我和老公一起住在上海) is the user's own: a later move supersedes it. The boyfriend after
"with" was read as the fact's holder (another person's fact, kept apart), so the old home stayed
active beside the new one (a four-session life, tester hbreak7 H14). Another person's own fact
("my wife lives in Berlin") stays apart. Old fact stored with /store, the move told to
/extract (offline)."""

from __future__ import annotations

import pytest

from tests.services.memory.told import store_value, tell


@pytest.mark.parametrize(
    ("old", "said"),
    [
        ("The user lives in Hamburg with the user's boyfriend Jonas.",
         "I moved to Munich last week."),
        ("The user lives in Hamburg with the user's wife.",
         "I moved to Munich last week."),
        ("用户和老公一起住在上海。", "我上个月搬到了深圳。"),
    ],
)  # fmt: skip
async def test_a_move_supersedes_a_home_shared_with_someone(client, old, said):
    user = f"with-{len(old)}-{len(said)}"
    old_id = await store_value(client, user, old)
    units = await tell(client, user, said)
    r = await client.get(f"/memories/{old_id}")
    assert r.json()["status"] == "superseded", (r.json(), units)
    r = await client.post("/recall", json={"user_id": user, "query": "Where do I live?"})
    assert old not in [m["value"] for m in r.json()["memories"]], r.json()


async def test_another_persons_home_stays(client):
    user = "with-wife"
    old_id = await store_value(client, user, "The user's wife lives in Berlin.")
    await tell(client, user, "I moved to Munich last week.")
    r = await client.get(f"/memories/{old_id}")
    assert r.json()["status"] == "active", r.json()


async def test_a_new_job_at_another_employer_supersedes_the_old(client):
    """The four-session life again: "I got a new job at Siemens." (extracted as "The user works
    at Siemens.") stayed a conflict beside "works at Airbus": a new job says a change."""
    user = "newjob-user"
    old_id = await store_value(client, user, "The user works at Airbus.")
    units = await tell(client, user, "I got a new job at Siemens.")
    r = await client.get(f"/memories/{old_id}")
    assert r.json()["status"] == "superseded", (r.json(), units)


@pytest.mark.parametrize(
    ("old", "said", "question"),
    [
        ("Jonas works at Airbus as an engineer.", "Jonas got a new job at Siemens.",
         "Where does Jonas work?"),
        ("Jonas works at Airbus.", "Jonas started a new job at Siemens.",
         "Where does Jonas work?"),
        ("用户在阿里巴巴工作。", "我在腾讯找到了新工作。", "我在哪里工作？"),
        ("张三在阿里巴巴工作。", "张三在腾讯找到了新工作。", "张三在哪里工作？"),
    ],
)  # fmt: skip
async def test_a_new_job_told_otherwise_supersedes_the_old_employer(client, old, said, question):
    """ "Jonas got a new job at Siemens." filled the employer slot but was only flagged beside
    "Jonas works at Airbus as an engineer" (the rest of the sentences differs: "as an
    engineer"), so "Where does Jonas work?" still answered Airbus; 在腾讯找到了新工作 the same.
    A new job says the old one ended, for the user and for a named person alike: the old
    employer is superseded (kept as history), no review left open."""
    user = f"newjob-{len(old)}-{len(said)}"
    old_id = await store_value(client, user, old)
    units = await tell(client, user, said)
    r = await client.get(f"/memories/{old_id}")
    assert r.json()["status"] == "superseded", (r.json(), units)
    r = await client.get(f"/memories/{old_id}/history")
    assert r.status_code == 200 and old in str(r.json()), r.text
    r = await client.get("/reviews", params={"user_id": user})
    assert r.json()["reviews"] == [], r.json()
    r = await client.post("/recall", json={"user_id": user, "query": question})
    assert old not in [m["value"] for m in r.json()["memories"]], r.json()

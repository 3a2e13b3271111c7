"""A correction and a plan told in a chat (tester G1, G22): "Actually April, not May" after
"My trip is in May" rewrites the trip (in one transcript, or in a later close of the session,
where the plan said later supersedes the May one); "I got engaged to Priya. We are planning the
wedding for June 2027." is two units, the engagement and the dated plan. English and Chinese,
offline extractor, through the API."""

from __future__ import annotations

import pytest

from tests.services.extraction.closed import close_task, memories


@pytest.mark.parametrize(
    ("said", "correction", "kept", "gone"),
    [
        ("My trip is in May.", "Actually April, not May.", "April", "May"),
        ("我的旅行在五月。", "其实是四月，不是五月。", "4月", "5月"),
    ],
)
async def test_a_bare_correction_rewrites_what_it_corrects(client, said, correction, kept, gone):
    """Tester G1: "Actually April, not May" after "My trip is in May" made no trip in April
    (the May trip stayed; 其实是四月 made "用户：是2027年4月。"): the correction rewrites the
    message it corrects, as "I meant X, not Y" does."""
    user = f"g1-{len(said)}"
    body = {"user_id": user, "messages": [{"role": "user", "content": said},
                                          {"role": "user", "content": correction}]}  # fmt: skip
    r = await client.post("/extract?wait=true", json=body)
    assert r.status_code == 200, r.text
    values = [u["value"] for u in r.json()["units"]]
    assert len(values) == 1 and kept in values[0] and gone not in values[0], values


@pytest.mark.parametrize(
    "said",
    [
        "I got engaged to Priya. We are planning the wedding for June 2027.",
        "我和Priya订婚了！我们在筹备2027年6月的婚礼。",
    ],
)
async def test_an_engagement_and_a_wedding_plan_are_two_units(client, said):
    """Tester G22: the wedding planned for June 2027 was kept in one unit with the engagement
    (one fact): each is a unit, the plan dated in June 2027."""
    body = {"user_id": f"g22-{len(said)}", "messages": [{"role": "user", "content": said}]}
    r = await client.post("/extract?wait=true", json=body)
    assert r.status_code == 200, r.text
    units = r.json()["units"]
    assert [u["outcome"] for u in units] == ["created", "created"], units
    assert ("Priya" in units[0]["value"]) and ("2027" in units[1]["value"]), units


async def test_a_correction_in_a_later_close_supersedes_the_plan(wm):
    """Tester G1 across two closes of one session: "My trip is in May." became a unit; the
    next close's "Actually April, not May." restates it (April), and the plan said later
    holds: May superseded."""
    await close_task(wm, "g1-wm", [("user", "My trip is in May.")])
    units = await close_task(wm, "g1-wm", [("user", "Actually April, not May.")])
    assert len(units) == 1 and "trip is in April" in units[0]["value"], units
    now = {v: m["status"] for v, m in (await memories(wm)).items()}
    assert sorted(now.values()) == ["active", "superseded"], now
    assert all(s == ("active" if "April" in v else "superseded") for v, s in now.items()), now

"""A move and a month said alone (a new user's "I'm moving to Denver in May." made no unit at
all: "moving" and "May" were read as the reaction "so moving" and the modal "may"; "in June"
stayed undated). Through /extract, offline, said on Sunday 2026-12-06."""

from __future__ import annotations

from tests.services.extraction.extracted import units_of, user


async def test_a_move_in_a_month_is_a_dated_plan(client):
    said = [user("I'm moving to Denver in May."), user("I'm going to Paris."),
            user("I need to renew my passport before March.")]  # fmt: skip
    units = await units_of(client, "mover", said)
    unit = units["The user is moving to Denver in May 2027."]
    assert unit["occurred_at"].startswith("2027-05-01"), unit
    assert "Denver" in unit["entities"], unit
    assert "The user is going to Paris." in units, units
    passport = units["The user needs to renew the user's passport before March 2027."]
    assert passport["occurred_at"].startswith("2027-03-01"), passport


async def test_a_month_alone_follows_the_tense(client):
    said = [user("I started running in early March."), user("I have been vegan since June."),
            user("Next June we fly to Rome.")]  # fmt: skip
    units = await units_of(client, "months", said)
    assert "The user started running in early March 2026." in units, units
    assert units["The user started running in early March 2026."]["occurred_at"].startswith(
        "2026-03-01"
    )
    assert any("since June 2026" in v for v in units), units
    assert any(u["occurred_at"].startswith("2027-06-01") for u in units.values()), units


async def test_a_month_alone_in_chinese(client):
    units = await units_of(client, "banjia", [user("我五月要搬到丹佛。")])
    [(value, unit)] = units.items()
    assert value == "用户2027年5月要搬到丹佛。", value
    assert unit["occurred_at"].startswith("2027-05-01"), unit


async def test_a_move_without_its_subject(client):
    units = await units_of(client, "terse", [user("Moving to Austin in March.")])
    assert "The user is moving to Austin in March 2027." in units, units


async def test_may_the_modal_and_a_moving_story_are_no_dates_or_moves(client):
    said = [user("I may move to Denver."), user("That film was so moving.")]
    units = await units_of(client, "modal", said)
    assert "The user may move to Denver." in units, units
    assert all(u["occurred_at"].startswith("2026-12-06") for u in units.values()), units
    assert not [v for v in units if "film" in v], units


async def test_next_march_and_the_end_of_next_month(client):
    """Tester hbreak5 F12: "next March" stayed undated (the unit expired in January), 明年三月
    was January, and "the end of next month" read "at the end of in January 2027"."""
    said = [user("I will change jobs next March."), user("My lease ends at the end of next month.")]
    units = await units_of(client, "plans", said)
    assert units["The user will change jobs in March 2027."]["occurred_at"].startswith("2027-03")
    assert "The user's lease ends at the end of January 2027." in units, units
    units = await units_of(client, "jihua", [user("明年三月我要换工作。")])
    assert units["2027年3月用户要换工作。"]["occurred_at"].startswith("2027-03-01"), units


async def test_a_clause_of_its_own_keeps_its_tense(client):
    """A four-session life (lead, 2026-12-07): "Jonas got a new job at Siemens, he starts in
    September." said in August was dated September of the year before — the past "got" of
    the first clause placed the month of the second. A clause with a subject and verb of its
    own ("he starts", "starting", 开始) is read in its own tense; a clause without one ("In
    May, we went to Rome") in its sentence's."""
    said = [user("Jonas got a new job at Siemens, he starts in February."),
            user("I handed in my notice, starting at Google on Monday."),
            user("我找到了新工作，二月开始上班。"),
            user("In May, we went to Rome.")]  # fmt: skip
    units = await units_of(client, "own-clause", said)
    at = {v: u["occurred_at"][:10] for v, u in units.items()}
    assert at.get("Jonas got a new job at Siemens, he starts in February 2027.") == "2027-02-01", at
    assert any("Google" in v and d == "2026-12-07" for v, d in at.items()), at
    assert any("新工作" in v and d == "2027-02-01" for v, d in at.items()), at
    assert any("Rome" in v and d == "2026-05-01" for v, d in at.items()), at

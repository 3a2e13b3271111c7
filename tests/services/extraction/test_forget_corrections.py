"""A correction phrased with "forget" / "scratch that" / "never mind" / 忘了这个吧 (tester
hbreak8 H13) keeps the NEW value and not the old: the words after the marker were dropped as
part of a request to forget, while the value the user wanted gone was stored. English and
Chinese, through /extract."""

from __future__ import annotations

import pytest

from tests.services.extraction.extracted import units_of, user


@pytest.mark.parametrize(
    ("messages", "new", "old"),
    [
        ([user("I live in Denver."), user("Forget Denver, I live in Boulder now.")],
         "The user lives in Boulder.", "denver"),
        ([user("I am allergic to penicillin. Actually, forget that, it is amoxicillin I am "
               "allergic to.")],
         "The user is allergic to amoxicillin.", "penicillin"),
        ([user("I am allergic to penicillin."),
          user("Sorry, scratch that: I am allergic to amoxicillin, not penicillin.")],
         "The user is allergic to amoxicillin.", "penicillin"),
        ([user("My sister's name is Ann."), user("Never mind, her name is Anna.")],
         "The user's sister is named Anna.", "mind"),
        ([user("我住在北京。"), user("忘了这个吧，我其实住在天津。")], "天津", "北京"),
        ([user("我对青霉素过敏。"), user("忘了这个吧，我是对阿莫西林过敏，不是青霉素。")],
         "阿莫西林", "青霉素"),
        ([user("I am allergic to penicillin. Scratch that. I am allergic to amoxicillin.")],
         "The user is allergic to amoxicillin.", "penicillin"),
        ([user("I live in Denver."), user("Scratch that."), user("I live in Boulder.")],
         "The user lives in Boulder.", "denver"),
    ],
)  # fmt: skip
async def test_a_forget_correction_keeps_the_new_value_only(client, messages, new, old):
    units = await units_of(client, "corrector", messages)
    assert [v for v in units if new in v], units
    assert not [v for v in units if old in v.lower()], units
    assert not [v for v in units if "forget" in v.lower() or "忘" in v], units


async def test_the_outcome_lists_the_correction_without_the_old_words(client):
    said = [user("I live in Denver."), user("Forget Denver, I live in Boulder now.")]
    body = {"user_id": "corrector2", "now": "2026-12-06T10:00:00Z", "messages": said}
    r = await client.post("/extract?wait=true", json=body)
    assert r.status_code == 200, r.text
    [dropped] = [u for u in r.json()["units"] if u["outcome"] == "dropped"]
    assert dropped["reason"].startswith("a correction: the words before it are taken back")


async def test_never_mind_about_something_else_takes_nothing_back(client):
    units = await units_of(
        client, "corrector3", [user("I'm vegetarian."), user("Never mind, I'll book the train.")]
    )
    assert "The user is vegetarian." in units, units


async def test_never_mind_alone_is_no_unit(client):
    units = await units_of(client, "corrector4", [user("I'm vegetarian."), user("Never mind.")])
    assert list(units) == ["The user is vegetarian."], units

"""A request in the transcript to forget what the user said (tester D29) is honoured by the
extraction of that transcript: "Forget what I said about my address." after the address makes
no unit of the address, nor of the request; "forget that" takes back the user's previous
message. Other facts of the same transcript stay. English and Chinese, through /extract."""

from __future__ import annotations

import pytest

from tests.services.extraction.extracted import units_of, user


@pytest.mark.parametrize(
    ("messages", "absent", "kept"),
    [
        ([user("I live at 12 Elm Street, Springfield."), user("I work as a nurse at St. Mary's."),
          user("Actually, forget what I said about my address.")],
         ("elm", "address", "forget"), "nurse"),
        ([user("My phone number is 555-0134 and I'm vegetarian."),
          user("Please don't remember my phone number.")],
         ("555", "phone", "remember"), "vegetarian"),
        ([user("I'm allergic to cats."), user("I just adopted a dog named Rex."),
          user("Forget that.")],
         ("rex", "forget"), "cats"),
        ([user("我住在北京市朝阳区建国路88号。"), user("我是一名护士。"),
          user("忘掉我刚才说的地址吧。")],
         ("建国路", "地址", "忘"), "护士"),
        ([user("我的手机号是13800138000。"), user("我吃素。"), user("别记我的手机号。")],
         ("13800138000", "手机号"), "吃素"),
    ],
)  # fmt: skip
async def test_a_forget_request_drops_what_it_names(client, messages, absent, kept):
    units = await units_of(client, "forgetful", messages)
    for word in absent:
        assert not [v for v in units if word in v.lower()], (word, units)
    assert [v for v in units if kept in v.lower()], units


async def test_a_forget_request_for_something_not_said_keeps_everything(client):
    units = await units_of(
        client, "forgetful2",
        [user("I live in Denver."), user("Forget what I said about my phone number.")],
    )  # fmt: skip
    assert [v for v in units if "denver" in v.lower()], units
    assert not [v for v in units if "forget" in v.lower()], units


async def test_the_outcome_says_what_was_not_read_and_never_echoes_it(client):
    said = [user("I live at 12 Elm Street."), user("Forget what I said about my address.")]
    body = {"user_id": "forgetful3", "now": "2026-12-06T10:00:00Z", "messages": said}
    r = await client.post("/extract?wait=true", json=body)
    assert r.status_code == 200, r.text
    dropped = [u for u in r.json()["units"] if u["outcome"] == "dropped"]
    assert len(dropped) == 1, dropped
    assert "not read (1 part(s) of message 0)" in dropped[0]["reason"], dropped
    assert "Elm" not in r.text


@pytest.mark.parametrize(
    "request_to_forget",
    ["忘掉我的地址。", "Stop remembering where I work.", "Don't keep my address anymore.",
     "Remove the note about my ex."],
)  # fmt: skip
async def test_other_wordings_of_a_request_to_forget_are_no_memory(client, request_to_forget):
    """Tester E31: each was stored as a memory ("忘掉用户的地址。")."""
    units = await units_of(client, "forgetful4", [user(request_to_forget)])
    assert units == {}, units


async def test_forget_it_is_never_mind(client):
    units = await units_of(client, "nevermind", [user("I'm vegetarian."), user("Forget it.")])
    assert "The user is vegetarian." in units, units


async def test_dont_remember_where_i_work_is_a_request_to_forget(client):
    """Tester hbreak5 F6: 别记住我在哪里工作。 was "don't save this message" (nothing to do),
    not a request to forget, so an agent never learnt to delete the stored employer."""
    body = {"user_id": "forgetful5", "messages": [user("别记住我在哪里工作。")],
            "now": "2026-12-06T10:00:00Z"}  # fmt: skip
    r = await client.post("/extract?wait=true", json=body)
    [dropped] = [u for u in r.json()["units"] if u["outcome"] == "dropped"]
    assert "DELETE /memories/{id}" in dropped["reason"], dropped


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ("I live at 12 Elm Street. I'm allergic to peanuts.", "peanuts"),
        ("I live at 12 Elm Street, I'm allergic to peanuts.", "peanuts"),
        ("When I was ten, I lived on Elm Street. My dog is called Rex!", "rex"),
        ("我住在北京市朝阳区建国路88号。我对花生过敏。", "花生"),
    ],
)
async def test_a_forget_request_drops_only_the_sentence_that_names_it(client, said, kept):
    """Tester hbreak6 G16: "Forget my address." after "I live at 12 Elm Street. I'm allergic
    to peanuts." dropped the whole message, the allergy with it. Only the sentence (or the
    part of one the speaker opens again, "…, I'm…") that speaks of the address goes."""
    request = "忘掉我的地址吧。" if "我" in said else "Forget my address."
    units = await units_of(client, "forgetful", [user(said), user(request)])
    assert [v for v in units if kept in v.lower()], units
    for word in ("elm", "建国路", "address", "地址", "ten"):
        assert not [v for v in units if word in v.lower().split() or word in v], (word, units)


@pytest.mark.parametrize(
    "said",
    [
        "I live at 12 Elm Street and I'm allergic to peanuts.",
        "I live at 12 Elm Street, and I'm allergic to peanuts.",
        "My address is 12 Elm Street; also I'm allergic to peanuts.",
    ],
)
async def test_forgetting_the_address_unit_leaves_the_allergy(client, said):
    """Tester hbreak6 G16, the stored side: "… and I'm allergic to peanuts" made one unit
    holding the address and the allergy ("The user lives at 12 Elm Street and The user is
    allergic to peanuts."), so forgetting the address (found by recall, deleted by id) forgot
    the allergy with it — and forgetting the allergy left it in the address unit. The speaker
    opening a statement again makes a unit of its own."""
    units = await units_of(client, "forgetful", [user(said)])
    assert [v for v in units if "peanut" in v.lower()] == ["The user is allergic to peanuts."]
    [address] = [v for v in units if "elm" in v.lower()]
    assert "peanut" not in address.lower(), units
    r = await client.delete(f"/memories/{units[address]['id']}")
    assert r.status_code == 200, r.text
    body = {"query": "What can't the user eat?", "user_id": "forgetful"}
    recalled = [m["value"] for m in (await client.post("/recall", json=body)).json()["memories"]]
    assert recalled == ["The user is allergic to peanuts."], recalled

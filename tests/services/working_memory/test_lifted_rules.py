"""A later message that lifts a pinned rule is kept beside it (tester hbreak7 H19): the window
pinned "Never book before 8am" as a standing constraint and dropped "the 8am rule no longer
applies", so ``/context`` told the model the old rule alone."""

from __future__ import annotations

import pytest

from app.services.working_memory.standing import standing_kind
from tests.services.working_memory.test_working_memory import append, msg

RULE = "Never book before 8am."
LIFT = "Actually, the 8am rule no longer applies, early flights are fine now."
SESSION = [
    msg(RULE, user_id="lena"),
    msg("Noted: nothing before 8am.", role="assistant"),
    msg("I need to be in Munich on Tuesday for a meeting at 9:30 in the Marienplatz office."),
    msg("LH2001 leaves at 6:45 and lands 7:55; LH2005 leaves 9:10, lands 10:20.", role="assistant"),
    msg(LIFT),
    msg("Got it. Shall I book LH2001 at 6:45 then, seat 14C, 189 EUR?", role="assistant"),
    msg("Let me check with my colleague Jonas Weber first, he may join on flight LH2001 too."),
    msg("Sure, tell me when you know.", role="assistant"),
]


@pytest.mark.parametrize(
    "text",
    [
        LIFT,
        "The 8am rule doesn't apply anymore.",
        "You can ignore the no-flights-before-8am rule now.",
        "Forget what I said about early flights.",
        "That restriction is lifted.",
        "Never mind the 8am thing.",
        "8点以前不订票的规定不再适用了。",
        "之前说的那条规定取消了。",
    ],
)
def test_a_lift_is_pinned_like_what_it_lifts(text: str) -> None:
    assert standing_kind("user", text) == "lift"
    assert standing_kind("assistant", text) is None


@pytest.mark.parametrize(
    "text",
    [
        "The discount applies to all rooms.",
        "I never forget a face.",
        "Never book before 8am.",
        "Does the 8am rule still apply?",
    ],
)
def test_not_a_lift(text: str) -> None:
    assert standing_kind("user", text) != "lift"


async def test_the_window_keeps_the_lift_beside_the_rule(wm) -> None:
    await append(wm, "h19", *SESSION)
    rule = wm.tokenizer.count(RULE) + 4
    lift = wm.tokenizer.count(LIFT) + 4
    for query in (None, "which flight should I take to Munich?"):
        params = {"max_tokens": int((rule + lift) / 0.8) + 2, "include_omitted": "true"}
        if query:
            params["query"] = query
        r = await wm.client.get("/working_memory/h19", params=params)
        assert r.status_code == 200, r.text
        kept = r.json()["messages"]
        assert [m["seq"] for m in kept] == [1, 5], (query, kept)
        assert kept[1]["scores"]["standing"] == "lift"
        assert "lifts" in kept[1]["why"]
    # Room for one of the two only: the lift, never the rule alone.
    r = await wm.client.get("/working_memory/h19", params={"max_tokens": int(lift / 0.8) + 1})
    assert [m["seq"] for m in r.json()["messages"]] == [5]


async def test_context_never_tells_the_lifted_rule_alone(wm) -> None:
    await append(wm, "h19c", *SESSION)
    for max_tokens in (90, 120, 160):
        r = await wm.client.get(
            "/context",
            params={"user_id": "lena", "session_id": "h19c", "max_tokens": max_tokens},
        )
        assert r.status_code == 200, r.text
        text = r.json()["text"]
        if RULE in text:
            assert LIFT in text, (max_tokens, text)
    r = await wm.client.get(
        "/context", params={"user_id": "lena", "session_id": "h19c", "max_tokens": 160}
    )
    text = r.json()["text"]
    assert RULE in text and LIFT in text, text
    assert text.index(RULE) < text.index(LIFT)

"""A statement about the other speaker (tester B6): "You told me you moved to Boston in May"
or "Congrats on the new job at Acme!" said by Maria to Jon was dropped (or written as
Maria's own news); it is a unit about Jon now, with a lower confidence since it is only
Maria's word. A "Yes." that confirms the assistant's "You moved to Boston in May, right?" is
the user's own statement. English and Chinese, through /extract."""

from __future__ import annotations

import pytest

from tests.services.extraction.extracted import units_of


def said(name: str, content: str) -> dict:
    return {"role": "user", "name": name, "content": content}


@pytest.mark.parametrize(
    ("messages", "expected", "about", "confidence"),
    [
        ([said("Jon", "Hey Maria, long time!"),
          said("Maria", "You told me you moved to Boston in May. How is it going?")],
         "Jon moved to Boston in May 2026.", "Jon", 0.7),
        ([said("Jon", "Hi!"), said("Maria", "Congrats on the new job at Acme!")],
         "Jon was congratulated by Maria on the new job at Acme.", "Jon", 0.65),
        ([said("小李", "好久不见！"), said("小王", "你说过你五月搬到了波士顿。")],
         "小李2026年5月搬到了波士顿。", "小李", 0.7),
        ([said("小李", "好久不见！"), said("小王", "恭喜你在阿里巴巴找到新工作！")],
         "小李在阿里巴巴找到新工作，小王表示祝贺。", "小李", 0.65),
    ],
)  # fmt: skip
async def test_a_statement_about_the_other_speaker_is_their_unit(
    client, messages, expected, about, confidence
):
    units = await units_of(client, "chat", messages)
    assert expected in units, units
    unit = units[expected]
    assert unit["entities"][0] == about, unit
    assert unit["confidence"] == confidence  # only the other speaker's word
    assert not [v for v in units if v.startswith(("Maria", "小王："))], units


@pytest.mark.parametrize(
    ("messages", "expected"),
    [
        ([{"role": "assistant", "content": "You told me you moved to Boston in May, right?"},
          {"role": "user", "content": "Yes."}],
         "The user moved to Boston in May 2026 and now lives there."),
        ([{"role": "assistant", "content": "你五月搬到了波士顿，对吧？"},
          {"role": "user", "content": "对。"}],
         "用户2026年5月搬到了波士顿。"),
    ],
)  # fmt: skip
async def test_a_yes_confirms_what_the_assistant_said_about_the_user(client, messages, expected):
    units = await units_of(client, "confirm", messages)
    assert expected in units, units
    assert units[expected]["confidence"] >= 0.8  # the user's own word

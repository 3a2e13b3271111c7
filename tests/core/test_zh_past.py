"""One definition of a Chinese past marker (app/core/zh_past.py), shared by extraction's unit
types and tense and the pair decision's tense guard: 了 and 过 as aspect markers and past time
words — not 为了, 过敏, 过生日, 靠过道, 不过, 超过."""

from __future__ import annotations

import pytest

from app.core import zh_past
from app.services.extraction.kinds import unit_type
from app.services.extraction.tense import is_past
from app.services.memory.pairs.referents import moods


@pytest.mark.parametrize(
    ("sentence", "past"),
    [
        ("我去过日本", True),
        ("我买了一台电脑", True),
        ("我昨天跑步", True),
        ("用户去年搬到了上海", True),
        ("我已经吃饭", True),
        ("我曾经住在北京", True),
        ("为了健康我每天跑步", False),  # 为了: for
        ("我对花生过敏", False),  # 过敏: allergic
        ("我女儿周六过生日", False),  # 过生日: celebrates a birthday
        ("我喜欢靠过道的座位", False),  # 过道: the aisle
        ("不过他喜欢什么", False),  # 不过: but
        ("预算每晚不超过800元", False),  # 超过: exceed
        ("我很了解他", False),  # 了解: understand
    ],
)
def test_one_past_marker_for_extraction_and_the_pair_decision(sentence, past):
    assert (zh_past.PAST.search(sentence) is not None) is past
    assert is_past(sentence, zh=True) is past  # extraction's tense (no future marker here)
    assert ("past" in moods(sentence)) is past  # the pair decision's tense guard


def test_a_seat_preference_is_no_event_and_a_past_trip_is():
    assert unit_type("我喜欢靠过道的座位", [], zh=True) == "preference"
    assert unit_type("我喜欢去过的那家餐厅", [], zh=True) == "event"
    assert unit_type("我对花生过敏", [], zh=True) == "constraint"

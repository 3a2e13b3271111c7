"""Offline extraction: lasting statements are typed fact / constraint / preference, not
``event`` (events expire after 30 days; tester T27), and time phrases resolve as said: a
past-tense weekday is the last one (T28), a recurring day is a habit with no date (T17), an
idiom is no date (T4), 下个月3号 is the 3rd (T8), "last month" / "last year" are kept (T16,
T24); a message with a typed unit makes an event only of the rest (T1). English and Chinese."""

from __future__ import annotations

import asyncio
from datetime import date, datetime

import pytest

from app.services.extraction.dates import find_dates
from app.services.extraction.offline import OfflineExtractor
from app.services.extraction.units import Candidate, ExtractionContext, Turn

# Tuesday 2026-12-01, 10:00.
NOW = datetime.fromisoformat("2026-12-01T10:00:00+00:00")
# Monday 2026-11-02.
MONDAY = datetime(2026, 11, 2, 10, 0)


def extract(*messages: tuple[str, str], now: datetime = NOW) -> list[Candidate]:
    turns = [Turn(i, role, text, created_at=now) for i, (role, text) in enumerate(messages)]
    ctx = ExtractionContext("u", now, "UTC")
    return asyncio.run(OfflineExtractor().extract(turns, ctx)).units


def typed(*messages: tuple[str, str]) -> list[tuple[str, str]]:
    return [(u.type, u.value) for u in extract(*messages)]


@pytest.mark.parametrize(
    ("said", "expected"),
    [
        ("My passport is valid until May 2028.",
         ("fact", "The user's passport is valid until May 2028.")),
        ("我的护照2028年5月到期。", ("fact", "用户的护照2028年5月到期。")),
        ("My budget for the laptop is $1,500 max.",
         ("constraint", "The user's budget for the laptop is $1,500 max.")),
        ("预算每晚不超过800元。", ("constraint", "用户：预算每晚不超过800元。")),
        ("I'm really keen on counseling and mental health work.",
         ("preference", "The user is really keen on counseling and mental health work.")),
        ("能坐高铁就坐高铁。", ("preference", "用户能坐高铁就坐高铁。")),
        ("I go to the gym every Tuesday and Thursday.",
         ("fact", "The user goes to the gym every Tuesday and Thursday.")),
        ("我每周二和周四去健身房。", ("fact", "用户每周二和周四去健身房。")),
        ("I fixed the login bug yesterday.",
         ("event", "The user fixed the login bug on 2026-11-30 (Monday).")),
        ("我昨天修好了登录的bug。", ("event", "用户2026年11月30日（周一）修好了登录的bug。")),
    ],
)  # fmt: skip
def test_lasting_statements_are_not_typed_event(said, expected):
    assert typed(("user", said)) == [expected]


def test_a_name_and_an_employer_are_facts_without_the_greeting():
    assert typed(("user", "你好，我叫张伟，在杭州的阿里巴巴做产品经理。")) == [
        ("fact", "用户叫张伟。"),
        ("fact", "用户在杭州的阿里巴巴做产品经理。"),
    ]


def test_an_expiry_is_dated_at_its_month_and_has_no_plan_scenario():
    [unit] = extract(("user", "我的护照2028年5月到期。"))
    assert unit.occurred_at is not None and unit.occurred_at.date() == date(2028, 5, 1)
    assert unit.query is None


@pytest.mark.parametrize(
    ("said", "expected"),
    [
        ("I ran 5 km on Saturday.", "The user ran 5 km on 2026-10-31 (Saturday)."),
        ("I will run 5 km on Saturday.", "The user will run 5 km on 2026-11-07 (Saturday)."),
        ("周六我跑了5公里。", "2026年10月31日（周六）用户跑了5公里。"),
        ("周六我要去跑5公里。", "2026年11月7日（周六）用户要去跑5公里。"),
    ],
)
def test_a_past_tense_weekday_is_the_last_one(said, expected):
    [unit] = extract(("user", said), now=MONDAY)
    assert unit.value == expected and unit.type == "event"


@pytest.mark.parametrize(
    ("now", "said", "expected"),
    [
        # LoCoMo's own answers: "the Friday before 15 July 2023" (a Saturday), "the Tuesday
        # before 20 July 2023" (a Thursday), "the Friday before 22 October 2023" (a Sunday).
        (datetime(2023, 7, 15, 13, 0), "Last Friday I went to a council meeting for adoption.",
         date(2023, 7, 14)),
        (datetime(2023, 7, 20, 13, 0), "I joined a new activist group last Tuesday.",
         date(2023, 7, 18)),
        (datetime(2023, 10, 22, 9, 55), "I passed the adoption agency interviews last Friday!",
         date(2023, 10, 20)),
        # said on the day itself: a week back; 上周五 is the Friday of last week (上周: the week)
        (datetime(2023, 7, 14, 13, 0), "Last Friday I went to a pottery workshop.",
         date(2023, 7, 7)),
        (datetime(2023, 7, 15, 13, 0), "上周五我去参加了收养说明会。", date(2023, 7, 7)),
        (datetime(2023, 10, 22, 9, 55), "上星期五我通过了面试。", date(2023, 10, 13)),
        # tester D2 (LoCoMo conv-26): abbreviations after "last"/"on", "this past weekend",
        # "two weekends ago" were kept as said and dated on the day they were said
        (datetime(2023, 7, 15, 13, 51), "Last Fri I finally took my kids to a pottery workshop.",
         date(2023, 7, 14)),
        (datetime(2023, 7, 20, 13, 0), "I just joined a new LGBTQ activist group last Tues.",
         date(2023, 7, 18)),
        (datetime(2023, 10, 20, 13, 0), "That roadtrip this past weekend was insane!",
         date(2023, 10, 14)),
        (datetime(2023, 7, 17, 13, 0), "I went camping with my fam two weekends ago.",
         date(2023, 7, 8)),
    ],
)  # fmt: skip
def test_last_weekday_is_the_most_recent_one_in_english(now, said, expected):
    """Tester C10: "last Friday" said on a Sunday was dated nine days back (the Friday of the
    previous Monday–Sunday week); English means the Friday just gone."""
    [unit] = extract(("user", said), now=now)
    assert unit.occurred_at is not None and unit.occurred_at.date() == expected, unit.value
    assert expected.isoformat() in unit.value or "年" in unit.value, unit.value


def test_a_weekday_abbreviation_needs_a_word_that_makes_it_a_day():
    monday = datetime(2023, 7, 17, 13, 0)
    assert find_dates("I sat on the sun deck; we wed in a small chapel.", monday) == []
    [found] = find_dates("See you on Sat. at noon", monday)
    assert (found.phrase, found.day) == ("on Sat.", date(2023, 7, 22))


@pytest.mark.parametrize(
    "said",
    ["I go to the gym every Tuesday and Thursday.", "Every Monday I call my mother.",
     "我每周二和周四去健身房。", "我每个周末都去爬山。", "We hike each weekend.",
     "Feels like just yesterday I put this dress on!", "仿佛就在昨天，我们刚认识。"],
)  # fmt: skip
def test_recurring_days_and_idioms_are_not_dated(said):
    assert find_dates(said, NOW) == []
    for unit in extract(("user", said)):
        assert unit.occurred_at is None
        assert "2026" not in unit.value


def test_a_day_of_next_month_is_that_day_in_value_occurred_at_and_query():
    [unit] = extract(("user", "另外我女儿下个月3号过生日，她今年7岁了。"))
    assert unit.value == "用户的女儿2027年1月3日（周日）过生日，她今年7岁了。"
    assert unit.occurred_at is not None and unit.occurred_at.date() == date(2027, 1, 3)
    assert unit.query is not None and "1月3日" in unit.query


@pytest.mark.parametrize(
    ("said", "expected"),
    [
        ("I moved to Lisbon last month.",
         "The user moved to Lisbon in November 2026 and now lives there."),
        ("Actually, I moved to Munich last year, not Berlin anymore.",
         "The user moved to Munich in 2025 and now lives there."),
        ("其实我去年已经从北京搬到上海了", "用户2025年搬到了上海，现在住在那里。"),
    ],
)  # fmt: skip
def test_last_month_and_last_year_are_kept(said, expected):
    assert typed(("user", said)) == [("fact", expected)]


def test_a_request_beside_a_constraint_is_a_preference_of_its_own():
    units = typed(
        ("assistant", "Any seat preference?"),
        ("user", "Window seat, please. And I am allergic to peanuts."),
    )
    assert units == [
        ("constraint", "The user is allergic to peanuts."),
        ("preference", "The user prefers a window seat."),
    ]


def test_a_chinese_budget_beside_an_allergy_is_a_constraint_of_its_own():
    units = typed(
        ("assistant", "好的，需要帮你订酒店吗？"),
        ("user", "要的，预算每晚不超过800元，我对海鲜过敏，别推荐海鲜餐厅。"),
    )
    assert units == [
        ("constraint", "用户对海鲜过敏。"),
        ("constraint", "用户要求不要推荐海鲜餐厅。"),
        ("constraint", "用户：预算每晚不超过800元。"),
    ]
    budget = extract(
        ("assistant", "好的，需要帮你订酒店吗？"),
        ("user", "要的，预算每晚不超过800元，我对海鲜过敏。"),
    )[-1]
    assert budget.query == "回复助手：“好的，需要帮你订酒店吗？”"


def test_an_event_ahead_expires_a_ttl_after_its_own_day():
    from datetime import timedelta

    from app.core.config import TtlSettings
    from app.services.memory.ttl import default_expiry

    ahead = datetime.fromisoformat("2027-03-01T00:00:00+00:00")
    assert default_expiry("event", ahead, NOW, TtlSettings()) == ahead + timedelta(days=30)
    assert default_expiry("event", None, NOW, TtlSettings()) == NOW + timedelta(days=30)


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        # Tester T5: "me"/"us" became "them", which reads as someone else.
        ("This necklace is super special to me. She gave it to me when I was young",
         "This necklace is super special to Caroline. She gave it to Caroline when Caroline "
         "was young."),
        ("It means so much to us", "It means so much to Caroline and others."),
        ("I need some me-time", "Caroline needs some me-time."),
        ("Since we last chatted, I went hiking", "Since Caroline and Mel last chatted, Caroline "
         "went hiking."),
        ("Our anniversary is in June", "Caroline's anniversary is in June."),
        # "are you" → "is Mel" (was "are Mel"); "do you" → "does Mel".
        ("What business are you thinking of?", "What business is Mel thinking of?"),
        ("Do you like it?", "Does Mel like it?"),
        # Tester T6: a sentence that left its subject out names it ("Lost Jon's job" before).
        ("Lost my job as a banker.", "Caroline lost Caroline's job as a banker."),
        ("Excited for my trip!", "Excited for Caroline's trip!"),
        # Only a photo's caption left: who shared it.
        ("[shares a photo: a photo of a book shelf]", "Caroline shares a photo of a book shelf."),
    ],
)  # fmt: skip
def test_pronouns_name_the_speaker(said, stored):
    from app.services.extraction.statements import third_person_en

    assert third_person_en(said, "Caroline", "Mel") == stored


def test_two_people_s_food_habits_in_one_chinese_message_are_two_units():
    assert typed(("user", "我老婆不吃辣，我倒是很喜欢吃辣。")) == [
        ("constraint", "用户的老婆不吃辣。"),
        ("preference", "用户喜欢吃辣。"),
    ]


def test_a_chinese_pronoun_stays_with_its_referent_and_kin_takes_de():
    [unit] = extract(("user", "我女儿下周五过生日，她今年7岁了。"))
    assert unit.value.startswith("用户的女儿2026年12月11日（周五）过生日，她今年7岁")
    [unit] = extract(("user", "我们的结婚纪念日是6月12日。"))
    assert unit.type == "fact"


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ("I do not eat pork, and if it rains I take the bus to work.", "takes the bus"),
        ("我不吃猪肉，要是下雨我就坐公交车上班。", "坐公交车"),
    ],
)
def test_a_clause_saying_more_than_its_typed_unit_is_kept(said, kept):
    # Tester T24: only the pork constraint was kept; the conditional habit was lost.
    values = [u.value for u in extract(("user", said))]
    assert any("pork" in v or "猪肉" in v for v in values)
    assert any(kept in v for v in values)


def test_a_chinese_request_beside_a_constraint_is_a_preference_of_its_own():
    assert typed(("user", "请给我靠窗的座位。另外我对花生过敏。")) == [
        ("constraint", "用户对花生过敏。"),
        ("preference", "用户想要靠窗的座位。"),
    ]
    assert typed(("assistant", "座位有什么要求吗？"), ("user", "靠窗的座位，谢谢。")) == [
        ("preference", "用户想要靠窗的座位。")
    ]


@pytest.mark.parametrize(
    ("said", "day"),
    [("我女儿周六过生日。", date(2026, 11, 7)), ("周六我过敏了。", date(2026, 10, 31)),
     ("My daughter's party is on Saturday.", date(2026, 11, 7))],
)  # fmt: skip
def test_words_that_only_look_past_keep_the_coming_day(said, day):
    [found] = find_dates(said, MONDAY)
    assert found.day == day


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        ("Can you remind me to call mom on Sunday?",
         "The user wants to be reminded to call mom on 2026-12-06 (Sunday)."),
        ("你能提醒我周日给妈妈打电话吗？", "请提醒用户2026年12月6日（周日）给妈妈打电话。"),
    ],
)  # fmt: skip
def test_a_request_to_be_reminded_is_kept(said, stored):
    # Tester T24: "Can you remind me to call mom on Sunday?" made no unit (a question).
    [unit] = extract(("user", said))
    assert unit.value == stored and unit.type == "event"


@pytest.mark.parametrize(
    ("asked", "done", "stored"),
    [
        ("Book me a table for two at Nobu tomorrow at 8pm.",
         "Done: I booked Nobu for two tomorrow at 20:00, confirmation number NB-4821.",
         "The assistant booked Nobu for two on 2026-12-02 (Wednesday) at 20:00, confirmation "
         "number NB-4821."),
        ("帮我订明天晚上8点的两人桌。", "好的，已经帮你订好了明天晚上8点的两人桌，确认号NB-4821。",
         "助手已经帮用户订好了2026年12月2日（周三）晚上8点的两人桌，确认号NB-4821。"),
    ],
)  # fmt: skip
def test_what_the_assistant_booked_is_a_result(asked, done, stored):
    # Tester T24: the booking and its confirmation number were lost.
    units = extract(("user", asked), ("assistant", done))
    [result] = [u for u in units if u.type == "result"]
    assert result.value == stored
    assert result.occurred_at is not None and result.occurred_at.date() == date(2026, 12, 2)


# Sunday 2026-12-06, 18:00: this week's Friday and Saturday have passed.
SUNDAY = datetime(2026, 12, 6, 18, 0)


@pytest.mark.parametrize(
    ("said", "day"),
    [
        ("I have a dentist appointment this Friday.", date(2026, 12, 11)),
        ("I have an exam this Saturday.", date(2026, 12, 12)),
        ("我这周五要去看牙医。", date(2026, 12, 11)),
        ("本周六我有个考试。", date(2026, 12, 12)),
        # in the past tense, the week's own day
        ("I ran 5 km this Saturday.", date(2026, 12, 5)),
        ("我这周五去看了牙医。", date(2026, 12, 4)),
    ],
)
def test_this_weekday_that_has_passed_means_the_coming_one(said, day):
    # Tester B25: "this Friday" said on a Sunday about a plan was dated two days back.
    [found] = find_dates(said, SUNDAY)
    assert found.day == day, said

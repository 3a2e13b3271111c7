"""Time phrases of a recall query that point ahead, or name a weekday: "next Friday",
"tomorrow", "in two weeks", "next June", 下周五, 明天, 后天, 下个月, 明年, 三天后, 下周末 (tester
finding: agents ask "what's on next Friday?" about plans, and these made no ``time_hint``).

A plan is stored dated by the day it is for (its ``occurred_at``, docs/EXTRACTION.md), so the
query's phrase must name the day the extractor named: weekday phrases and the Chinese named
days and periods are resolved by the extractor's own rules
(:func:`app.services.extraction.dates.find_dates`: "next Friday" = 下周五 = the Friday of next
week, a bare "Friday" the coming one unless the question is in the past tense, "what did I do
on Friday?"), not by ``dateparser``'s reading ("next Friday" = the coming one). Counts ahead
("in 3 days", "two weeks from now", 三天后, 两个月后) are the span of their unit holding that
day, as "3 weeks ago" is. Like every time phrase, the window is a ranking signal, never a
filter.
"""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta
from typing import Literal

from app.core.zh_numbers import zh_number
from app.services.extraction.dates import find_dates

Unit = Literal["day", "week", "weekend", "month", "year"]

_MONTH = (
    r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|"
    r"sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)"
)
_COUNT = (
    r"\d+|a\s+couple\s+of|a\s+few|an?|one|two|three|four|five|six|seven|eight|nine|ten"
    r"|eleven|twelve"
)
_COUNTS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
           "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12,
           "a couple of": 2, "a few": 3}  # fmt: skip
_EN_UNITS: dict[str, Unit] = {"day": "day", "week": "week", "month": "month", "year": "year"}

# Spotting patterns (kind, pattern), placed by time_hint before its own relative ones: 上周五
# is a day (it was read as 上周, the week), "next June" a month.
PATTERNS: list[tuple[str, re.Pattern[str]]] = [
    (
        "weekday",
        re.compile(
            r"(?i)\b(?:(?:next|this\s+coming|this|coming|upcoming|last|on)\s+)?"
            r"(?:mon|tues|wednes|thurs|fri|satur|sun)day\b(?!s)"
        ),
    ),
    (
        "zh_weekday",
        re.compile(
            r"(?:下下|下个|下一个|下|上个|上|这个|这|本)?(?:周|星期|礼拜)[一二三四五六日天]"
        ),
    ),
    ("ahead", re.compile(rf"(?i)\bin\s+({_COUNT})\s+(day|week|month|year)s?\b")),
    ("ahead", re.compile(rf"(?i)\b({_COUNT})\s+(day|week|month|year)s?\s+from\s+now\b")),
    ("tomorrow", re.compile(r"(?i)\b(?:the\s+day\s+after\s+)?tomorrow\b")),
    ("month_next", re.compile(rf"(?i)\bnext\s+({_MONTH})\b")),
    (
        "zh_ahead",
        re.compile(r"(\d+|[一两二三四五六七八九十]+)\s*(天|周|个?星期|个月|年)(?:后|以后|之后)"),
    ),
    ("zh_after_next", re.compile(r"下下个?(?:周|星期|礼拜)(?![一二三四五六日天末])")),
    (
        "zh_named",
        re.compile(
            r"(?:下个?|这个?|本|上个?)月(?:\d{1,2}|[一二三四五六七八九十]{1,3})[日号]"
            r"|大后天|后天|明天|明早|明晚|明年|后年"
            r"|(?:下个?|这个?|本)(?:周|星期|礼拜)末"
            r"|下个?(?:周|星期|礼拜)(?![一二三四五六日天末])|下个?月"
        ),
    ),
]
KINDS = frozenset(kind for kind, _ in PATTERNS)
WEEKDAYS = frozenset({"weekday", "zh_weekday"})


def _month_first(day: date, months: int) -> date:
    month = day.month - 1 + months
    return date(day.year + month // 12, month % 12 + 1, 1)


def _ahead(n: int, unit: Unit, today: date) -> tuple[date, Unit]:
    if unit == "day":
        return today + timedelta(days=n), unit
    if unit == "week":
        return today + timedelta(weeks=n), unit
    if unit == "month":
        return _month_first(today, n), unit
    return date(today.year + n, 1, 1), unit


def resolve(kind: str, m: re.Match[str], query: str, local: datetime) -> tuple[date, Unit] | None:
    """The date a phrase of ``kind`` names, said at ``local`` (the subject's wall-clock
    time), and its granularity; None when it names none (a habit: "every Friday", 每周五)."""
    today = local.date()
    if kind == "ahead":
        count = re.sub(r"\s+", " ", m.group(1).lower())
        n = int(count) if count.isdigit() else _COUNTS[count]
        return _ahead(n, _EN_UNITS[m.group(2).lower()], today)
    if kind == "tomorrow":
        return today + timedelta(days=2 if m.group(0).lower().startswith("the") else 1), "day"
    if kind == "month_next":
        month = _MONTH_NUMBERS[m.group(1).lower()[:3]]
        return date(today.year + (month <= today.month), month, 1), "month"
    if kind == "zh_ahead":
        zh_n = zh_number(m.group(1))
        g = m.group(2)
        unit: Unit = (
            "day" if g == "天" else "month" if "月" in g else "year" if g == "年" else "week"
        )
        return _ahead(zh_n, unit, today) if zh_n is not None else None
    if kind == "zh_after_next":
        return today - timedelta(days=today.weekday()) + timedelta(weeks=2), "week"
    # Weekdays and the Chinese named days and periods: the extractor's reading, tense of
    # the query's sentence included; a phrase inside a habit has none.
    for found in find_dates(query, local):
        if found.start < m.end() and m.start() < found.end:
            return found.day, found.unit
    return None


_MONTH_NUMBERS = {
    name: i
    for i, name in enumerate(
        ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"], 1
    )
}

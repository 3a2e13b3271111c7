"""Time phrases of a recall query → a soft time window (``time_hint``), and whether the
query asks *when*.

"in 2023", "May 2023", "on 7 May, 2023", "last May", "in June", "last week", "yesterday",
"3 weeks ago", "the week before August 3, 2023", "去年", "上个月", "2023年5月", "5月7日",
"三天前" each become ``[start, end)`` in the subject's time zone, resolved against the
request's ``now``. Recall uses the window as a signal (units whose ``occurred_at`` falls in
it, or shortly after it, when what happened is usually told, rank higher), never as a filter:
a question's date is often approximate, and a unit outside the window may still be the
answer.

The phrases are spotted by the patterns below (so that "may" the verb or a number is not a
date); ``dateparser`` resolves each one with its granularity (``DateDataParser``: a day, a
week, a month or a year), and only what it cannot read is finished here: "last May" / "in
June" (the latest such month not after ``now``), "2023年" (read as year 1), Chinese numerals
before 天前 / 周前 / 个月前 / 年前, and "the week before / after <date>" (a week next to a
resolved date). Conventions: weeks start on Monday (ISO 8601); a bare month or month-day
without a year is the latest one not after ``now`` (questions ask about the past), unless the
question asks what is coming ("What am I doing on December 20?", "Anything planned in
January?", 一月有什么安排): then the coming one.

Phrases that point ahead ("next Friday", "tomorrow", "in two weeks", "next June", 下周五, 明天,
下个月, 三天后) and weekdays are spotted and resolved in ``time_ahead.py``, as the extractor
dates the plans they ask about.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta, tzinfo
from typing import Literal
from zoneinfo import ZoneInfo

from dateparser.date import DateDataParser

from app.core import holidays
from app.core.chinese_script import simplified
from app.core.zh_numbers import zh_number
from app.services.recall import time_ahead

Unit = Literal["day", "week", "weekend", "month", "year"]

_MONTHS = [
    "january", "february", "march", "april", "may", "june", "july", "august", "september",
    "october", "november", "december",
]  # fmt: skip
_MONTH = (
    r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|"
    r"sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)"
)
_YEAR = r"(?:19|20)\d{2}"
_NUM_WORDS = {
    "a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
    "seven": 7, "eight": 8, "nine": 9, "ten": 10, "a couple of": 2, "a few": 3,
}  # fmt: skip
_AGO_UNITS: dict[str, Unit] = {"day": "day", "week": "week", "month": "month", "year": "year"}

# A full date: "7 May 2023", "May 7, 2023", "May 7th", "2023-05-07", "2023年5月7日", "5月7号".
_EN_DAY = (
    rf"\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?{_MONTH}\.?(?:,?\s+{_YEAR})?"
    rf"|{_MONTH}\.?\s+\d{{1,2}}(?:st|nd|rd|th)?(?:,?\s+{_YEAR})?(?!\d)"
    r"|\d{4}-\d{2}-\d{2}"
)
_ZH_DAY = r"(?:\d{4}年)?\d{1,2}月\d{1,2}[日号]"
_DAY = rf"(?:{_EN_DAY}|{_ZH_DAY})"

# Spotting patterns, most specific first; a later match overlapping an earlier one is dropped.
_PATTERNS: list[tuple[str, re.Pattern[str]]] = [
    (
        "around",
        re.compile(
            rf"(?i)\b(?:the\s+|last\s+)?(weekend|week|day|month)\s+(before|after)\s+({_DAY})"
        ),
    ),
    (holidays.KIND, holidays.PATTERN),  # Christmas Eve, 除夕 (app/core/holidays.py)
    ("day", re.compile(rf"(?i)(?<![\w\d])(?:{_DAY})")),
    (
        "month_year",
        re.compile(rf"(?i)\b{_MONTH}\.?,?\s+(?:of\s+)?{_YEAR}\b|\d{{4}}年\d{{1,2}}月(?!\d)"),
    ),
    ("zh_year", re.compile(r"(?<!\d)(\d{4})年(?!\d{1,2}月)")),
    ("month_which", re.compile(rf"(?i)\b(last|this|past)\s+({_MONTH})\b")),
    (
        "month_bare",
        re.compile(
            rf"(?i)\b(?:in|during|since|until|by|before|after|early|late|mid|of)\s+(?:-\s*)?"
            rf"({_MONTH})\b(?!\s+\d)"
        ),
    ),
    ("zh_month", re.compile(r"(?<![\d年])(\d{1,2})月份?(?![\d日号])")),
    (
        "year",
        re.compile(
            rf"(?i)\b(?:in|during|since|of|for)\s+({_YEAR})\b|(?<![\w\d-])({_YEAR})(?![\w\d-])"
        ),
    ),
    # Weekdays and phrases that point ahead (time_ahead.py): before the relative phrases,
    # so that 上周五 is that Friday, not 上周 (the week).
    *time_ahead.PATTERNS,
    (
        "relative",
        re.compile(
            r"(?i)\b(?:(?:last|this|next|past)\s+(?:week|weekend|month|year)|the\s+past\s+weekend"
            r"|the\s+day\s+before\s+yesterday|yesterday|today|tonight|last\s+night)\b"
        ),
    ),
    (
        "ago",
        re.compile(
            r"(?i)\b(\d+|a\s+couple\s+of|a\s+few|an?|one|two|three|four|five|six|seven|eight"
            r"|nine|ten)\s+(days?|weeks?|months?|years?)\s+ago\b"
        ),
    ),
    (
        "zh_ago",
        re.compile(r"(\d+|[一两二三四五六七八九十]+)\s*(天|周|个?星期|个月|年)(?:前|以前|之前)"),
    ),
    (
        "zh_relative",
        re.compile(
            r"去年|前年|今年|上个?月|这个月|本月|上周末|上周|上个?星期|这周|本周|昨天|前天|今天"
        ),
    ),
]

_CJK = re.compile(r"[\u3400-\u9fff]")
# Phrases that carry a date written out (a weekday beside one yields to it).
_DATED = frozenset({"around", holidays.KIND, "day", "month_year", "zh_year", "year"})

_ASKS_WHEN = re.compile(
    r"(?i)\b(?:when|what\s+(?:date|day|time|year|month|week)|which\s+(?:date|day|year|month"
    r"|week)|how\s+long\s+ago|how\s+long\s+(?:has|have|had|did|was|were)|since\s+when)\b"
    r"|什么时候|何时|哪天|哪一天|几号|几月|哪年|哪一年|多久以前|多久前"
)


@dataclass(frozen=True)
class TimeHint:
    """A time phrase of the query and the window it means: ``[start, end)`` (aware, in the
    subject's time zone) and its granularity."""

    phrase: str
    start: datetime
    end: datetime
    unit: Unit


def asks_when(query: str) -> bool:
    """Whether ``query`` asks for a time ("when…", "what year…", "how long ago…", "什么时候",
    "哪天", "几月"…)."""
    return _ASKS_WHEN.search(query) is not None


def _window(day: date, unit: Unit) -> tuple[date, date]:
    """The calendar span of granularity ``unit`` that holds ``day``: [first, after-last)."""
    if unit == "day":
        return day, day + timedelta(days=1)
    if unit in ("week", "weekend"):
        monday = day - timedelta(days=day.weekday())
        if unit == "weekend":
            return monday + timedelta(days=5), monday + timedelta(days=7)
        return monday, monday + timedelta(days=7)
    if unit == "month":
        first = day.replace(day=1)
        return first, (first + timedelta(days=32)).replace(day=1)
    return date(day.year, 1, 1), date(day.year + 1, 1, 1)


def _latest_month(month: int, today: date, *, before: bool) -> date:
    """The first day of the latest ``month`` not after ``today`` (``before``: strictly before
    today's month, "last May" said in May)."""
    year = (
        today.year
        if month < today.month or (month == today.month and not before)
        else (today.year - 1)
    )
    return date(year, month, 1)


def _month_number(word: str) -> int:
    word = word.lower().rstrip(".")
    return next(i for i, name in enumerate(_MONTHS, 1) if name.startswith(word[:3]))


@functools.lru_cache(maxsize=1024)
def _parse(phrase: str, today: date) -> tuple[date, Unit] | None:
    """``dateparser``'s reading of ``phrase`` said on ``today``: the date and its granularity.
    English or Chinese by the phrase's script (one language: a parse costs 2-4 ms on a loaded
    2-core machine, and a repeated question reuses it: a pure function, memoised)."""
    languages = ["zh"] if _CJK.search(phrase) else ["en"]
    parser = DateDataParser(
        languages=languages,
        settings={
            "RELATIVE_BASE": datetime.combine(today, time(0, 0)),
            "PREFER_DATES_FROM": "past",
            "DATE_ORDER": "DMY",
        },
    )
    data = parser.get_date_data(phrase)
    if data.date_obj is None:
        return None
    period: Unit = "day"
    if data.period in ("week", "month", "year"):
        period = data.period
    return data.date_obj.date(), period


def _past_day(phrase: str, today: date) -> date | None:
    """A full date; without a year, the latest one not after ``today``."""
    zh = re.fullmatch(r"(?:(\d{4})年)?(\d{1,2})月(\d{1,2})[日号]", phrase)
    if zh:
        year = int(zh.group(1)) if zh.group(1) else today.year
        try:
            day = date(year, int(zh.group(2)), int(zh.group(3)))
        except ValueError:
            return None
        return day.replace(year=year - 1) if not zh.group(1) and day > today else day
    parsed = _parse(phrase, today)
    return parsed[0] if parsed else None


def _around(m: re.Match[str], today: date) -> tuple[date, date, Unit] | None:
    """ "the week / weekend / day / month before or after <date>": the span next to it."""
    anchor = _past_day(m.group(3), today)
    if anchor is None:
        return None
    span, before = m.group(1).lower(), m.group(2).lower() == "before"
    if span == "weekend":  # the Saturday-Sunday just before (after) the date
        step = -1 if before else 1
        day = anchor + timedelta(days=step)
        while day.weekday() != (6 if before else 5):
            day += timedelta(days=step)
        return (*_window(day, "weekend"), "weekend")
    days = {"week": 7, "day": 1, "month": 30}[span]
    start = anchor - timedelta(days=days) if before else anchor + timedelta(days=1)
    unit: Unit = "week" if span == "week" else "month" if span == "month" else "day"
    return start, start + timedelta(days=days), unit


def _resolve(kind: str, m: re.Match[str], today: date) -> tuple[date, Unit] | None:
    """The date a spotted phrase names and its granularity (None: unreadable)."""
    phrase = m.group(0)
    if kind == "day":
        day = _past_day(phrase, today)
        return (day, "day") if day else None
    if kind == "month_year":
        zh = re.fullmatch(r"(\d{4})年(\d{1,2})月", phrase)
        if zh:
            month = int(zh.group(2))
            return (date(int(zh.group(1)), month, 1), "month") if 1 <= month <= 12 else None
        parsed = _parse(phrase, today)
        return (parsed[0], "month") if parsed else None
    if kind == "zh_year":
        return date(int(m.group(1)), 1, 1), "year"
    if kind == "month_which":
        return _latest_month(_month_number(m.group(2)), today, before=True), "month"
    if kind == "month_bare":
        return _latest_month(_month_number(m.group(1)), today, before=False), "month"
    if kind == "zh_month":
        month = int(m.group(1))
        return (_latest_month(month, today, before=False), "month") if 1 <= month <= 12 else None
    if kind == "year":
        return date(int(m.group(1) or m.group(2)), 1, 1), "year"
    if kind == "ago":
        count = m.group(1).lower()
        n = int(count) if count.isdigit() else _NUM_WORDS.get(re.sub(r"\s+", " ", count), 1)
        unit = _AGO_UNITS[m.group(2).lower().rstrip("s")]
        parsed = _parse(f"{n} {unit}s ago", today)
        return (parsed[0], unit) if parsed else None
    if kind == "zh_ago":
        zh_n = zh_number(m.group(1))
        if zh_n is None:
            return None
        n = zh_n
        g = m.group(2)
        zh_unit: Unit = (
            "day" if g == "天" else "month" if "月" in g else "year" if g == "年" else "week"
        )
        parsed = _parse(f"{n} {zh_unit}s ago", today)
        return (parsed[0], zh_unit) if parsed else None
    # relative phrases, English and Chinese: dateparser knows them ("last week", "上个月")
    text = {"tonight": "today", "last night": "yesterday", "the past weekend": "last weekend",
            "上周末": "last weekend", "上星期": "上周", "上个星期": "上周"}.get(
        phrase.lower(), phrase
    )  # fmt: skip
    if text.lower().endswith("weekend"):
        parsed = _parse(text.lower().replace("weekend", "week"), today)
        return (parsed[0], "weekend") if parsed else None
    parsed = _parse(text, today)
    if parsed is None:
        return None
    day, unit = parsed
    return day, unit


# A question about what is coming takes the coming month or day, not last year's (tester
# hbreak5 F38: "What am I doing on December 20?" asked on 2026-12-07 read 2025-12-20).
_YEARLESS = ("day", "month_bare", "zh_month")
_AHEAD = re.compile(
    r"\b(?:will|going\s+to|planned|planning|plans?|scheduled|upcoming|coming\s+up|am\s+i\s+doing|"
    r"do\s+i\s+have|anything\s+(?:on|in|for))\b|打算|计划|安排|要去",
    re.IGNORECASE,
)
_BACK = re.compile(r"\b(?:did|was|were|went|had|ago|last)\b|了|过", re.IGNORECASE)


def _asks_ahead(query: str, phrase: str) -> bool:
    return (
        not re.search(r"\d{4}", phrase) and bool(_AHEAD.search(query)) and not _BACK.search(query)
    )


def _coming(day: date, today: date, unit: Unit) -> date:
    """``day`` (read as the latest one) moved a year on when it lies before today's day or
    month: the coming one."""
    first = today.replace(day=1) if unit == "month" else today
    return day.replace(year=day.year + 1) if day < first else day


def find_time_hint(query: str, now: datetime, tz: str | tzinfo = "UTC") -> TimeHint | None:
    """The first time phrase of ``query`` that resolves, as a window in zone ``tz`` around
    ``now`` (aware); None when the query names no time. Read in simplified characters
    (下週三 as 下周三: app.core.chinese_script); the phrase is given as written."""
    written, query = query, simplified(query)
    zone = ZoneInfo(tz) if isinstance(tz, str) else tz
    local = now.astimezone(zone)
    today = local.date()
    spans: list[tuple[int, int, str, re.Match[str]]] = []
    for kind, pattern in _PATTERNS:
        for m in pattern.finditer(query):
            if not any(m.start() < e and s < m.end() for s, e, _, _ in spans):
                spans.append((m.start(), m.end(), kind, m))
    if any(kind in _DATED for _, _, kind, _ in spans):
        # "last Friday on 23 January, 2022", "the Sunday before October 25, 2022": the date
        # written out says the time; the weekday only places it.
        spans = [s for s in spans if s[2] not in time_ahead.WEEKDAYS]
    for _, _, kind, m in sorted(spans, key=lambda s: s[0]):
        try:
            if kind == "around":
                span = _around(m, today)
            elif kind == holidays.KIND:
                day = holidays.day(m.group(0), today, _asks_ahead(query, m.group(0)))
                span = (*_window(day, "day"), "day") if day else None
            elif kind in time_ahead.KINDS:
                ahead = time_ahead.resolve(kind, m, query, local)
                span = (*_window(*ahead), ahead[1]) if ahead else None
            else:
                point = _resolve(kind, m, today)
                if point and kind in _YEARLESS and _asks_ahead(query, m.group(0)):
                    point = (_coming(point[0], today, point[1]), point[1])
                span = (*_window(*point), point[1]) if point else None
        except (ValueError, OverflowError, StopIteration):
            span = None
        if span is None:
            continue
        first, after, unit = span
        return TimeHint(
            phrase=written[m.start() : m.end()].strip(),
            start=datetime.combine(first, time(0, 0), tzinfo=zone),
            end=datetime.combine(after, time(0, 0), tzinfo=zone),
            unit=unit,
        )
    return None


def day_words(hint: TimeHint | None) -> str:
    """Keyword text for a query's one-day time window: the day as the keyword index holds a
    date written out (2025-12-24 → 20251224, app.core.text.tokenize), so that "What did I do
    on Christmas Eve?" shares a word with "On 2025-12-24 the user baked cookies." (tester
    H9); "" for no window or a longer one."""
    if hint is None or hint.unit != "day":
        return ""
    return " " + hint.start.strftime("%Y%m%d")


def query_zone(timezone: str | None, now: datetime | None) -> tzinfo:
    """The zone a recall's time phrases are read in: its ``timezone``, else the offset of its
    ``now``, else UTC."""
    if timezone:
        return ZoneInfo(timezone)
    if now is not None and now.tzinfo is not None:
        return now.tzinfo
    return UTC

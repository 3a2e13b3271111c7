"""Relative time phrases → absolute dates, in the conversation's own time zone.

``dateparser`` (1.5) resolves "tomorrow", "in 3 days", "December 3", "明天", "后天", "3天后"
against a base date, but not "下周五" / "本周六" / "12月3日", and it reads "next Friday" as
the coming Friday. So weekday phrases in both languages, Chinese week/month words and
Chinese month-day dates are small rules here, and dateparser does the rest.

Conventions (weeks start on Monday, as in ISO 8601 and Chinese usage):

- "next Friday" / "下周五" / "下星期五": the Friday of next week;
- "this Friday" / "本周五" / "这周五": the Friday of this week — once that day has passed,
  the coming Friday, unless the sentence is in the past tense;
- "Friday" / "on Friday" / "coming Friday" / "周五": the next Friday after today
  ("周五" said on or before Friday is this week's); in the past tense ("I ran on Friday",
  周五我跑了步; :mod:`app.services.extraction.tense`) the last one, but for the day something
  was moved to ("I moved the dentist to Thursday", 我把牙医改到周四了: the coming one, E25)
  or called off ("The meeting on Friday was called off", 周五的会取消了);
- "every Friday", 每周五, 每个周末 (a habit), "feels like just yesterday" (an idiom): no date;
- 下个月3号: that day; "May 2028" / 2028年5月: that month; "in 2019" / 2019年: that year, and
  "Thursday, December 17" / 12月17日星期四 the written day (:mod:`.written_dates`);
- "last Friday": the most recent Friday before the message's day (said on a Sunday, two days
  back; said on a Friday, a week back), as English speakers use it and LoCoMo's answers read
  it ("the Friday before 22 October 2023"); "上周五" / "上星期五": the Friday of last week, as
  Chinese says it (上周 is the week);
- "next week" / "下周": its Monday; "next month" / "下个月": its first day; "last year" /
  "去年": its 1 January — each :class:`TimeMatch` says its granularity (``unit``), so a
  value reads "in 2022", not "on 2022-01-01";
- "last weekend" / "this past weekend" / "上周末": the Saturday of last week ("this"/"next"
  alike); "two weekends ago": the one before;
- "last Fri", "on Tues", "this past Thurs.": abbreviations after such a word, as the day;
- "the week before last" / 上上周, "the month after next" / 下下个月, 上上周末: two back or
  ahead; 大前天: three days ago; 上周一起… is last week (一起, "together"), not last Monday;
- "3 days ago", "3天前": counted back; "for Christmas", 春节的时候: the holiday (holiday_dates).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta, timezone, tzinfo
from typing import Literal
from zoneinfo import ZoneInfo

import dateparser

from app.core.zh_numbers import zh_number
from app.services.extraction.births import birth_without_year
from app.services.extraction.holiday_dates import holiday_dates
from app.services.extraction.months import months_alone
from app.services.extraction.tense import (
    idiom_spans,
    is_past,
    recurring_spans,
    sentence_around,
    tense_scope,
)
from app.services.extraction.weeks import period_start, weekday_date
from app.services.extraction.written_dates import join_weekdays, years

_EN_DAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
_ZH_DAYS = {"一": 0, "二": 1, "三": 2, "四": 3, "五": 4, "六": 5, "日": 6, "天": 6}

_EN_WEEKDAY = re.compile(
    r"\b(?:(next|this\s+past|this|coming|last|on)\s+)?(" + "|".join(_EN_DAYS) + r")\b",
    re.IGNORECASE,
)
# "last Fri", "on Tues", "next Thurs.": an abbreviation only after a word that makes it a day
# (alone, "sat", "sun" and "wed" are other words).
_EN_DAY_ABBREVIATIONS = {"mon": 0, "tue": 1, "tues": 1, "wed": 2, "thu": 3, "thur": 3,
                         "thurs": 3, "fri": 4, "sat": 5, "sun": 6}  # fmt: skip
_EN_WEEKDAY_ABBREVIATED = re.compile(
    r"\b(next|this\s+past|this|coming|last|on)\s+(mon|tues?|wed|thu(?:rs?)?|fri|sat|sun)\b\.?",
    re.IGNORECASE,
)
# Not "in the last month" (the past 30 days, tester E14: "in the in June 2023") nor "this
# week's been busy" (a subject, not a time: "In the week of …'s been").
_EN_PERIOD = re.compile(
    r"\b(?:(?<!\bthe\s)(next|this|last)\s+(week|month|year)(?!['’]s\b)|the\s+(week|month|year)\s+"
    r"(before\s+last|after\s+next))\b",
    re.IGNORECASE,
)
_EN_WEEKEND = re.compile(
    r"\b(?:(next|this\s+past|this|last|the\s+past)\s+weekend|"
    r"the\s+weekend\s+(before\s+last|after\s+next))\b",
    re.IGNORECASE,
)
_EN_AGO = re.compile(
    r"\b(\d+|a|an|one|two|three|four|five|six|seven|eight|nine|ten|a\s+couple\s+of)\s+"
    r"(days?|weeks?|weekends?|months?|years?)\s+ago\b",
    re.IGNORECASE,
)
_EN_NUMBERS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
               "seven": 7, "eight": 8, "nine": 9, "ten": 10}  # fmt: skip
_EN_RELATIVE = re.compile(
    r"\b(?:the\s+day\s+after\s+tomorrow|the\s+day\s+before\s+yesterday|tomorrow|today|"
    r"tonight|yesterday|last\s+night|this\s+(?:morning|afternoon|evening)|"
    r"in\s+(?:\d+|a|an|one|two|three|four|five|six|seven|ten)\s+(?:days?|weeks?|months?)|"
    r"(?:\d+|a|one|two|three)\s+(?:days?|weeks?)\s+from\s+now)\b",
    re.IGNORECASE,
)
_EN_MONTHS = (
    r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|"
    r"sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)"
)
_EN_MONTH_YEAR = re.compile(rf"\b({_EN_MONTHS})\.?,?\s+(\d{{4}})\b", re.IGNORECASE)
_EN_ABSOLUTE = re.compile(
    rf"\b(?:{_EN_MONTHS}\.?\s+\d{{1,2}}(?:st|nd|rd|th)?(?:,?\s+\d{{4}})?|"
    rf"\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?{_EN_MONTHS}(?:,?\s+\d{{4}})?|"
    r"\d{4}-\d{2}-\d{2})\b",
    re.IGNORECASE,
)
# A weekday's numeral, not the first character of a word: 上周一起去爬山 is "went hiking
# together last week" (一起), not last Monday (tester B26); 这周三天 is three days this week.
_ZH_DAY_NUMERAL = (
    r"(?:一(?!起(?!床|飞)|直|下|样|定|些|般|共|次|切|个|家|同|块|道|边|致|向|再|连|路|整|半|会)"
    r"|[二三四五六](?![个次位名家十百千万]|天(?!气))|[日天])"
)
_ZH_WEEKDAY = re.compile(
    rf"(下下|上上|下个|下一个|下|上个|上|这个|这|本)?(?:周|星期|礼拜)({_ZH_DAY_NUMERAL})"
)
_ZH_PERIOD = re.compile(
    rf"(下下个?|上上个?|下个?|本|这个?|上个?)(周|星期|礼拜|月)(?!{_ZH_DAY_NUMERAL}|末)"
    r"|(明年|今年|去年|前年|后年)"
)
_ZH_WEEKEND = re.compile(r"(下下个?|上上个?|下个?|本|这个?|上个?)?(?:周末|礼拜天)")
_ZH_RELATIVE = re.compile(
    r"大后天|大前天|后天|明天|明早|明晚|今天|今晚|昨天|前天|"
    r"(\d+|[一两二三四五六七八九十]+)(?:天|个?星期|周|个月|年)(?:后|以后|之后|前|以前|之前)"
)
_ZH_MONTH_DAY = re.compile(r"(?:(\d{4})年)?(\d{1,2})月(\d{1,2})[日号]")
# 下个月3号, 这个月15号, 上个月二十号: a day of a month named relatively
_ZH_REL_MONTH_DAY = re.compile(
    r"(下个?|本|这个?|上个?)月(\d{1,2}|[一二三四五六七八九十]{1,3})[日号]"
)
# 2028年5月 (no day), "May 2028", "in March, 2027": a month written out
_ZH_YEAR_MONTH = re.compile(
    r"(?:(\d{4})年|(明年|今年|去年))(\d{1,2}|十[一二]?|[一二三四五六七八九])月"
    r"(?![\d一二三四五六七八九十]{1,3}[日号])"
)  # …and 明年3月: March of next year


_ZH_YEARS = {"后年": 2, "明年": 1, "今年": 0, "去年": -1, "前年": -2}
TimeUnit = Literal["day", "week", "weekend", "month", "year"]
# The units _EN_PERIOD matches (lower-cased), as TimeMatch units.
_EN_PERIOD_UNITS: dict[str, TimeUnit] = {"week": "week", "month": "month", "year": "year"}
# The units of _ZH_RELATIVE's phrases (a count of weeks is resolved to its day).
_ZH_RELATIVE_UNITS: dict[str, TimeUnit] = {"天": "day", "月": "month", "年": "year", "周": "day"}


@dataclass(frozen=True)
class TimeMatch:
    """A time phrase found in a text and the local calendar date it means."""

    start: int
    end: int
    phrase: str
    day: date
    unit: TimeUnit = "day"
    absolute: bool = False  # written as a date ("14 March 2027", "3月14日"), not relative
    holiday: str | None = None  # the holiday it names ("Christmas", 春节; holiday_dates.py)


def _ago_unit(unit: str) -> Literal["day", "month", "year"]:
    return "year" if unit == "year" else "month" if unit == "month" else "day"


def _dateparser_day(phrase: str, base: datetime, languages: list[str]) -> date | None:
    parsed = dateparser.parse(
        phrase,
        languages=languages,
        settings={"RELATIVE_BASE": base, "PREFER_DATES_FROM": "future"},
    )
    return parsed.date() if parsed is not None else None


# The day something was moved to is ahead, whatever the tense ("I moved the dentist to
# Thursday", 我把牙医改到周四了; tester E25: dated the Thursday before).
_EN_MOVED_TO = re.compile(
    r"\b(?:moved|rescheduled|postponed|pushed(?:\s+back)?|changed|switched|brought\s+forward|"
    r"delayed|put\s+off)\b[^.!?]{0,60}?\b(?:to|until|till)\s+(?:the\s+)?$",
    re.IGNORECASE,
)
_ZH_MOVED_TO = re.compile(r"(?:改到|改成|改为|改在|推迟到|延期到|延后到|提前到|换到|挪到)$")
# ... and so is the day of what was called off ("The meeting on Friday was called off").
_CALLED_OFF = re.compile(r"\b(?:cancel(?:l?ed)|called\s+off|scrapped)\b|取消", re.IGNORECASE)


def _said_of_the_past(text: str, start: int, end: int) -> bool:
    """``text[start:end]`` (a day of a month without its year, after "on") is placed by a past
    tense: "My father died on June 3." said in July is this June, not next."""
    if re.search(r"\d{4}", text[start:end]) or not re.search(r"\bon\s+(?:the\s+)?$", text[:start]):
        return False  # "booked a flight for August 3": the flight's day is ahead
    if _EN_MOVED_TO.search(text[:start]) or _CALLED_OFF.search(sentence_around(text, start, end)):
        return False
    blanked = text[:start] + " " * (end - start) + text[end:]
    return is_past(tense_scope(blanked, start, end, zh=False), zh=False)


def _year_before(day: date) -> date:
    try:
        return day.replace(year=day.year - 1)
    except ValueError:  # 29 February
        return day.replace(year=day.year - 1, day=28)


def find_dates(text: str, now_local: datetime) -> list[TimeMatch]:
    """Time phrases in ``text`` resolved against ``now_local`` (the speaker's local time),
    in order of appearance, overlapping matches removed (the earlier, longer one wins)."""
    today = now_local.date()
    base = now_local.replace(tzinfo=None)
    found: list[TimeMatch] = []

    for pattern in (_EN_WEEKDAY, _EN_WEEKDAY_ABBREVIATED):
        for m in pattern.finditer(text):
            name = m.group(2).lower()
            wd = _EN_DAYS.index(name) if name in _EN_DAYS else _EN_DAY_ABBREVIATIONS[name]
            # the tense without the phrase itself: "on Sat." is no past "sat"
            blanked = text[: m.start()] + " " * (m.end() - m.start()) + text[m.end() :]
            sentence = sentence_around(blanked, m.start(), m.end())
            scope = tense_scope(blanked, m.start(), m.end(), zh=False)
            past = is_past(scope, zh=False) and not _CALLED_OFF.search(sentence)
            past = past and not _EN_MOVED_TO.search(text[: m.start()])
            day = weekday_date(today, m.group(1), wd, zh=False, past=past)
            found.append(TimeMatch(m.start(), m.end(), m.group(0), day))
    for m in _EN_MONTH_YEAR.finditer(text):
        month = dateparser.parse(m.group(1), languages=["en"])
        if month is not None:
            day = date(int(m.group(2)), month.month, 1)
            found.append(TimeMatch(m.start(), m.end(), m.group(0), day, "month", absolute=True))
    for m in _EN_PERIOD.finditer(text):
        unit = _EN_PERIOD_UNITS[(m.group(2) or m.group(3)).lower()]
        day = period_start(today, m.group(1) or " ".join(m.group(4).split()), unit)
        found.append(TimeMatch(m.start(), m.end(), m.group(0), day, unit))
    for m in _EN_WEEKEND.finditer(text):
        which = " ".join((m.group(1) or m.group(2)).split())
        which = "last" if which.lower().startswith(("the", "this past")) else which
        day = period_start(today, which, "week") + timedelta(days=5)
        found.append(TimeMatch(m.start(), m.end(), m.group(0), day, "weekend"))
    for m in _EN_AGO.finditer(text):
        count = m.group(1).lower()
        n = int(count) if count.isdigit() else _EN_NUMBERS.get(count, 2)  # "a couple of"
        ago = m.group(2).lower().rstrip("s")
        if ago == "weekend":  # "two weekends ago": the Saturday of the weekend before last
            day = period_start(today, "last", "week") + timedelta(days=5 - 7 * (n - 1))
            found.append(TimeMatch(m.start(), m.end(), m.group(0), day, "weekend"))
            continue
        parsed = _dateparser_day(f"{n} {ago}s ago", base, ["en"])
        if parsed is not None:
            found.append(TimeMatch(m.start(), m.end(), m.group(0), parsed, _ago_unit(ago)))
    for pattern in (_EN_RELATIVE, _EN_ABSOLUTE):
        for m in pattern.finditer(text):
            phrase = "today" if m.group(0).lower() == "tonight" else m.group(0)
            parsed = _dateparser_day(phrase, base, ["en"])
            if parsed is not None:
                absolute = pattern is _EN_ABSOLUTE
                if absolute and parsed > today and _said_of_the_past(text, m.start(), m.end()):
                    parsed = _year_before(parsed)  # "My father died on June 3." (hbreak8 H3)
                found.append(TimeMatch(m.start(), m.end(), m.group(0), parsed, "day", absolute))
    for m in _ZH_WEEKDAY.finditer(text):
        sentence = sentence_around(text, m.start(), m.end())
        scope = tense_scope(text, m.start(), m.end(), zh=True)
        past = is_past(scope, zh=True) and not _CALLED_OFF.search(sentence)
        past = past and not _ZH_MOVED_TO.search(text[: m.start()])
        day = weekday_date(today, m.group(1), _ZH_DAYS[m.group(2)], zh=True, past=past)
        found.append(TimeMatch(m.start(), m.end(), m.group(0), day))
    for m in _ZH_PERIOD.finditer(text):
        if m.group(3):
            year = today.year + _ZH_YEARS[m.group(3)]
            found.append(TimeMatch(m.start(), m.end(), m.group(0), date(year, 1, 1), "year"))
        else:
            which = m.group(1).rstrip("个") if m.group(1) != "这个" else m.group(1)
            day = period_start(today, which, m.group(2))
            unit = "month" if m.group(2) == "月" else "week"
            found.append(TimeMatch(m.start(), m.end(), m.group(0), day, unit))
    for m in _ZH_WEEKEND.finditer(text):
        which = (m.group(1) or "这").rstrip("个") if m.group(1) != "这个" else "这"
        day = period_start(today, which, "周") + timedelta(days=5)
        past = is_past(sentence_around(text, m.start(), m.end()), zh=True)
        if not m.group(1) and day < today and not past:  # bare 周末: the coming one…
            day += timedelta(days=7)  # …unless it is over (周末过得怎么样？ said on Sunday)
        elif not m.group(1) and day > today and past:  # 周末我去爬山了 said on a Wednesday
            day -= timedelta(days=7)
        found.append(TimeMatch(m.start(), m.end(), m.group(0), day, "weekend"))
    for m in _ZH_RELATIVE.finditer(text):
        phrase = m.group(0)
        fixed = {"明早": "明天", "明晚": "明天", "今晚": "今天"}.get(phrase, phrase)
        unit = "day"
        if m.group(1):
            zh_count = zh_number(m.group(1))
            if zh_count is None:
                continue
            zh_unit = next(u for u in ("天", "月", "年", "周") if u in phrase or u == "周")
            unit = _ZH_RELATIVE_UNITS[zh_unit]
            back = "前" in phrase[len(m.group(1)) :]
            fixed = f"{zh_count}{'个月' if zh_unit == '月' else zh_unit}{'前' if back else '后'}"
        relative = _dateparser_day(fixed, base, ["zh"])
        if relative is None and m.group(1):
            weeks_or_days = zh_number(m.group(1)) or 0
            step = (
                timedelta(days=weeks_or_days) if "天" in phrase else timedelta(weeks=weeks_or_days)
            )
            relative = today - step if "前" in phrase else today + step
        if relative is not None:
            found.append(TimeMatch(m.start(), m.end(), phrase, relative, unit))
    for m in _ZH_MONTH_DAY.finditer(text):
        year = int(m.group(1)) if m.group(1) else today.year
        try:
            day = date(year, int(m.group(2)), int(m.group(3)))
        except ValueError:
            continue
        if not m.group(1) and day < today - timedelta(days=31):
            day = day.replace(year=year + 1)
        found.append(TimeMatch(m.start(), m.end(), m.group(0), day, "day", absolute=True))
    for m in _ZH_REL_MONTH_DAY.finditer(text):
        which = m.group(1).rstrip("个") if m.group(1) in ("下个", "上个") else m.group(1)
        first = period_start(today, which, "月")
        number = zh_number(m.group(2))
        try:
            day = first.replace(day=number or 0)
        except ValueError:
            continue
        found.append(TimeMatch(m.start(), m.end(), m.group(0), day))
    for start, end, phrase, first in years(text):  # "in 2019", 2019年 (written_dates.py)
        found.append(TimeMatch(start, end, phrase, first, "year", absolute=True))
    for m in _ZH_YEAR_MONTH.finditer(text):
        year = int(m.group(1)) if m.group(1) else today.year + _ZH_YEARS[m.group(2)]
        number = int(m.group(3)) if m.group(3).isdigit() else zh_number(m.group(3)) or 0
        if 1 <= number <= 12:  # 明年三月 as 明年3月 (tester hbreak5 F12: it was January)
            day = date(year, number, 1)
            found.append(TimeMatch(m.start(), m.end(), m.group(0), day, "month", absolute=True))

    holidays = holiday_dates(text, today)  # "for Christmas", 春节的时候 (holiday_dates.py)
    for start, end, phrase, first in months_alone(text, today):  # "in May", 五月 (months.py)
        found.append(TimeMatch(start, end, phrase, first, "month"))
    found += [TimeMatch(h.start, h.end, h.phrase, h.day, holiday=h.name) for h in holidays]

    # A habit ("every Tuesday", 每周二) and an idiom ("feels like just yesterday") are no date.
    undated = recurring_spans(text) + idiom_spans(text)
    # Nor a birth's month or day said without its year ("I was born in March", 我三月出生;
    # tester G21: "born in March 2026", "born on 2027-03-03"): the year is not known.
    found = [t for t in found if not birth_without_year(text, t.start, t.end, t.phrase)]
    found = join_weekdays(text, found)  # "Thursday, December 17" is one day (written_dates.py)
    found.sort(key=lambda t: (t.start, -(t.end - t.start)))
    kept: list[TimeMatch] = []
    for match in found:
        if kept and match.start < kept[-1].end:
            continue
        if any(match.start < e and s < match.end for s, e in undated):
            continue
        kept.append(match)
    return kept


_FIXED = re.compile(r"^UTC([+-])(\d{2}):(\d{2})$")


def zone(tz: str) -> tzinfo:
    """The zone ``tz`` names: an IANA zone, or a fixed offset "UTC+08:00" (a message's own
    offset, when no IANA zone is known: working memory's ``metadata.utc_offset``)."""
    fixed = _FIXED.match(tz)
    if fixed is None:
        return ZoneInfo(tz)
    minutes = int(fixed.group(2)) * 60 + int(fixed.group(3))
    return timezone(timedelta(minutes=-minutes if fixed.group(1) == "-" else minutes))


def local_now(now: datetime, tz: str) -> datetime:
    """``now`` (aware) as wall-clock time in the zone ``tz`` (:func:`zone`)."""
    return now.astimezone(zone(tz))


def local_midnight(day: date, tz: str) -> datetime:
    """The start of ``day`` in zone ``tz`` (:func:`zone`), as an aware datetime."""
    return datetime.combine(day, time(0, 0), tzinfo=zone(tz))

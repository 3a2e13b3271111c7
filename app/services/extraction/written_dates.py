"""Dates as people write them beyond one phrase, for :func:`.dates.find_dates`:

- a year alone, "in 2019", "back in 2019", 2019年 (tester G4: "I visited Japan in 2019" had no
  date): the year's 1 January at the year's granularity; not a range ("in 2019-2020"), a
  decade (1990年代), a school year (2023年级) nor a year with its month (2028年5月, read
  by ``find_dates`` itself);
- a weekday beside the date it names, "Thursday December 17", "Thursday, 17 December",
  "December 17, Thursday", 12月17日星期四 (tester hbreak7 H4: the weekday was resolved on its
  own, a week early, "2026-12-10 (Thursday) on 2026-12-17"): one phrase, the written date's
  day, labelled with its weekday;
- a weekday with a day of the month, "Thursday the 17th": the 17th nearest the weekday's own
  resolution that falls on that weekday (else the 17th of that month).
"""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import date
from typing import Any, ClassVar, Protocol, TypeVar


class _Match(Protocol):
    """What this module reads of ``dates.TimeMatch`` (a frozen dataclass: ``replace`` makes a
    new one; not imported, so ``dates`` may import this module)."""

    __dataclass_fields__: ClassVar[dict[str, Any]]

    @property
    def start(self) -> int: ...
    @property
    def end(self) -> int: ...
    @property
    def phrase(self) -> str: ...
    @property
    def day(self) -> date: ...
    @property
    def unit(self) -> str: ...
    @property
    def absolute(self) -> bool: ...


TimeMatch = TypeVar("TimeMatch", bound=_Match)

_EN_YEAR = re.compile(r"\b(?:back\s+)?in\s+((?:19|20)\d{2})\b(?!\s*[-–/]\s*\d|'?s\b)", re.I)
_ZH_YEAR = re.compile(r"(?<![\d.])((?:19|20)\d{2})年(?![\d一二三四五六七八九十]{1,2}月|代|级|\d)")
_WEEKDAY = re.compile(
    r"(?:(?:next|this\s+past|this|coming|last|on)\s+)?(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*\.?"
    r"|(?:下下|上上|下个|下一个|下|上个|上|这个|这|本)?(?:周|星期|礼拜)[一二三四五六日天]",
    re.IGNORECASE,
)
_BEFORE_DATE = re.compile(r"\s*,?\s*(?:the\s+)?", re.IGNORECASE)
_AFTER_DATE = re.compile(r"\s*,?\s*")
_ORDINAL = re.compile(r"\s*,?\s*the\s+(\d{1,2})(?:st|nd|rd|th)\b", re.IGNORECASE)


def years(text: str) -> list[tuple[int, int, str, date]]:
    """(start, end, phrase, 1 January) of each year said alone in ``text``; the phrase is the
    year itself ("2019", 2019年), so "in" stays the sentence's own."""
    out = []
    for pattern in (_EN_YEAR, _ZH_YEAR):
        for m in pattern.finditer(text):
            out.append(
                (m.start(1), m.end(), text[m.start(1) : m.end()], date(int(m.group(1)), 1, 1))
            )
    return out


def _is_weekday(match: _Match) -> bool:
    return (
        match.unit == "day" and not match.absolute and _WEEKDAY.fullmatch(match.phrase) is not None
    )


def _written_day(match: _Match) -> bool:
    return match.unit == "day" and match.absolute and not re.search(r"\d{4}-\d{2}", match.phrase)


def _ordinal_day(weekday: date, number: int) -> date | None:
    """The day ``number`` of a month nearest ``weekday`` that falls on its weekday, else the
    day ``number`` of ``weekday``'s month; None when no month near has that day."""
    fallback = None
    for step in (0, 1, -1, 2, -2, 3):
        month = weekday.month - 1 + step
        try:
            day = date(weekday.year + month // 12, month % 12 + 1, number)
        except ValueError:
            continue
        if day.weekday() == weekday.weekday():
            return day
        fallback = fallback or (day if step == 0 else None)
    return fallback


def join_weekdays(text: str, found: list[TimeMatch]) -> list[TimeMatch]:
    """``found`` with each weekday beside a written date (or before "the 17th") made one match
    with it (module docstring); the others as they are."""
    weekdays = [m for m in found if _is_weekday(m)]
    if not weekdays:
        return found
    days = [m for m in found if _written_day(m)]
    out = [m for m in found if m not in weekdays and m not in days]
    used: set[int] = set()
    for w in weekdays:
        joined = None
        for d in days:
            if id(d) in used:
                continue
            if d.start >= w.end and _BEFORE_DATE.fullmatch(text[w.end : d.start]):
                joined = replace(d, start=w.start, phrase=text[w.start : d.end], absolute=False)
            elif w.start >= d.end and _AFTER_DATE.fullmatch(text[d.end : w.start]):
                joined = replace(d, end=w.end, phrase=text[d.start : w.end], absolute=False)
            if joined is not None:
                used.add(id(d))
                break
        if joined is None and (m := _ORDINAL.match(text, w.end)) is not None:
            day = _ordinal_day(w.day, int(m.group(1)))
            if day is not None:
                joined = replace(w, end=m.end(), phrase=text[w.start : m.end()], day=day)
        out.append(joined or w)
    return out + [d for d in days if id(d) not in used]

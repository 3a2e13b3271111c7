"""Holidays named as the time of what a message tells, for :func:`.dates.find_dates`
("We're going to my parents' for Christmas", "Last Christmas I went skiing", 春节的时候我回了
老家; tester hbreak7: such a unit got no time anchor, and "What did I do last Christmas?" could
not find it by its day). The holidays and their dates are :mod:`app.core.holidays`' (the table
recall reads questions with).

A holiday is a time only where the sentence uses it as one: after a preposition, a word that
picks the year or a verb that spends it ("on Christmas Eve", "for Thanksgiving", "over Easter",
"last Christmas", "this Halloween", "celebrated Thanksgiving", "spent Christmas"), with a year
("Christmas 2024", 2024年春节, 去年春节), or in Chinese at the head of a clause or before 的时候
/ 期间 / 那天 (圣诞节我要去北京, 春节期间). Not "I love Christmas",
"Christmas is my favourite holiday", "a Christmas tree", nor a habit ("every Christmas",
每年春节).

Which year: the one said; "last" the latest before the message's day, "next" the coming one,
"this" the message's year; otherwise the sentence's tense decides (:func:`.tense.tense_scope`):
the past, the latest one not after the day; else the coming one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date

from app.core import holidays
from app.services.extraction.tense import is_past, tense_scope

_EN_BEFORE = re.compile(
    r"\b(?:(on|for|at|over|during|before|after|until|till|since|by|around|through|"
    r"celebrated|celebrating|celebrate|spent|spending|spend)\s+)?"
    r"(?:(last|next|this)\s+)?$",
    re.IGNORECASE,
)
_ZH_BEFORE = re.compile(r"(?:在|过|到|等到)$")
_ZH_AFTER = re.compile(r"^(?:的时候|期间|前后|那天|当天|那几天|假期)")
_ZH_CLAUSE_HEAD = re.compile(r"(?:^|[，。！？；,.!?;：:\s])$")
_HABIT = re.compile(r"\b(?:every|each)\s+$|(?:每年|每个|每逢|每次)的?$", re.IGNORECASE)
_YEAR_IN = re.compile(r"(?:19|20)\d{2}|去年|前年|今年|last\s+year|this\s+year", re.IGNORECASE)
_CJK = re.compile(r"[\u4e00-\u9fff]")


@dataclass(frozen=True)
class HolidayDate:
    """A holiday phrase of a text: its span (a year word before it included: "last
    Christmas"), the date it names, and the words that name the holiday ("Christmas Eve",
    春节), for the label written back into the unit."""

    start: int
    end: int
    phrase: str
    day: date
    name: str


def holiday_dates(text: str, today: date) -> list[HolidayDate]:
    """The holidays ``text`` uses as the time of what it tells, resolved against ``today``
    (the message's local day); see the module's docstring for which and which year."""
    found = []
    for m in holidays.PATTERN.finditer(text):
        phrase, head = m.group(0), text[: m.start()]
        if _HABIT.search(head):
            continue
        zh = bool(_CJK.search(phrase))
        start, which = m.start(), ""
        if zh:
            used = (
                _ZH_BEFORE.search(head)
                or _ZH_AFTER.match(text[m.end() :])
                or _ZH_CLAUSE_HEAD.search(head)
                or _YEAR_IN.search(phrase)
            )
            if not used:
                continue
        else:
            before = _EN_BEFORE.search(head)
            said = before is not None and (before.group(1) or before.group(2))
            if not said and not _YEAR_IN.search(phrase):
                continue
            if before is not None and before.group(2):
                which, start = before.group(2).lower(), before.start(2)
        day = _resolve(text, phrase, start, m.end(), which, today, zh=zh)
        if day is not None:
            found.append(HolidayDate(start, m.end(), text[start : m.end()], day, _name(phrase)))
    return found


def _resolve(
    text: str, phrase: str, start: int, end: int, which: str, today: date, *, zh: bool
) -> date | None:
    if _YEAR_IN.search(phrase):
        return holidays.day(phrase, today, ahead=False)
    if which == "this":
        return holidays.day(f"{phrase} {today.year}", today, ahead=False)
    if which in ("last", "next"):
        return holidays.day(phrase, today, ahead=which == "next")
    past = is_past(tense_scope(text, start, end, zh=zh), zh=zh)
    return holidays.day(phrase, today, ahead=not past)


_YEAR_WORDS = re.compile(
    r"^(?:(?:19|20)\d{2}年|(?:去年|前年|今年)的?|(?:last|this)\s+year['’]s\s+)|,?\s+(?:19|20)\d{2}$",
    re.IGNORECASE,
)


def _name(phrase: str) -> str:
    """The holiday's words without the year said with them: "Christmas Eve 2024" →
    "Christmas Eve", 去年春节 → 春节."""
    return _YEAR_WORDS.sub("", phrase).strip()

"""A month named without its year or day ("moving to Denver in May", "since March", "next
June", 五月要搬家): the first day of the month meant, for the date rules of
:mod:`app.services.extraction.dates` (which resolve "May 2028", "May 3" and 2028年5月).

Which May: the one the sentence's tense points at — the coming one for a plan or the present
("I'm moving in May" said in December: next year's May; said in May: this month), the last
one for the past ("We met in May" said in December: this year's); "next May" is the first
after this month, "last May" the last before it, "this May" this year's.
"""

from __future__ import annotations

import re
from datetime import date

from app.core.zh_numbers import zh_number
from app.services.extraction.tense import is_past, tense_scope

_EN_NAMES = (
    "January", "February", "March", "April", "May", "June", "July", "August", "September",
    "October", "November", "December",
)  # fmt: skip
# Capitalised and after a word that makes it a time ("in May", not "May I…" nor "Mark"),
# never before a day or a year (those are full dates, resolved in dates.py).
_EN_AFTER = ("in", "by", "until", "till", "since", "during", "through", "early", "late",
             "mid", "next", "last", "this", "of", "before", "after", "around")  # fmt: skip
_EN_MONTH = re.compile(
    r"\b(" + "|".join(rf"(?:{w}|{w.capitalize()})" for w in _EN_AFTER) + r")[\s-]+"
    r"(?:(?:early|late|mid)[\s-]+)?"
    rf"({'|'.join(_EN_NAMES)})\b(?![\s,]*\d)(?!['’]s\b)"
)
# 五月, 5月, 五月份, 五月底: not 5月3号 (a day), 2028年5月 / 明年5月 (dates.py), 下个月,
# 三个月 (a count), 每月 (every month).
_ZH_MONTH = re.compile(
    r"(?<![年个\d一二三四五六七八九十每上下本这])"
    r"(\d{1,2}|十[一二]?|[一二三四五六七八九])月(?:份)?(?![\d一二三四五六七八九十]{1,3}[日号]|\d)"
)


def _which(today: date, month: int, which: str, past: bool) -> date:
    this = date(today.year, month, 1)
    if which == "next":
        return this if month > today.month else date(today.year + 1, month, 1)
    if which == "last":
        return this if month < today.month else date(today.year - 1, month, 1)
    if which == "this":
        return this
    if past:
        return this if month <= today.month else date(today.year - 1, month, 1)
    return this if month >= today.month else date(today.year + 1, month, 1)


def months_alone(text: str, today: date) -> list[tuple[int, int, str, date]]:
    """(start, end, phrase, first day) of each month named alone in ``text`` (module
    docstring); the phrase is the month's name (and 份), with "next", "last" or "this"
    before it but no other word ("in early March": "March")."""
    out: list[tuple[int, int, str, date]] = []
    for m in _EN_MONTH.finditer(text):
        month = _EN_NAMES.index(m.group(2)) + 1
        which = m.group(1).lower()
        scope = tense_scope(text, m.start(), m.end(), zh=False)
        past = which == "since" or is_past(scope, zh=False)
        day = _which(today, month, which, past)
        start = m.start(1) if which in ("next", "last", "this") else m.start(2)  # "next May"
        out.append((start, m.end(2), text[start : m.end(2)], day))
    for m in _ZH_MONTH.finditer(text):
        number = zh_number(m.group(1)) if not m.group(1).isdigit() else int(m.group(1))
        if number is None or not 1 <= number <= 12:
            continue
        past = is_past(tense_scope(text, m.start(), m.end(), zh=True), zh=True)
        out.append((m.start(), m.end(), m.group(0), _which(today, number, "", past)))
    return out

"""Holiday names as time phrases of a recall query (tester H9: "What did I do on Christmas
Eve?" named no time; ``dateparser`` does not read holiday names). A small table, no holiday
package: the fixed-date holidays people name in English and Chinese (Christmas Eve: December
24; New Year's Eve, Valentine's Day, Halloween, Independence Day, 平安夜, 圣诞节, 元旦, 情人节,
国庆节, 劳动节, 万圣节…), two movable ones computed (Easter: the Gregorian computus,
:func:`easter`; Thanksgiving: the fourth Thursday of November, as in the US), and the lunar
new year (春节, 除夕 the day before it, Chinese New Year) from :data:`LUNAR_NEW_YEAR` for the
years it lists. Other lunar holidays (中秋节, 端午节) are not read: no lunar calendar is a
dependency.

A holiday without a year is the latest one not after today (questions ask about the past),
or the coming one when the question asks what is coming (app.services.recall.time_hint);
"Christmas Eve 2024", "2024年春节", "last year's Christmas" and 去年圣诞节 that year's.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date, timedelta

KIND = "holiday"


def _fixed(month: int, day: int) -> Callable[[int], date | None]:
    return lambda year: date(year, month, day)


def easter(year: int) -> date:
    """Western Easter Sunday of ``year`` (the anonymous Gregorian computus, Meeus/Jones/
    Butcher)."""
    a, b, c = year % 19, year // 100, year % 100
    d, e = divmod(b, 4)
    g = (b - (b + 8) // 25 + 1) // 3
    h = (19 * a + b - d - g + 15) % 30
    i, k = divmod(c, 4)
    leap = (32 + 2 * e + 2 * i - h - k) % 7
    m = (a + 11 * h + 22 * leap) // 451
    month, day = divmod(h + leap - 7 * m + 114, 31)
    return date(year, month, day + 1)


def _thanksgiving(year: int) -> date:
    first = date(year, 11, 1)
    return first + timedelta(days=(3 - first.weekday()) % 7 + 21)


# The Gregorian date of the lunar new year (春节), 2010-2035 (Hong Kong Observatory tables).
LUNAR_NEW_YEAR = {
    2010: (2, 14), 2011: (2, 3), 2012: (1, 23), 2013: (2, 10), 2014: (1, 31), 2015: (2, 19),
    2016: (2, 8), 2017: (1, 28), 2018: (2, 16), 2019: (2, 5), 2020: (1, 25), 2021: (2, 12),
    2022: (2, 1), 2023: (1, 22), 2024: (2, 10), 2025: (1, 29), 2026: (2, 17), 2027: (2, 6),
    2028: (1, 26), 2029: (2, 13), 2030: (2, 3), 2031: (1, 23), 2032: (2, 11), 2033: (1, 31),
    2034: (2, 19), 2035: (2, 8),
}  # fmt: skip


def _lunar_new_year(year: int, shift: int = 0) -> date | None:
    md = LUNAR_NEW_YEAR.get(year)
    return date(year, *md) + timedelta(days=shift) if md else None


# name pattern → the holiday's date in a year (None: not known that year)
_HOLIDAYS: list[tuple[str, Callable[[int], date | None]]] = [
    (r"christmas\s+eve|xmas\s+eve|平安夜", _fixed(12, 24)),
    (r"christmas(?:\s+day)?|xmas|圣诞节?", _fixed(12, 25)),
    (r"boxing\s+day", _fixed(12, 26)),
    (r"new\s+year['’]?s\s+eve|跨年夜", _fixed(12, 31)),
    (r"new\s+year['’]?s(?:\s+day)?|元旦", _fixed(1, 1)),
    (r"valentine['’]?s(?:\s+day)?|情人节", _fixed(2, 14)),
    (r"st\.?\s+patrick['’]?s\s+day|saint\s+patrick['’]?s\s+day", _fixed(3, 17)),
    (r"april\s+fools['’]?\s+day|愚人节", _fixed(4, 1)),
    (r"independence\s+day|the\s+fourth\s+of\s+july", _fixed(7, 4)),
    (r"halloween|万圣节", _fixed(10, 31)),
    (r"国庆节?", _fixed(10, 1)),
    (r"劳动节", _fixed(5, 1)),
    (r"easter(?:\s+sunday)?|复活节", easter),
    (r"thanksgiving(?:\s+day)?|感恩节", _thanksgiving),
    (r"除夕|chinese\s+new\s+year['’]?s\s+eve|lunar\s+new\s+year['’]?s\s+eve",
     lambda y: _lunar_new_year(y + 1, -1)),
    (r"春节|chinese\s+new\s+year|lunar\s+new\s+year|大年初一", _lunar_new_year),
]  # fmt: skip
# A year said before the name: last year's Christmas, 去年(的)春节.
_BEFORE = {"去年": -1, "前年": -2, "今年": 0, "last year": -1, "this year": 0}
_YEAR_BEFORE = r"(?:去年|前年|今年)的?|(?:last|this)\s+year['’]s\s+"
_NAMES = "|".join(f"(?:{p})" for p, _ in _HOLIDAYS)
PATTERN = re.compile(
    rf"(?i)(?<![a-z0-9'’])(?:(?:19|20)\d{{2}}年|{_YEAR_BEFORE})?(?:{_NAMES})(?![a-z0-9])(?:,?\s+(?:19|20)\d{{2}}\b)?"
)
_COMPILED = [(re.compile(rf"(?i)(?:{p})"), f) for p, f in _HOLIDAYS]


def day(phrase: str, today: date, ahead: bool) -> date | None:
    """The date a holiday phrase names: that year's when it says one ("Christmas Eve 2024",
    2024年春节), else the latest not after ``today`` or, ``ahead``, the first not before it;
    None when the phrase names no holiday this module knows (or not for that year)."""
    year_m = re.search(r"(?:19|20)\d{2}", phrase)
    before = re.match(_YEAR_BEFORE, phrase, re.IGNORECASE)
    name = phrase[before.end() if before else 0 :]
    name = re.sub(r"(?:19|20)\d{2}年?|,", "", name).strip().replace("’", "'")
    when = next((f for p, f in _COMPILED if p.fullmatch(name)), None)
    if when is None:
        return None
    if year_m:
        return when(int(year_m.group(0)))
    if before:
        said = re.sub(r"['’]s\s*$|的$", "", before.group(0).lower().strip())
        return when(today.year + _BEFORE[re.sub(r"\s+", " ", said)])
    years = (today.year, today.year + 1) if ahead else (today.year, today.year - 1)
    for year in years:
        found = when(year)
        if found is not None and (found >= today if ahead else found <= today):
            return found
    return None

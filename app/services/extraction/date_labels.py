"""Resolved time phrases written back into a unit's words: "next Friday" → "on 2026-12-11
(Friday)", 下周五 → 2026年12月11日（周五）, "last year" → "in 2025", a yearly day without its year
("my birthday is March 3" → "on March 3"), a holiday with its year and day ("last Christmas" →
"at Christmas 2025 (2025-12-25)", 春节 → 2027年春节（2月6日）)."""

from __future__ import annotations

import re

from app.services.extraction.dates import TimeMatch

EN_WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
ZH_WEEKDAYS = ["周一", "周二", "周三", "周四", "周五", "周六", "周日"]
_EN_MONTHS = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
]


def date_label(when: TimeMatch, *, zh: bool, after_preposition: bool = False) -> str:
    """The absolute form of a resolved time phrase, at its own granularity: a day ("on
    2026-12-04 (Friday)", "2026年12月4日（周五）"; a date written out keeps no weekday: "on
    2027-03-14"), a week, a month or a year."""
    day = when.day
    if when.holiday is not None:  # "Christmas 2026 (2026-12-25)", 2026年圣诞节（12月25日）
        if zh:
            return f"{day.year}年{when.holiday}（{day.month}月{day.day}日）"
        label = f"{when.holiday} {day.year} ({day.isoformat()})"
        # "Last Christmas I went…" → "At Christmas 2025 (…) the user went…"; "for Christmas"
        # and "celebrated Christmas" keep their own word before it
        said_year = re.match(r"(?:last|next|this)\s", when.phrase, re.IGNORECASE)
        return "at " + label if said_year and not after_preposition else label
    # A date written out needs no weekday; a relative one ("next Friday") keeps it.
    if zh:
        weekday = "" if when.absolute else f"（{ZH_WEEKDAYS[day.weekday()]}）"
        return {
            "day": f"{day.year}年{day.month}月{day.day}日{weekday}",
            "week": f"{day.year}年{day.month}月{day.day}日那一周",
            "weekend": f"{day.year}年{day.month}月{day.day}日那个周末",
            "month": f"{day.year}年{day.month}月",
            "year": f"{day.year}年",
        }[when.unit]
    if when.unit == "day":
        label = day.isoformat() + ("" if when.absolute else f" ({EN_WEEKDAYS[day.weekday()]})")
        return label if after_preposition else "on " + label
    label = {
        "week": f"in the week of {day.isoformat()}",
        "weekend": f"on the weekend of {day.isoformat()}",
        "month": f"in {_EN_MONTHS[day.month - 1]} {day.year}",
        "year": f"in {day.year}",
    }[when.unit]
    # "since last year" → "since 2022", not "since in 2022"
    return label.split(" ", 1)[1] if after_preposition else label


# A day that comes back every year: its date is said without one (tester E6: "Anna's birthday
# is on March 3." was "on 2027-03-03", wrong from 2028 on).
_YEARLY = re.compile(
    r"\b(?:birthday|anniversary)\s+(?:is|falls)\b|(?:生日|纪念日)是", re.IGNORECASE
)


def _yearly_label(when: TimeMatch, *, zh: bool, after_preposition: bool) -> str:
    """ "on March 3" / 3月3日: a yearly day without its year."""
    day = when.day
    if zh:
        return f"{day.month}月{day.day}日"
    label = f"{_EN_MONTHS[day.month - 1]} {day.day}"
    return label if after_preposition else "on " + label


def resolve_dates(text: str, dates: list[TimeMatch], *, zh: bool) -> str:
    """``text`` with each resolved phrase of ``dates`` replaced by its :func:`date_label`."""
    out: list[str] = []
    last = 0
    yearly = _YEARLY.search(text) is not None
    for when in dates:
        prefix = text[last : when.start]
        after = re.search(  # "to on Thursday" (tester E3): no "on" after a preposition
            r"\b(?:on|by|until|till|before|after|since|for|from|through|to|of|early|late|mid|"
            r"over|during|at|around)[\s-]*$",
            prefix,
            re.IGNORECASE,
        )
        if not zh and when.unit != "day":  # "in last year" → "in 2022", not "in in 2022"
            prefix = re.sub(r"\b(?:in|on|during)\s*$", "", prefix, flags=re.IGNORECASE)
        label = date_label(when, zh=zh, after_preposition=after is not None)
        if (
            yearly
            and when.absolute
            and when.unit == "day"
            and not re.search(r"\d{4}|年", when.phrase)
        ):
            label = _yearly_label(when, zh=zh, after_preposition=after is not None)
        if not zh and re.search(r"(?:^|[.!?]\s+)$", "".join(out) + prefix):
            label = label[:1].upper() + label[1:]  # "Last week was…" → "In the week of…"
        out += [prefix, label]
        last = when.end
    out.append(text[last:])
    return "".join(out)

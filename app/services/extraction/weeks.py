"""Weekdays and periods named relatively ("next Friday", 上周五, "last month", 下个月), as
days: the conventions are :mod:`.dates`' (weeks start on Monday)."""

from __future__ import annotations

from datetime import date, timedelta


def _monday(d: date) -> date:
    return d - timedelta(days=d.weekday())


def weekday_date(
    today: date, which: str | None, weekday: int, *, zh: bool, past: bool = False
) -> date:
    """The day a weekday phrase names, said on ``today``: ``which`` is the word before the
    weekday ("next", "last", "this", "this past", "on", 下, 上, 本, 这, 下下, 上上; None:
    bare), ``weekday`` 0-6 from Monday; ``past``: the sentence is in the past tense (the
    conventions of :mod:`.dates`)."""
    which = " ".join((which or "").lower().split())
    this_week = _monday(today) + timedelta(days=weekday)
    if which in ("next", "下", "下个", "下一个"):
        return this_week + timedelta(days=7)
    if which in ("下下",):
        return this_week + timedelta(days=14)
    if which in ("上上",):
        return this_week - timedelta(days=14)
    if which in ("last", "this past"):  # the most recent one before today
        return today - timedelta(days=(today.weekday() - weekday) % 7 or 7)
    if which in ("上", "上个"):
        return this_week - timedelta(days=7)
    if which in ("this", "本", "这", "这个"):
        # "I have an exam this Saturday" said on a Sunday: the week's Saturday has passed, so
        # a sentence not in the past tense means the coming one (tester B25: dated two days
        # back); "I ran this Monday" said on a Wednesday stays this week's.
        return this_week if past or this_week >= today else this_week + timedelta(days=7)
    if past and which in ("", "on"):  # "I ran on Saturday", 周六我跑了步: the last one
        if zh and this_week <= today:
            return this_week
        return today - timedelta(days=(today.weekday() - weekday) % 7 or 7)
    if zh:  # bare 周五: this week's unless already past
        return this_week if this_week >= today else this_week + timedelta(days=7)
    # bare / on / coming Friday: the next one after today
    ahead = (weekday - today.weekday()) % 7 or 7
    return today + timedelta(days=ahead)


def period_start(today: date, which: str, unit: str) -> date:
    """The first day of the week, month or year ``unit`` (English or Chinese) that ``which``
    ("next", "this", "last", "before last", "after next", 下, 本, 上, 下下, 上上) names from
    ``today``: a week's Monday, a month's 1st, a year's 1 January."""
    step = {"next": 1, "下": 1, "下个": 1, "this": 0, "本": 0, "这": 0, "这个": 0,
            "last": -1, "上": -1, "上个": -1, "下下": 2, "上上": -2,
            "before last": -2, "after next": 2}[which.lower()]  # fmt: skip
    if unit in ("week", "周", "星期", "礼拜"):
        return _monday(today) + timedelta(days=7 * step)
    if unit in ("month", "月"):
        month = today.month - 1 + step
        return date(today.year + month // 12, month % 12 + 1, 1)
    return date(today.year + step, 1, 1)

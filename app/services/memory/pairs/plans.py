"""One event of a kind a person may have many of — "a dentist appointment", "a meeting with
Bob", 有牙医预约 — and the words that move one to another day ("moved to", "rescheduled",
"postponed", "instead", 改到, 推迟) (tester C29). Read by the referents guard
(:func:`.referents.apart`): two such events on other days with no word of change may both
hold (``unsure``); with one, the new day replaces the old (``contradicts``); an event called
off ("cancelled", "called off", 取消) ends the one it names (``contradicts``, tester E25).
A trip is an event of its place ("going to Rome in May", "the Rome trip", 去罗马, 罗马之行:
``trip:rome``, tester G31), and a day of the month or a month without a year ("on the 12th",
"to the 18th", "in May", 12号, 五月) is a day a plan moves from or to. English and Chinese, by
patterns. Pure."""

from __future__ import annotations

import re
from typing import Literal

import rjieba

# The kinds of event a person has many of, after an indefinite article (English) or 有
# (Chinese), with the word before the kind ("dentist appointment", 牙医预约).
_EVENT_EN = (r"appointment|meeting|interview|exam|class|lesson|session|check-?up|call|party|"
             r"reservation|surgery|haircut|shift|flight|trip|dinner|lunch|wedding|show|"
             r"performance|concert|recital|race|triathlon|marathon|tournament|"
             r"conference")  # fmt: skip
_EVENT_ZH = (
    r"预约|会议|面试|考试|课|检查|手术|聚会|约会|航班|饭局|婚礼|表演|演出|音乐会|演唱会|比赛|讲座"
)
_ONE_OF_MANY = re.compile(
    rf"\b(?:a|an|another)\s+(?:[\w'’-]+\s+){{0,2}}?({_EVENT_EN})s?\b"
    rf"|有(?:个|一个|一次|一场)?[^，。,的]{{0,6}}?({_EVENT_ZH})",
    re.IGNORECASE,
)
# The same kinds with any determiner, and the word before them ("the dentist appointment").
_KIND = re.compile(
    rf"(?:([a-z][\w'’-]*)\s+)?\b({_EVENT_EN})s?\b|([\u4e00-\u9fff]{{0,2}})({_EVENT_ZH})",
    re.IGNORECASE,
)
CHANGE = re.compile(
    r"\b(?:moved|rescheduled|postponed|pushed|bumped|brought\s+forward|delayed|changed|instead|"
    r"put\s+off)\b|改到|改成|改为|改在|改期|推迟|延期|提前到|延后|换到",
    re.IGNORECASE,
)
# An event called off (tester E25: "My dentist appointment got cancelled.", 周五的会取消了 left
# the appointment active).
CALLED_OFF = re.compile(
    r"\b(?:cancel(?:l?ed|s|ling)?|called\s+off|calls?\s+off|scrapped|is\s+off|are\s+off|"
    r"(?:won't|will\s+not)\s+(?:happen|take\s+place)|pulled\s+out\s+of|withdrew\s+from)\b|"
    r"取消|不开了|黄了|泡汤|退赛",
    re.IGNORECASE,
)
# 开会 / 的会 (before a change) are a meeting: 会 alone is mostly "will".
_ZH_MEETING = re.compile(r"开会|会议|的会(?=[^，。,]{0,3}(?:取消|改|推迟|延期|不开|黄|泡汤))")
_DETERMINERS = frozenset("a an the another my his her their our your user's".split())
# Capitalised words that are no name: days, months, a sentence's first word.
_NOT_NAMES = frozenset(
    """the a an monday tuesday wednesday thursday friday saturday sunday january february march
    april may june july august september october november december""".split()
)


# A trip and its place (tester G31: "I cancelled my Rome trip" left "The user is going to Rome
# in May" current). The place is capitalised (English) or tagged ``ns`` by jieba (Chinese); a
# plan to go ("going to", "will fly to", "is visiting") — not "went to", 去过: a past visit.
_PLACE = r"((?:[A-Z][a-z'’-]+)(?:\s+[A-Z][a-z'’-]+)?)"
_TRIP_EN = re.compile(
    rf"\b(?:trip|travel|vacation|holiday|journey|getaway|visit)s?\s+to\s+{_PLACE}|"
    rf"{_PLACE}\s+(?:trip|vacation|holiday|getaway|visit)\b|"
    rf"\b(?:going|go|goes|travel(?:l?ing|s)?|fly(?:ing)?|flies|heading|head)\s+(?:back\s+)?to\s+"
    rf"{_PLACE}|\bvisit(?:ing|s)?\s+{_PLACE}"
)
_TO_ZH = frozenset({"去", "飞", "前往", "飞往", "到"})
_TRIP_ZH = frozenset({"之行", "旅行", "旅游", "行程", "出差", "度假"})
# A day of the month and a month without its year, which canonical forms leave as numbers.
_DAY_OF_MONTH = re.compile(r"\bthe\s+(\d{1,2})(?:st|nd|rd|th)\b|(?<![\d月])(\d{1,2})\s*[号日]")
_MONTHS_EN = "January February March April May June July August September October November December"
_MONTH_EN = re.compile(r"\b(" + "|".join(_MONTHS_EN.split()) + r")\b")
_MONTH_ZH = re.compile(r"(十[一二]|[一二三四五六七八九十]|1[0-2]|[1-9])月(?!\d{1,2}[号日])")
_ZH_NUM = {c: k for k, c in enumerate("一二三四五六七八九十", start=1)} | {"十一": 11, "十二": 12}


def changed(
    new: str, old: str, new_days: frozenset[str], old_days: frozenset[str]
) -> tuple[Literal["contradicts", "unsure"], str] | None:
    """The old statement's event moved (:func:`moved`: ``contradicts``, ``event_moved``),
    called off (:func:`called_off`: ``contradicts``, ``event_cancelled``) or moved to a day
    from none (:func:`moved_to_a_day`: ``unsure``, ``event_moved_undated``, flagged); else
    None. ``*_days``: each statement's days (canonical values)."""
    if moved(new, old, new_days, old_days):
        return "contradicts", "event_moved"
    if called_off(new, old, new_days, old_days):
        return "contradicts", "event_cancelled"
    if moved_to_a_day(new, old, new_days, old_days):
        return "unsure", "event_moved_undated"
    return None


def another_one(new: str, old: str) -> bool:
    """Both statements have one event of the same kind ("a dentist appointment", 有牙医预约)
    and the new one says no word of change: on other days, both may hold."""
    return CHANGE.search(new) is None and bool(_one_of_many(new) & _one_of_many(old))


def moved(new: str, old: str, new_days: frozenset[str], old_days: frozenset[str]) -> bool:
    """The new statement moves the old one's event ("The user's dentist appointment was
    moved to 20 June." / "The user has a dentist appointment on 10 January."; 改到, 推迟) to
    a day the old one does not name: the same kind of event, the same names, a word of
    change. ``*_days``: each statement's days (canonical values)."""
    new_days, old_days = new_days | _loose_days(new), old_days | _loose_days(old)
    if not (new_days and old_days and new_days - old_days) or CHANGE.search(new) is None:
        return False
    return _names(new) == _names(old) and _same_kind(_kinds(new), _kinds(old))


def moved_to_a_day(new: str, old: str, new_days: frozenset[str], old_days: frozenset[str]) -> bool:
    """As :func:`moved`, but the old statement gives no day ("has cataract surgery next month"
    / 手术改到明年一月了): the new day may replace it or tell it first — flagged, not superseded."""
    if old_days | _loose_days(old) or not new_days | _loose_days(new) or not CHANGE.search(new):
        return False
    return _names(new) == _names(old) and _same_kind(_kinds(new), _kinds(old))


def called_off(new: str, old: str, new_days: frozenset[str], old_days: frozenset[str]) -> bool:
    """The new statement calls off the old one's event ("The user's dentist appointment got
    cancelled." / "The user has a dentist appointment on 2026-12-11 (Friday) at 3pm."; 周五的会
    取消了 / 周五要开会): the same kind of event, no name the old one does not give, no other
    day, a word of cancelling in the new statement and none in the old."""
    if CALLED_OFF.search(new) is None or CALLED_OFF.search(old) is not None:
        return False
    new_days, old_days = new_days | _loose_days(new), old_days | _loose_days(old)
    if new_days and old_days and not new_days & old_days:
        return False
    return _names(new) <= _names(old) and _same_kind(_kinds(new), _kinds(old))


def _same_kind(new: frozenset[str], old: frozenset[str]) -> bool:
    """One event named by both, or the new statement's bare kind ("the triathlon") the head of
    the old one's ("a sprint triathlon")."""
    return bool(new & old) or any(o.rsplit(" ", 1)[-1] in new for o in old)


def _one_of_many(value: str) -> frozenset[str]:
    """The kinds of event a statement has one of ("The user has a dentist appointment on 10
    January." → {"appointment"}; 用户1月10日有牙医预约 → {"预约"})."""
    return frozenset((m[0] or m[1]).casefold() for m in _ONE_OF_MANY.findall(value))


def _kinds(value: str) -> frozenset[str]:
    """The events a statement names with the word before each ("dentist appointment",
    "appointment" when a determiner comes before it; 牙医预约), for a change to match its event."""
    out: set[str] = set()
    for m in _KIND.finditer(value):
        if m.group(2):
            before = (m.group(1) or "").casefold()
            mine = before in _DETERMINERS or before in _NOT_NAMES or before.endswith(("'s", "’s"))
            mine = mine or not before  # the June triathlon: the triathlon
            out.add(m.group(2).casefold() if mine
                    else f"{before} {m.group(2).casefold()}")  # fmt: skip
        else:  # 用户的婚礼 / 用户等人的婚礼 / 有个面试: 的, 个 are determiners
            bare = m.group(3).endswith(("的", "个", "场", "次")) or m.group(3) in ("", "有")
            out.add(m.group(4) if bare else m.group(3)[-2:] + m.group(4))
    if _ZH_MEETING.search(value):
        out.add("会议")
    return frozenset(out) | trips(value)


def trips(value: str) -> frozenset[str]:
    """The trips a statement names by their place, planned or called off ("going to Rome",
    "the Rome trip", "a trip to New York", 去罗马, 罗马之行, 去东京出差 → ``trip:rome``, …)."""
    out = {f"trip:{p.casefold()}" for m in _TRIP_EN.findall(value) for p in m if p}
    out = {t for t in out if t[5:] not in _NOT_NAMES}
    if re.search(r"[\u4e00-\u9fff]", value):
        tags = rjieba.tag(value)
        for k, (word, tag) in enumerate(tags):
            if tag != "ns":
                continue
            before = tags[k - 1][0] if k else ""
            after = "".join(w for w, _ in tags[k + 1 : k + 3]).removeprefix("的")
            if before in _TO_ZH or after.startswith(tuple(_TRIP_ZH)):
                out.add(f"trip:{word}")
    return frozenset(out)


def _loose_days(value: str) -> frozenset[str]:
    """Days canonical forms leave as numbers: a day of the month ("the 12th", 12号 → ``dom12``)
    and a month without its year ("May", 五月, 5月 → ``mon5``)."""
    out = {f"dom{int(a or b)}" for a, b in _DAY_OF_MONTH.findall(value)}
    out |= {f"mon{_MONTHS_EN.split().index(m) + 1}" for m in _MONTH_EN.findall(value)}
    for m in _MONTH_ZH.findall(value):
        out.add(f"mon{int(m) if m.isdigit() else _ZH_NUM[m]}")
    return frozenset(out)


def _names(value: str) -> frozenset[str]:
    """The capitalised words past a statement's first, days and months set aside ("Bob")."""
    words = re.findall(r"[A-Za-z][\w'’-]*", value)[1:]
    return frozenset(w for w in words if w[:1].isupper() and w.casefold() not in _NOT_NAMES)

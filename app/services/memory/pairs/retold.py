"""Values a statement tells again, changed (issue 28): which differing values make a pair a
possible contradiction when the rest of the sentence does not agree word for word. Read by
the pair decision (:mod:`.decision`) once other values have been found on the two sides.

- :func:`one_kind_changed`: a value of one side replaced by one of the same kind on the other
  (an amount by an amount, a weekday by a weekday: 目标是7分 / 目标改成6.5分了), not a count
  against an ordinal ("bought a third turtle" / "now has 3 turtles": the same fact told after it);
- :func:`day_retold`: one event told with another day — a once-in-a-life event ("passed away in
  early March 2023" / "in 2019"), or every word matched but the days (梅兰妮2023年7月5日去了博物馆
  / 梅兰妮去博物馆是在2023年8月5日) and the same particles ("checks in on June 3" / "checks out
  on June 7" are two events). Pure."""

from __future__ import annotations

import re

from app.services.memory.pairs import across, lexical, referents, rules
from app.services.memory.pairs.features import Features, Statement

_DIGITS = re.compile(r"[\d.]+")
# Once in a life: another day corrects it (born, died, married).
_ONCE = re.compile(r"\b(?:born|died|passed\s+away|married)\b|出生|去世|过世|结婚", re.IGNORECASE)
# English particles that make another act of one verb (check in / check out, move in / out).
_PARTICLES = frozenset("in out up down off on to from back away into onto".split())


def changed(f: Features, new: Statement, old: Statement) -> str | None:
    """The unsure reason of a pair with other values (both flagged: :mod:`.gate`):
    ``values_changed_elsewhere`` when the new statement says a change (:func:`.rules.says_change`)
    and :func:`one_kind_changed`, ``event_day_changed`` when :func:`day_retold`; else None.
    Same-language pairs only."""
    if f.cross_lingual:  # 羽毛球改到每周三 / "plays badminton every Thursday": flagged
        return "event_moved_other_language" if across.day_moved(new.value, old.value) else None
    if rules.says_change(new.value) and one_kind_changed(f):
        return "values_changed_elsewhere"
    return "event_day_changed" if day_retold(f, new, old) else None


# How often, in English: "once a month", "every week", "3 times a week", "weekly".
_COUNTS = {"once": 1, "twice": 2, "thrice": 3, "one": 1, "two": 2, "three": 3, "four": 4}
_RATE = re.compile(
    r"\b(?:(?:(?P<n>once|twice|thrice)|(?P<k>one|two|three|four|\d+)\s+times?)\s+"
    r"(?:a|an|per|every|each)|every|each)\s+(?P<per>day|week|month|year)\b"
    r"|\b(?P<adv>dai|week|month|year)ly\b",
    re.IGNORECASE,
)


def rate_changed(new: str, old: str) -> bool:
    """The same English sentence told with another rate ("volunteers at a local dog shelter
    once a month" / "every week"): the words outside the rates the same, the periods not."""
    a, b = _RATE.search(new), _RATE.search(old)
    if a is None or b is None or _RATE.sub("", new).casefold() != _RATE.sub("", old).casefold():
        return False
    return _rate(a)[1] != _rate(b)[1]  # per week / per month (counts alone: other values)


def _rate(m: re.Match[str]) -> tuple[int, str]:
    n = m.group("n") or m.group("k") or "1"
    per = m.group("per") or {"dai": "day"}.get(m.group("adv").casefold(), m.group("adv"))
    return (int(n) if n.isdigit() else _COUNTS[n.casefold()]), per.casefold()


# A place in a contest ("won first place", "came third", "won" alone: first; 得了第三名).
_ORDINALS = {"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "last": 99}
_PLACING = re.compile(
    r"\b(?:came|finished|placed|took|won|got|ended\s+up)\s+(?:in\s+)?(?:the\s+)?"
    r"(?P<o>first|second|third|fourth|fifth|last|(?P<d>\d)(?:st|nd|rd|th))(?:\s+place)?\b"
    r"|\b(?P<won>won)\b|(?:得了|拿了|获得了?|是)第(?P<z>[一二三四五\d])名",
    re.IGNORECASE,
)
_ZH_ORD = {c: k for k, c in enumerate("一二三四五", start=1)}


def placing_changed(new: str, old: str) -> bool:
    """One contest's result told two ways, one a win and one a place ("Gina's team won at
    regionals" — or "won first place", which canonical forms read as a win — / "came third at
    regionals"): the words outside the placings the same. Two places (2nd / 4th, 第二名 / 第四名)
    are other values, read by the values' guard."""
    a, b = _PLACING.search(new), _PLACING.search(old)
    if a is None or b is None or _rest(new) != _rest(old):
        return False
    return (_place(a) == 1) != (_place(b) == 1)  # 2nd / 4th: other values, read elsewhere


def _rest(value: str) -> str:
    """The words outside a placing, "in", "at" and spaces aside (won the cup / came 4th in it)."""
    return re.sub(r"\b(?:in|at)\b|\s+", "", _PLACING.sub("", value).casefold())


def _place(m: re.Match[str]) -> int:
    if m.group("won"):
        return 1
    if m.group("z"):
        return int(m.group("z")) if m.group("z").isdigit() else _ZH_ORD[m.group("z")]
    return int(m.group("d")) if m.group("d") else _ORDINALS[m.group("o").casefold()]


def one_kind_changed(f: Features) -> bool:
    """A value only one side has replaced by another of the same kind only the other has."""
    kinds = {_DIGITS.sub("#", v) for v in f.values_old - f.values_new}
    return any(_DIGITS.sub("#", v) in kinds for v in f.values_new - f.values_old)


def only_the_day_differs(f: Features) -> bool:
    """The same words in the same frame and the same values but for the days: one past event
    told with another date ("went to a fair on 24 April" / "on 14 April")."""
    if f.cross_lingual or not f.frame_equal:
        return False
    return {v for v in f.values_new if not referents.is_day(v)} == {
        v for v in f.values_old if not referents.is_day(v)
    }


def day_retold(f: Features, new: Statement, old: Statement) -> bool:
    """The two statements tell one event on other days (see the module docstring): the values
    that differ are days on both sides, and the event happens once or every other word is
    matched both ways (:func:`.lexical.align`) with the same English particles."""
    gone, came = f.values_old - f.values_new, f.values_new - f.values_old
    if f.cross_lingual or not gone or not came:
        return False
    if not all(referents.is_day(v) for v in gone | came):
        return False
    if _ONCE.search(new.value) and _ONCE.search(old.value):
        return True
    a = lexical.align(new.value, old.value)
    if set(a.unmatched_a) - came or set(a.unmatched_b) - gone:
        return False
    return _particles(new.value) == _particles(old.value)


def _particles(value: str) -> frozenset[str]:
    return frozenset(re.findall(r"[a-z]+", value.casefold())) & _PARTICLES

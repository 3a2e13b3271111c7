"""How many children the user's family has, and a birth that changes it: "The user and their
partner have two kids." against "We just had our third baby." (extracted as "The user just had
the user's third baby."), 用户和老公有两个孩子 / 我们刚生了第三个孩子. The baby after "our" read as
another person (:mod:`.referents`), so the count stayed two beside the birth. :func:`changed`
tells the pair decision that the new statement changes the count the old one holds: a
contradiction (``slot_differs:children``) the write path supersedes — a birth says the change
itself (:mod:`app.services.memory.resolution`). Read on the canonical forms (numbers and
ordinals in digits: "third" → 3rd, 第三 → 第3). Pure."""

from __future__ import annotations

import re

from app.core import text
from app.services.memory.pairs.canonical import canonical

REASON = "slot_differs:children"
"""The pair decision's reason for a pair this module tells."""

_KIDS_EN = r"(?:kids?|children|child|babies|baby|sons?|daughters?)"
# "have 2 kids", "has 3 children", "are parents of 2": the count the family has now.
_HAS_EN = re.compile(rf"\b(?:has|have|now\s+has|now\s+have)\s+(\d+)\s+{_KIDS_EN}\b")
# "had the user's 3rd baby", "welcomed their 3rd child", "gave birth to a 3rd child".
_BORN_EN = re.compile(
    r"\b(?:had|welcomed|gave\s+birth\s+to|delivered|adopted)\s+(?:the\s+user['’]s\s+|their\s+|"
    rf"our\s+|his\s+|her\s+|my\s+|a\s+|the\s+)?(\d+)(?:st|nd|rd|th)\s+{_KIDS_EN}\b"
)
_HAS_ZH = re.compile(r"有(\d+)个(?:孩子|小孩|宝宝|儿女|子女)")
_BORN_ZH = re.compile(
    r"(?:生了?|迎来了?|生下了?|添了?)第(\d+)(?:个|胎)(?:孩子|小孩|宝宝|儿子|女儿)?|第(\d+)胎"
)
# Whose family: the user, the user with a partner, or "we" (the speaker's).
_USER_EN = re.compile(
    r"^(?:the\s+user\b(?!['’]s)|we\b|our\b|"
    r"the\s+user['’]s\s+(?:partner|wife|husband|spouse)\s+and\s+the\s+user\b)",
    re.IGNORECASE,
)
_USER_ZH = re.compile(r"^(?:用户(?!的)|我们|用户的(?:老公|老婆|丈夫|妻子|伴侣|爱人)和用户)")


def count(value: str) -> tuple[int, bool] | None:
    """The number of children the user's family has by ``value``, and whether ``value`` says
    a birth (the count changed: "had their 3rd baby" → (3, True)); None when it says none or
    is another person's ("The user's sister has two kids")."""
    c = canonical(value).text.strip()
    cjk = text.has_cjk(c)
    if (_USER_ZH if cjk else _USER_EN).match(c) is None:
        return None
    born = (_BORN_ZH if cjk else _BORN_EN).search(c)
    if born is not None:
        return int(next(g for g in born.groups() if g)), True
    has = (_HAS_ZH if cjk else _HAS_EN).search(c)
    return (int(has.group(1)), False) if has is not None else None


def changed(new: str, old: str) -> bool:
    """Whether ``new`` tells a birth that makes the user's children more than ``old`` says
    the family has (one language or two)."""
    a, b = count(new), count(old)
    return a is not None and b is not None and a[1] and not b[1] and a[0] > b[0]

"""A value told as a former one ("used to live in Chicago", "previously worked at Microsoft",
以前住在重庆) is history beside the present value of its slot, not its replacement (tester
hbreak6 G33: "I used to live in Chicago." superseded "I live in Denver."; "I used to work at
Microsoft." retired the employer). Both stay active, ``distinct`` as ``former_value``; a
former value said with the present one ("used to live in Chicago, but now lives in Boston",
以前…现在…) is a change as before, and so is the same value told as former ("used to smoke"
after "smokes": it ended)."""

from __future__ import annotations

import re

_FORMER = re.compile(
    r"\b(?:used\s+to|formerly|previously|once\s+(?:lived|worked|studied)|back\s+then|"
    r"in\s+the\s+past)\b|以前|从前|曾经|过去",
    re.IGNORECASE,
)
_PRESENT = re.compile(
    r"\b(?:now|currently|these\s+days|nowadays|anymore|any\s+more|no\s+longer|moved|"
    r"relocated|switched|changed)\b|现在|如今|目前|搬到|搬去|不再|已经不|换成|改成",
    re.IGNORECASE,
)


def told_as_former(value: str) -> bool:
    """``value`` tells a former state and nothing of the present (module docstring)."""
    return _FORMER.search(value) is not None and _PRESENT.search(value) is None


def other_time(new: str, old: str, reason: str) -> bool:
    """Two values of one slot (``reason`` ``slot_differs:…``) of which exactly one is told
    as former: history beside the present, neither replaces the other."""
    return reason.startswith("slot_differs") and told_as_former(new) != told_as_former(old)


def differs(new: str, old: str) -> bool:
    """Exactly one of two statements is told as former ("used to live in Paris" / "lives in
    Paris", 以前住在上海 / 住在上海: tester hbreak7 H22): never one restatement of the other."""
    return told_as_former(new) != told_as_former(old)

"""An amount qualified two opposite ways (tester K16): "$5,000 a month before tax" / "…after
tax", gross / net, 税前 / 税后, "including the bonus" / "excluding the bonus" are two amounts,
never one restated — a merge would keep one reading of the number and lose the other. One side
qualified and the other bare ("$2,000 a month" / "$2,000 a month after tax") is the same
amount told more exactly: it may merge, and the survivor takes the qualified words
(:func:`app.services.memory.merge.adds_things`). Pure."""

from __future__ import annotations

import re

from app.services.memory.pairs.canonical import canonical

# Each reading of an amount, and the words that say it (English, Chinese).
_READINGS = {
    "before_tax": r"\bbefore\s+tax(?:es)?\b|\bpre-?tax\b|\bgross\b(?!\s+out)|税前|毛收入",
    "after_tax": (
        r"\bafter\s+tax(?:es)?\b|\bpost-?tax\b|\bnet\b(?!\s+worth)|\btake-?home\b|税后|到手"
    ),
    "including": r"\bincluding\b|\bincl\.|\binclusive\s+of\b|包括|包含",
    "excluding": r"\bexcluding\b|\bexcl\.|\bnot\s+including\b|\bexclusive\s+of\b|不包括|不含",
}
_OPPOSITE = (("before_tax", "after_tax"), ("including", "excluding"))
_COMPILED = {k: re.compile(v, re.IGNORECASE) for k, v in _READINGS.items()}


def readings(value: str) -> frozenset[str]:
    """The readings of an amount a statement names (``before_tax``, ``after_tax``,
    ``including``, ``excluding``); "not including" is ``excluding`` only."""
    found = {k for k, rx in _COMPILED.items() if rx.search(value)}
    if "excluding" in found and not _COMPILED["including"].search(
        re.sub(r"\bnot\s+including\b|不包括", "", value, flags=re.IGNORECASE)
    ):
        found.discard("including")
    return frozenset(found)


def opposite(new: str, old: str) -> bool:
    """Whether the two statements read an amount two opposite ways (module docstring): both
    name a number (:mod:`.canonical`)."""
    if not (canonical(new).values and canonical(old).values):
        return False
    a, b = readings(new), readings(old)
    return any((x in a and y in b) or (y in a and x in b) for x, y in _OPPOSITE)

"""Pairs the pair decision (:mod:`.decision`) decides below the candidate gate, by its guards
only (a cosine that low otherwise means two facts): one exclusive slot in two languages, or a
job left, or a home or job said changed in one language (:func:`.across.same_slot`: tester F5,
hbreak7 H2, H7), and a diet against a food it rules out (:func:`.diet.excludes`: "The user
became vegetarian in November 2026, no more meat." / "The user loves steak." at 0.778 opened
nothing, tester hbreak7 H5; now flagged as a possible contradiction). Pure."""

from __future__ import annotations

import re

from app.services.memory.pairs import across, children, crossed, diet, restated

# Words a diet is said with: only such pairs are read for one (a cheap test first).
_DIET_WORDS = re.compile(
    r"\b(?:vegetarian|vegan|pescatarian|meat|fish|dairy|eggs?|keto|plant-based)\b|吃素|素食|肉|鱼|奶|蛋",
    re.IGNORECASE,
)


def decided(a: str, b: str) -> bool:
    """Whether the pair ``a`` / ``b`` is decided below the candidate gate (module docstring)."""
    if across.same_slot(a, b) or children.changed(a, b):  # a birth: "had our third baby"
        return True
    if across.day_moved(a, b) or crossed.plan_dropped(a, b):  # 羽毛球改到每周三, 不搬墨尔本了
        return True
    if restated.below(a, b):  # 用户把 Spotify 退订了 / "is on Spotify Duo" (seventeenth run)
        return True
    return bool(_DIET_WORDS.search(a) or _DIET_WORDS.search(b)) and diet.excludes(a, b)

"""Ordinals that tell which one ("the first meeting", 第二次去日本), not those that give a
value ("on the 7th floor", "came 2nd"): :func:`ordinals`, read by :mod:`.referents` (another
ordinal is another thing). An ordinal before a past verb counts times ("first watched it" =
"watched it for the first time"), as 第一次 does. Pure.
"""

from __future__ import annotations

import re

from app.core import text
from app.services.memory.pairs import lexicon
from app.services.memory.pairs.canonical import canonical

# Nouns an ordinal gives a value to, not a name: "on the 7th floor", "2nd place", 第3排.
_ORDINAL_VALUE_NOUNS = frozenset(
    "floor floors place row level grade rank position century percentile gear round".split()
)
_ORDINAL_EN = re.compile(r"\b(\d+)(?:st|nd|rd|th)\s+([a-z]+)")
_ORDINAL_ZH = re.compile(
    r"第\s*(\d+)\s*(个|次|场|天|周|季|届|期|本|部|家|份|件|任|胎|位|轮|堂|节|站)"
)


def ordinals(value: str) -> frozenset[str]:
    """The ordinals that tell which one ("the first meeting", 第二次), not those that give a
    value ("on the 7th floor", "came 2nd")."""
    c = canonical(value).text  # first → 1st, 第一 → 第1
    found = {
        f"{m.group(1)}:{_TIME if _past_verb(m.group(2)) else m.group(2)}"
        for m in _ORDINAL_EN.finditer(c)
        if m.group(2) not in _ORDINAL_VALUE_NOUNS and not text.is_stop_word(m.group(2))
    }
    found |= {f"{m.group(1)}:{_ORDINAL_TIMES.get(m.group(2), m.group(2))}"
              for m in _ORDINAL_ZH.finditer(c)}  # fmt: skip
    return frozenset(found)


# "first watched it" says "watched it for the first time", as 第一次看 does: one ordinal.
_TIME = "time"
_ORDINAL_TIMES = {"次": _TIME, "回": _TIME}


def _past_verb(word: str) -> bool:
    """Whether ``word`` after an ordinal is a verb in the past ("first watched", "first met"),
    so the ordinal counts times, not things."""
    return word.endswith("ed") or (
        word != lexicon.lemma(word) and not word.endswith(("s", "ing", "ren"))
    )

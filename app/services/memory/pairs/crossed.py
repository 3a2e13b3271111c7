"""Changes told across English and Chinese that the dictionaries' word-for-word comparison
(:mod:`.across`) misses (issue 28), both flagged as possible contradictions by the pair
decision (:mod:`.prior`, before what each statement is about):

- a correction that names another place or name ("The beach Nate took his turtles to was in
  Tampa" / "Nate 带乌龟去的海滩其实在 Miami"): a word of correction in the new statement (其实,
  实际上, actually), the same name opening it in both, one Latin-letter name on each side the
  other lacks (:func:`corrected`);
- a move or trip called off ("The user is moving to Melbourne in March" / 用户不搬墨尔本了):
  the place the plan names, CC-CEDICT's gloss of the Chinese one, said not gone to any more
  (:func:`plan_dropped`); decided below the candidate gate too (:mod:`.below`).

Pure."""

from __future__ import annotations

import re

from app.core import text
from app.services.memory.pairs import lexicon

_CORRECTION = re.compile(r"\b(?:actually|in\s+fact)\b|其实|实际上", re.IGNORECASE)
_NAME = re.compile(r"(?<![\w'’])[A-Z][a-z][\w'’-]*")


def corrected(new: str, old: str) -> bool:
    """``new`` (the other language) corrects ``old`` with another name (module docstring)."""
    if text.has_cjk(new) == text.has_cjk(old) or _CORRECTION.search(new) is None:
        return False
    a, b = _names(new), _names(old)
    only_a, only_b = a - b, b - a
    return len(only_a) == 1 and len(only_b) == 1 and bool(a & b)


def _names(value: str) -> set[str]:
    """Capitalised Latin words, the sentence's first word aside unless it is a name the other
    side may give too ("Nate 带乌龟…")."""
    found = _NAME.findall(value)
    if found and value.lstrip().startswith(found[0]) and not text.has_cjk(value):
        found = found[1:]  # "The beach …": a sentence's capital
    return set(found)


_EN_PLAN = re.compile(
    r"\b(?:is|are|am|was)\s+(?:moving|relocating|going|flying|travell?ing|heading)\s+(?:back\s+)?"
    r"to\s+(?P<place>[A-Z][\w'’-]*(?:\s+[A-Z][\w'’-]*)?)"
)
_ZH_DROPPED = re.compile(r"不(?:搬|去|飞|回)(?:到|去)?(?P<place>[\u4e00-\u9fff]{2,5}?)了")


def plan_dropped(new: str, old: str) -> bool:
    """``new`` (Chinese) says the move or trip ``old`` (English) plans is off (module
    docstring): 不搬墨尔本了 against "is moving to Melbourne"."""
    if not text.has_cjk(new) or text.has_cjk(old):
        return False
    m, p = _ZH_DROPPED.search(new), _EN_PLAN.search(old)
    if m is None or p is None:
        return False
    place = p.group("place").casefold()
    return place in lexicon.glosses(m.group("place")) | lexicon.gloss_heads(m.group("place"))

"""A negation of the same statement, for the pair decision's polarity guard
(:mod:`.decision`): half the words in common, or little else said (tester D30), or — said as a
change — the very act the other side states, stopped ("用户现在不喝咖啡了，改喝茶" against
"用户每天早上喝咖啡", "The user doesn't drink coffee anymore" against "The user drinks coffee
every morning": tester hbreak7 H15, the habit stayed current beside its end since the new side
says more, the tea, than the old one shares). Pure."""

from __future__ import annotations

import re

from app.services.memory.pairs.features import Features, Statement

# 现在不喝咖啡了, 不再喝咖啡, 已经不吃肉了, 再也不抽烟了: the act stopped (two to four characters).
_ZH_STOPPED = re.compile(
    r"(?:(?:现在|已经|再也|早就|从此)(?:都)?不|不再|没再)([\u4e00-\u9fff]{2,4}?)(?=了|[，。,.！!]|$)"
)
# "doesn't drink coffee anymore", "no longer drinks coffee", "stopped drinking coffee": the
# act (its verb first, its object last).
_EN_STOPPED = re.compile(
    r"\b(?:no\s+longer|(?:doesn['’]t|does\s+not|don['’]t|do\s+not)|stopped)\s+"
    r"(?P<act>[a-z]+(?:\s+[a-z]+){1,3}?)\s*(?=\bany\s*more\b|\bnow\b|\bthese\s+days\b|[.,;!]|$)",
    re.IGNORECASE,
)
_EN_SAID_AS_CHANGE = re.compile(r"\b(?:no\s+longer|any\s*more|now|these\s+days|stopped)\b", re.I)


def flipped(f: Features, new: Statement, old: Statement) -> bool:
    """Whether two statements of other polarity (``f.polarity_differs``) say the same thing,
    one negated: see the module docstring."""
    if f.overlap >= 0.5 or (f.containment >= 0.8 and _little_else_said(new, old)):
        return True
    return stopped(new.value, old.value)


def stopped(new: str, old: str) -> bool:
    """``new`` says, as a change, that its subject no longer does what ``old`` says they do
    (the act's words, verb and object, in ``old`` as written; English verbs by stem)."""
    m = _ZH_STOPPED.search(new)
    if m is not None:
        act = m.group(1)
        at = old.find(act)
        return at >= 0 and not re.search(r"不|没|别", old[max(0, at - 2) : at])
    m = _EN_STOPPED.search(new)
    if m is None or _EN_SAID_AS_CHANGE.search(new) is None:
        return False
    words = m.group("act").casefold().split()
    verb, thing = words[0], words[-1]
    if len(words) > 2 and words[1] not in ("a", "an", "the", "any", "my", "his", "her"):
        return False  # "allergic to shellfish": no act and its object (tester D-list allergies)
    stem = verb.removesuffix("ing")[:4]
    said = re.search(rf"\b{re.escape(stem)}\w*\s+(?:\w+\s+)?{re.escape(thing)}\b", old, re.I)
    return said is not None and not re.search(r"\b(?:not|never|n['’]t|no)\b", old, re.I)


def _little_else_said(new: Statement, old: Statement) -> bool:
    """Whether, the names both give set aside, the two statements share a content word and
    say at most two others between them: "The user is vegan" / "is not vegan any more" is a
    negation; "John never give up" inside "John is doing kickboxing and it's giving John so
    much energy" (one verb shared, four other words) is not (tester D30)."""
    names = {n.casefold() for n in new.names | old.names}
    a, b = set(new.words) - names, set(old.words) - names
    return bool(a & b) and len(a ^ b) <= 2

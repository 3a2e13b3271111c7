"""What a typed rule's object names (:mod:`app.services.extraction.rules`): the thing for
``entities`` (:func:`entity_head`), and the things of a list ("shellfish and peanuts",
海鲜和花生: :func:`listed`), each a unit of its own (tester: "I'm allergic to shellfish and
peanuts." kept only shellfish). English and Chinese; pure."""

from __future__ import annotations

import re

from app.core.text import has_cjk

# What a rule's object says beyond the thing it names: a time or place after it ("Hamburg in
# May", "window seats on long flights"), a time before it (五月的汉堡).
_EN_AFTER_HEAD = re.compile(
    r"\s+(?:in|on|at|during|for|from|since|until|with|every|each|this|next|last|when|while|"
    r"before|after|because|if|unless|around|by|to|of|about|that|which|who|where|like|as)\b.*$",
    re.IGNORECASE,
)
_ZH_TIME_BEFORE = re.compile(
    r"^(?:[0-9一二三四五六七八九十两]+月|[每这上下]?个?(?:周末|星期.|周.|月)|"
    r"夏天|冬天|春天|秋天|早上|晚上)的"
)
_EN_NOT_A_THING = re.compile(r"^(?:it|that|them|what|how|when|not|\w+ing)\b", re.IGNORECASE)
_EN_DETERMINER = re.compile(
    r"^(?:(?:the\s+user['’]s|your|their|his|her|our|my|the|a|an|this|these|those|all|some)\s+)+",
    re.IGNORECASE,
)


def entity_head(obj: str) -> str | None:
    """The thing a typed rule's object names, for ``entities``: "Hamburg in May" → "Hamburg",
    "your turtles" → "turtles", 五月的汉堡 → 汉堡 (tester F16: the whole phrase was an
    entity); None when it names no thing ("hiking in the Alps", "it when you cook", "that you
    chose pottery": the names in it are found as names)."""
    if has_cjk(obj):
        return _ZH_TIME_BEFORE.sub("", obj).strip() or obj
    if _EN_NOT_A_THING.match(obj.strip()):
        return None
    head = _EN_DETERMINER.sub("", _EN_AFTER_HEAD.sub("", obj).strip(" ,"))
    if not head or len(head.split()) > 3 or _EN_NOT_A_THING.match(head):
        return None
    return head


# A list's object runs to the end of its clause: an "and" or a comma go on with the list,
# not before a clause of its own ("…, and I…", "…, so…", "… and it's serious").
EN_LIST = (
    r"([^.;:!?]{1,120}?)(?=\s+(?:but|so|because|since|though|although|when|if|unless|"
    r"for\s+(?:any|the|my))\b|\s*,?\s+(?:and|or)\s+(?:i|i'm|my|we|it|it's|they|he|she|that|"
    r"so|also|then)\b|\s*,\s*(?:i|i'm|my|it|it's|which|that|so|but|though|especially|even)\b|"
    r"[.;:!?]|$)"
)
_EN_SEPARATOR = re.compile(r"\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or|&)\s+", re.IGNORECASE)
_EN_NOT_AN_ITEM = re.compile(
    r"^(?:a\s+lot|very|really|so|too|also|it|that|this|which|who|severely|badly|especially)\b"
    r"|\b(?:is|are|was|were|get|gets|got|make|makes|made|have|has|had)\b",
    re.IGNORECASE,
)
_ZH_SEPARATOR = re.compile(r"[、，,]|和|跟|与|及|以及|还有|或者?")


def listed(obj: str) -> list[str]:
    """The things a rule's object lists ("shellfish and peanuts" → shellfish, peanuts;
    "shellfish, peanuts and eggs"; 海鲜和花生 → 海鲜, 花生); the object alone when an item
    is no thing of its own (a verb, "a lot", more than four words: "salt and pepper" stays
    one when its parts are)."""
    zh = has_cjk(obj)
    parts = [p.strip() for p in (_ZH_SEPARATOR if zh else _EN_SEPARATOR).split(obj)]
    if len(parts) < 2 or any(not p for p in parts):
        return [obj.strip()]
    if zh:
        return parts if all(len(p) <= 8 for p in parts) else [obj.strip()]
    if any(len(p.split()) > 4 or _EN_NOT_AN_ITEM.search(p) for p in parts):
        return [obj.strip()]
    return parts

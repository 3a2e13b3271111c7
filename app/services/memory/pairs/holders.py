"""Whose fact a statement opens with — its holder (tester D32): the user ("The user lives
in…", 用户住在…, "the user's car"), a relative or friend of theirs ("the user's folks",
用户爸妈, 用户的朋友小王), a relative with no owner (爸妈…) or a name ("Sarah…", 小王…). Two
statements held by different people are two facts (:func:`apart`): the parents' move had
superseded "The user lives in Chicago." — group and kin words WordNet files elsewhere (folks,
family, in-laws; 爸妈, 家人, 公婆) slipped past :func:`.referents.people`. Pure, cached."""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Literal

from app.core import text
from app.services.memory.pairs import persons_zh
from app.services.memory.pairs.kin import GROUP_ZH as _GROUP_ZH
from app.services.memory.pairs.kin import KIN_EN as _KIN_EN
from app.services.memory.pairs.kin import KIN_ZH as _KIN_ZH
from app.services.memory.pairs.referents import (
    _FUNCTION,
    _PERSON_ADJ,
    _given_names,
    _is_person,
    _mentioned,
    _person_en,
    _qualifies,
    subject_name,
)

# People named as a group after a possessive, besides WordNet's persons (tester D32: "the
# user's folks moved to Florida" superseded "The user lives in Chicago").
_GROUP_EN = {
    "folks": "parent", "family": "family", "relatives": "family", "in-laws": "in-law",
    "inlaws": "in-law", "grandparents": "grandparent", "siblings": "sibling",
    "friends": "friend", "parents": "parent", "kids": "child", "children": "child",
}  # fmt: skip
_ZH_HOLDER_KIN = "|".join(sorted({*_KIN_ZH, *_GROUP_ZH}, key=len, reverse=True))
_ZH_USER_KIN = re.compile(rf"^用户的?(?:大|小|二|老)?({_ZH_HOLDER_KIN})")
_ZH_KIN_FIRST = re.compile(rf"^(?:大|小|二|老)?({_ZH_HOLDER_KIN})(?!们)")
_EN_USER = re.compile(r"^the\s+user\b(?!['’]s)(?!\s+and\b)", re.IGNORECASE)
_EN_OWNED = re.compile(
    r"^(?:(?i:the\s+(user))|([A-Z][a-z]+))['’]s?\s+((?:[A-Za-z-]+\s+){0,2}[A-Za-z-]+)"
)
# A time or place before the subject ("On 2026-12-04, the user …", 2025年，用户…).
_LEAD_EN = re.compile(
    r"^(?:(?:on|in|at|since|last|this|yesterday|today|recently|now)\b[^,]{0,40},\s*)", re.IGNORECASE
)
_LEAD_ZH = re.compile(r"^[^，,用]{1,16}[，,]\s*(?=用户)")
_ZH_USER = re.compile(r"^用户(?!的|等|和|跟|与|及)")


def _kin_en(word: str) -> str | None:
    """A kin or group word's one name (mum → mother, folks → parent), else None."""
    w = word.casefold()
    return (
        _GROUP_EN.get(w)
        or _KIN_EN.get(w)
        or (w if w in _KIN_EN.values() or w.endswith("-in-law") else None)
    )


@lru_cache(maxsize=8192)
def holder(value: str) -> str | None:
    """Whose fact a statement opens with: ``user`` ("The user lives in…", 用户住在…, "The
    user's car…": the user's own thing), ``user:<person>`` ("The user's parents moved…",
    "The user's friend Sam…", 用户爸妈…, 用户的朋友小王…), ``<person>`` for a kin word with
    no owner ("Mom and Dad moved…", 爸妈搬到了…), ``name:<name>`` ("Sam lives in…",
    "Caroline's sister" → ``name:caroline:sister``); None when it cannot tell (a group with
    the user in it, "The user and others…", or no subject it knows)."""
    v = value.strip()
    if text.has_cjk(v):
        v = _LEAD_ZH.sub("", v)
        v = re.sub(r"^用户[：:]\s*", "", v)  # 用户：爸妈搬到了上海 (the speaker's words)
        m = _ZH_USER_KIN.match(v)
        if m is not None:
            word = m.group(1)
            return "user:" + (_GROUP_ZH.get(word) or _KIN_ZH[word])
        if v.startswith("用户的") and (person := persons_zh.person_zh(v[3:])) is not None:
            return "user:" + person  # 用户的表哥: CC-CEDICT "older male cousin …"
        if _ZH_USER.match(v):
            return "user"
        m = _ZH_KIN_FIRST.match(v)
        if m is not None and not v.startswith(("狗", "猫")):
            return _GROUP_ZH.get(m.group(1)) or _KIN_ZH[m.group(1)]
        name = persons_zh.opening_name(v)
        if name is None or v[len(name) : len(name) + 1] in ("和", "跟", "与"):
            return None
        of = persons_zh.after_of(v[len(name) + 1 :]) if v[len(name) :].startswith("的") else None
        return f"name:{name}:{of}" if of else "name:" + name  # 约翰的队友: member
    v = _LEAD_EN.sub("", v)
    m = _EN_OWNED.match(v)
    if m is not None:
        owner = "user" if m.group(1) else "name:" + m.group(2).casefold()
        if m.group(2) and m.group(2).casefold() in _FUNCTION:
            owner = ""
        said = m.group(3).split()
        words = [w.casefold() for w in said]
        j = 1 if len(words) > 1 and words[0] in _PERSON_ADJ else 0
        kin = _kin_en(words[j]) or _person_en(words[j])
        qualifies = j + 1 < len(words) and not said[j + 1][:1].isupper()  # "friend Sam": a name
        if owner and kin is not None and not (qualifies and _qualifies(words[j], words[j + 1])):
            return f"{owner}:{kin}"
        if owner:
            return owner  # the owner's own thing ("the user's car", "Bob's flight")
    if _EN_USER.match(v):
        return "user"
    first = re.match(r"^(?:the\s+|my\s+)?([A-Za-z-]+)\b(?!\s+and\b)", v)
    if first is not None and (kin := _kin_en(first.group(1))) is not None:
        return kin
    said = subject_name(v)
    if said is not None and _a_name(said[0]) and not re.match(r"^\w+\s+and\b", v):
        return "name:" + said[0]
    return None


def given_name(word: str) -> bool:
    """Whether a word (case-folded) is a person's given name and no other English word
    first: a given name CC-CEDICT transliterates or a person in WordNet (David, Sarah), whose
    main part of speech is a noun ("Great", "Will" are other words first)."""
    from app.services.memory.pairs import lexicon

    return (word in _given_names() or _is_person(word)) and lexicon._wordnet_pos().get(word, 0) == 0


def _a_name(word: str) -> bool:
    """Whether a capitalised first word is a person's name: a given name, a person in
    WordNet, or no English word at all ("Big crowds…", "Dinner is…" are words)."""
    from app.services.memory.pairs import lexicon

    return word in _given_names() or _is_person(word) or word not in lexicon._wordnet()


def apart(new: str, old: str) -> Literal["distinct", "unsure"] | None:
    """Two statements held by different people (:func:`holder`) are two facts: ``distinct``
    — the user and another person, or two other people; ``unsure`` — the user and a name
    (the user may be called that: never merged, never superseded offline); None when both
    are the same holder's or one cannot tell."""
    a, b = holder(new), holder(old)
    if a is None or b is None or a == b:
        return None
    names = [h.split(":")[1] for h in (a, b) if h.startswith("name:")]
    if any(n in (new + " " + old).casefold().replace(n, "", 1) for n in names):
        return None  # "Emma" / "the user's daughter Emma": one person written two ways
    people_a, people_b = a.rsplit(":", 1)[-1], b.rsplit(":", 1)[-1]
    if {people_a, people_b} <= _mentioned(new) & _mentioned(old):
        return None  # "the daughter is older than the son" / "the son … than the daughter"
    if len(names) == 2 and text.has_cjk(names[0]) != text.has_cjk(names[1]):
        return None  # Melanie / 梅兰妮 may be one person
    if {a, b} & {"user"} and any(h.startswith("name:") and h.count(":") == 1 for h in (a, b)):
        return "unsure"
    return "distinct"

r"""One thing swapped for another of its kind in the same sentence (issue 28, step 1): "John
went to yoga with Rob" / "… with Mike", "John recommended Barcelona to Tim" / "… Lisbon …",
"Nate's gaming room has red and purple lighting" / "… blue and green lighting", 用户周五和约翰
开会 / 和迈克开会, 用户的车是红色的 / 蓝色的. The two statements say the same about the same
subject but for one aligned slot filled with another name (a person, a place, a company) or
another colour: the newer one may correct the older, or both may hold (two yoga classes).
The words cannot tell which, so :mod:`.decision` flags such a pair as a possible
contradiction (``unsure`` as ``thing_swapped:<kind>``, a merge ruled out, both units kept, a
review of kind ``contradiction``) and never merges it.

Not a swap: the subject itself (the sentence's opening words: "Alice" / "Bob prefers aisle
seats" is :mod:`.referents`' other person), another one of several (an article or a count
before it: "has a dog named Shadow" / "named Coco", 有一只叫旺财的狗), a taste or a feeling
("is a fan of Taylor Swift" / "of Adele": one may like both), a common noun swapped ("plays
the piano" / "the guitar", "allergic to peanuts" / "to shellfish": no name, no colour).

Pure: word lists from :mod:`.lexicon` (WordNet 3.0, CC-CEDICT's given names) and jieba's tags.
"""

from __future__ import annotations

import re
from functools import lru_cache

import rjieba

from app.core import text
from app.services.memory.pairs import lexicon, referents, rules

_WORD = re.compile(r"\w+")
# Words in the last three before the swapped slot that open another one of several.
_OPENS_ONE = frozenset("a an another one some other more several many few any".split())
_JOINERS = frozenset({"and", "or", "&"})
# A taste or a feeling: one may like, fear or collect several of a kind (English, Chinese).
_TASTE = re.compile(
    r"\b(?:likes?|liked|liking|loves?|loved|loving|enjoys?|enjoyed|enjoying|hates?|hated|"
    r"dislikes?|disliked|fond|fan|fans|interested|allergic|afraid|scared|fears?|admires?|"
    r"admired|can't\s+stand|cannot\s+stand|collects?|collected|collecting)\b|"
    r"喜欢|爱|讨厌|害怕|怕|过敏|收藏|迷上|粉丝",
    re.IGNORECASE,
)
# A count or measure word just before the slot opens another one (一只, 两个, 几位).
_ZH_COUNT = re.compile(r"[一二两三四五六七八九十几\d][个只条位名辆台本张件家头匹]叫?$")
_ZH_COLOURS = frozenset("红绿蓝黄白黑紫粉灰橙棕褐青金银")
_ZH_NAME_TAGS = frozenset({"nr", "nrt", "nrfg"})
_ZH_PLACE_TAGS = frozenset({"ns"})
MAX_WIDTH = 3  # words in the swapped slot on each side


def thing_swapped(a: str, b: str) -> str | None:
    """The kind (``name``, ``place``, ``colour``) of the one slot ``a`` and ``b`` fill with two
    different things of that kind, the rest of both sentences word for word the same (see
    the module docstring); None when they are not such a pair."""
    if text.has_cjk(a) or text.has_cjk(b):
        if text.has_cjk(a) and text.has_cjk(b):
            return _zh(a, b)
        return None
    return _en(a, b)


def _en(a: str, b: str) -> str | None:
    wa, wb = _WORD.findall(a), _WORD.findall(b)
    fa, fb = [w.casefold() for w in wa], [w.casefold() for w in wb]
    start = 0
    while start < min(len(fa), len(fb)) and fa[start] == fb[start]:
        start += 1
    end = 0
    while end < min(len(fa), len(fb)) - start and fa[-1 - end] == fb[-1 - end]:
        end += 1
    mid_a, mid_b = wa[start : len(wa) - end], wb[start : len(wb) - end]
    if start == 0 or not (0 < len(mid_a) <= MAX_WIDTH and 0 < len(mid_b) <= MAX_WIDTH):
        return None  # the subject told another way, or more than one slot
    if _OPENS_ONE & set(fa[max(0, start - 3) : start]):
        return None  # "has a dog named Shadow" / "named Coco": another one of several
    if _TASTE.search(a) or _TASTE.search(b):
        return None
    ka, kb = _kind_en(mid_a), _kind_en(mid_b)
    if ka is None or kb is None:
        return None
    after = fa[len(fa) - end] if end else ""
    if (ka != "colour" and after and not text.is_stop_word(after)
            and lexicon.main_pos(lexicon.lemma(after)) == 0):  # fmt: skip
        return None  # before a noun it qualifies it: "Italian food" / "Japanese food"
    if ka == kb:
        return ka
    return "name" if {ka, kb} == {"name", "place"} else None  # a town WordNet lacks


def _kind_en(words: list[str]) -> str | None:
    """``colour`` when every word is a colour (joiners aside), ``place`` or ``name`` when the
    words are capitalised (a proper name, not a sentence's start) and name a place WordNet
    knows or a person — a given name, a WordNet person, a word WordNet has no noun for
    (Patel, Rob); None otherwise ("piano", "English": a language is not a name here)."""
    toks = [w for w in words if w.casefold() not in _JOINERS]
    if not toks or any(ch.isdigit() for w in toks for ch in w):
        return None
    if all(_is_colour(w.casefold()) for w in toks):
        return "colour"
    if not all(w[:1].isupper() for w in toks):
        return None
    keys = [w.casefold() for w in toks]
    if _is_place("_".join(keys)) or all(_is_place(k) for k in keys):
        return "place"
    if any(_is_name(k) for k in keys):
        return "name"
    return None


@lru_cache(maxsize=4096)
def _is_colour(word: str) -> bool:
    """Whether one of a word's first WordNet noun senses is a colour (red, black, white)."""
    senses = lexicon._first_noun_senses().get(word, ())
    return any(lexicon._descends(s, ("color",)) for s in senses)


@lru_cache(maxsize=4096)
def _is_place(word: str) -> bool:
    """Whether a word's first WordNet noun sense is a location (Barcelona, new_york)."""
    senses = lexicon._first_noun_senses().get(word, ())
    return bool(senses) and lexicon._descends(senses[0], ("location",))


@lru_cache(maxsize=4096)
def _is_name(word: str) -> bool:
    """Whether a capitalised word names someone: a given name CC-CEDICT transliterates, a
    person in WordNet's first sense, or a word WordNet has no noun for."""
    senses = lexicon._first_noun_senses()
    return word not in senses or word in referents._given_names() or referents._is_person(word)


def _zh(a: str, b: str) -> str | None:
    ta, tb = rjieba.tag(a.strip()), rjieba.tag(b.strip())
    start = 0
    while start < min(len(ta), len(tb)) and ta[start][0] == tb[start][0]:
        start += 1
    end = 0
    while end < min(len(ta), len(tb)) - start and ta[-1 - end][0] == tb[-1 - end][0]:
        end += 1
    mid_a, mid_b = ta[start : len(ta) - end], tb[start : len(tb) - end]
    if start == 0 or not (0 < len(mid_a) <= 2 and 0 < len(mid_b) <= 2):
        return None
    before = "".join(w for w, _tag in ta[:start])
    if _ZH_COUNT.search(before) or _TASTE.search(a) or _TASTE.search(b):
        return None
    after = ta[len(ta) - end][0] if end else ""
    if rules.same_slot_value("".join(w for w, _ in mid_a), "".join(w for w, _ in mid_b)):
        return None  # one place named two ways: 北京 / 北京市
    ka, kb = _kind_zh(mid_a, after), _kind_zh(mid_b, after)
    return ka if ka is not None and ka == kb else None


def _kind_zh(words: list[tuple[str, str]], after: str) -> str | None:
    """``name`` (jieba's person tags), ``place`` (``ns``) or ``colour`` (红色, 蓝 before 色)."""
    tags = {tag for _w, tag in words}
    if tags <= _ZH_NAME_TAGS:
        return "name"
    if tags <= _ZH_PLACE_TAGS:
        return "place"
    chars = "".join(w for w, _tag in words)
    if chars.endswith("色"):
        chars = chars[:-1]
    elif not after.startswith("色"):
        return None
    return "colour" if chars and set(chars) <= _ZH_COLOURS else None

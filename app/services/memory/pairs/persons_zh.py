"""People in a Chinese statement, by jieba's tags and CC-CEDICT (docs/DEDUPE.md, sixteenth
run): a person's name is any of jieba's name tags — ``nr``, ``nrt`` (a transliterated name:
约翰, 卡罗琳, 内特), ``nrfg`` — and a transliterated name jieba cuts in two (梅兰 ``nr`` + 妮
``zg``, 乔 ``zg`` + 安娜 ``nr``) is one name; a person owned by a name or a kin word is the
word right after its 的 (张三的妻子, 约翰的队友, 梅兰妮的儿子): a kin word, or a noun whose
first CC-CEDICT definition's head is a WordNet person (队友: "member of same team…", 教练:
instructor). The eighth held-back part merged 约翰拿到了…代言 / 约翰的队友拿到了…代言: 约翰
is ``nrt``, which the readings took for no name. Pure, cached."""

from __future__ import annotations

import re
from functools import lru_cache

import rjieba

from app.core import text
from app.services.memory.pairs.kin import GROUP_ZH as _GROUP_ZH
from app.services.memory.pairs.kin import KIN_EN as _KIN_EN
from app.services.memory.pairs.kin import KIN_ZH as _KIN_ZH

NAME_TAGS = frozenset({"nr", "nrt", "nrfg"})
"""jieba's tags of a person's name: a Chinese name, a transliterated one, another."""

_PIECE = "zg"  # 妮, 乔: a character jieba cuts from a transliterated name
_SIZE = ("大", "小", "二", "老")  # 大女儿, 小儿子, 老公 aside (a kin word of its own)
_GLOSS_TAIL = re.compile(r"\s+(?:via|with|of|who|in|on|for|from|at|by|or|and)\b.*$")


def is_name(tag: str) -> bool:
    """Whether a jieba tag names a person (:data:`NAME_TAGS`)."""
    return tag in NAME_TAGS


def ends_in_name(tags: list[tuple[str, str]]) -> bool:
    """Whether jieba's ``(word, tag)`` list ends with a person's name: a name-tagged word, or
    one and the single character jieba cut from it (梅兰 + 妮)."""
    k = len(tags) - 1
    if k > 0 and tags[k][1] == _PIECE and len(tags[k][0]) == 1:
        k -= 1
    return k >= 0 and is_name(tags[k][1])


def opening_name(value: str) -> str | None:
    """The person's name a Chinese statement opens with (约翰; 梅兰妮, cut as 梅兰 + 妮; 乔安娜,
    乔 + 安娜), else None."""
    tags = rjieba.tag(value.strip())
    one = [t for w, t in tags[:2] if not (t == _PIECE and len(w) == 1)]
    if not tags or not one or not is_name(one[0]):
        return None
    k = 1 if is_name(tags[0][1]) else 2
    if k < len(tags) and tags[k][1] == _PIECE and len(tags[k][0]) == 1 and k == 1:
        k += 1
    return "".join(w for w, _ in tags[:k])


@lru_cache(maxsize=8192)
def owned(value: str) -> frozenset[str]:
    """The people a Chinese statement names after a name's or a kin word's 的 (张三的妻子 →
    wife, 约翰的队友 → teammate, 梅兰妮的儿子 → son), in one English name each."""
    found = set()
    for m in re.finditer("的", value):
        before = rjieba.tag(value[: m.start()])
        if not before or not (ends_in_name(before) or before[-1][0] in _KIN_ZH):
            continue
        if (person := after_of(value[m.end() :])) is not None:
            found.add(person)
    return frozenset(found)


def after_of(rest: str) -> str | None:
    """The person the words right after a 的 name — a kin word (大女儿: daughter) or a noun
    :func:`person_zh` reads —, in one English name, else None."""
    if rest.startswith(_SIZE) and rest[:2] not in _KIN_ZH:
        rest = rest[1:]
    kin = next((w for w in sorted(_KIN_ZH, key=len, reverse=True) if rest.startswith(w)), None)
    return _KIN_ZH[kin] if kin is not None else person_zh(rest)


def person_zh(rest: str) -> str | None:
    """The person the first jieba word of ``rest`` names when it is a noun and no kin word,
    through the head of its first CC-CEDICT definition (表哥: "older male cousin via female
    line" → cousin, a WordNet person; 队友 → member; 客户: client), else None."""
    from app.services.memory.pairs import lexicon

    tags = rjieba.tag(rest)
    if not tags or not tags[0][1].startswith(("n", "vn")) or not text.has_cjk(tags[0][0]):
        return None  # a noun (表哥 n, 教练 vn), not 主要 ("major": an officer in WordNet)
    word = tags[0][0]
    definitions = lexicon._cedict().get(word, ())
    if word in _KIN_ZH or word in _GROUP_ZH or not definitions or is_name(tags[0][1]):
        return None
    head = re.sub(r"\([^)]*\)", "", definitions[0].split(";")[0].split(",")[0]).casefold()
    words = re.findall(r"[a-z]+", _GLOSS_TAIL.sub("", head.strip()))
    noun = lexicon.lemma(words[-1]) if words else ""
    first = lexicon._first_noun_senses().get(noun)  # the first definition's head noun only
    if first and lexicon._descends(first[0], ("person",)):
        return _KIN_EN.get(noun, noun)
    return None

"""A word that makes another thing of a word the other side has (tester hbreak7 H22): "the
president" / "the vice president", "plays tennis" / "plays table tennis", "football" /
"American football", "chocolate" / "white chocolate", 猫 / 熊猫, 马 / 斑马, 狗 / 热狗, 茶 / 奶茶,
经理 / 副经理, 足球 / 美式足球, 苹果 / 苹果手机 were merged as restatements (the second fact
lost). Never merged:

- English: a WordNet compound on one side only whose head word the other side has bare
  (vice_president / president) or a title prefix before it ("assistant", "deputy", "vice",
  "acting", "co", "ex", "step"): ``distinct`` when WordNet files the compound under none of the
  head's senses (:func:`.lexical.kind_of`: table tennis, vice president, hot dog), else
  ``unsure`` (American football, white chocolate: a kind, maybe another thing);
- Chinese, by jieba words, not characters: a noun on one side only inside a longer word on the
  other side only (猫 in 熊猫; not a diminutive, 猫咪, 狗狗): ``distinct`` when CC-CEDICT's
  glosses of the longer word are WordNet nouns under none of the shorter word's (panda / cat),
  else ``unsure``; a noun followed by another noun on one side, bare on the other (苹果 /
  苹果手机: the phone): ``unsure``.

- across English and Chinese: a Chinese noun whose CC-CEDICT gloss is a WordNet noun under
  none of the senses of the English noun its part or its gloss's last word names (热狗, hot
  dog / "dogs"; 熊猫 / "cats") → ``distinct``; nothing else.

Pure."""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Literal

import rjieba

from app.core import text
from app.services.memory.pairs import taxonomy
from app.services.memory.pairs.lexical import content_words, kind_of
from app.services.memory.pairs.lexicon import _cedict, gloss_heads, is_thing, lemma, main_pos

_PREFIX = frozenset("vice deputy assistant associate acting co ex step".split())
_DIMINUTIVE = ("咪", "儿", "子", "仔")
_SUFFIX = frozenset("市 省 县 区 镇 村 州 公司 集团".split())
_SUBJECT = frozenset({"用户", "我", "自己"})
Kept = tuple[Literal["distinct", "unsure"], str]
_TOKEN = re.compile(r"[a-z]+", re.IGNORECASE)
_GERUND = re.compile(r"^[a-z]+ing [a-z]+")


def apart(new: str, old: str) -> Kept | None:
    """``(action, reason)`` for a pair one of whose words makes another thing of a word the
    other has (module docstring), else None."""
    if text.has_cjk(new) != text.has_cjk(old):
        return _across(new, old) if text.has_cjk(new) else _across(old, new)
    if text.has_cjk(new):
        return _zh(new, old) or _zh(old, new)
    return _en(new, old) or _en(old, new)


def _en(a: str, b: str) -> Kept | None:
    wa, wb = set(content_words(a).words), set(content_words(b).words)
    ta = [lemma(t.casefold()) for t in _TOKEN.findall(a)]
    tb = [lemma(t.casefold()) for t in _TOKEN.findall(b)]
    for word in wa - wb:
        parts = word.split("_")
        if len(parts) > 1 and parts[-1] in wb and not set(parts[:-1]) & wb and _noun(word):
            if _modifies_same(ta, parts[-1], tb):
                continue  # "video game tournaments" / "gaming tournaments": of one thing
            if kind_of(word, parts[-1]):
                return "unsure", "compound_of_head"
            return "distinct", "other_thing_compound"
    for m, h in zip(ta, ta[1:], strict=False):
        if m in _PREFIX and m not in tb and h in tb and is_thing(h):
            return "unsure", "compound_of_head"
    return None


def _modifies_same(ta: list[str], head: str, tb: list[str]) -> bool:
    """Whether the head word is followed on both sides by one noun it qualifies."""
    after_a = {y for x, y in zip(ta, ta[1:], strict=False) if x == head}
    after_b = {y for x, y in zip(tb, tb[1:], strict=False) if x == head}
    return any(is_thing(w) for w in after_a & after_b)


def _noun(word: str) -> bool:
    """A WordNet compound that names a thing (vice_president; not lose_weight)."""
    return bool(taxonomy.noun_senses(word, 2)) and main_pos(word) == 0


@lru_cache(maxsize=4096)
def _tagged(value: str) -> tuple[tuple[str, str], ...]:
    return tuple((w, t) for w, t in rjieba.tag(value) if w.strip())


def _zh(a: str, b: str) -> Kept | None:
    ta, tb = _tagged(a), _tagged(b)
    wa, wb = {w for w, _ in ta}, {w for w, _ in tb}
    for long_ in wa - wb:
        for short in wb - wa:
            if short == long_ or short not in long_ or not text.has_cjk(short):
                continue
            if _diminutive(long_, short) or not _is_noun(short):
                continue
            if _is_noun(long_):
                return _other_thing(long_, short)
            if long_.endswith(short) and not _cedict().get(long_) and dict(ta)[long_][0] == "n":
                return "unsure", "compound_of_head"  # 儿童医院 (nt; no CC-CEDICT entry) / 医院
    for (x, tx), (y, ty) in zip(ta, ta[1:], strict=False):
        if tx == ty == "n" and x in wb - _SUBJECT and y not in wb and y not in b:
            if not (_is_noun(x) and _is_noun(y)):
                continue
            after = [t for w, t in zip(tb, tb[1:], strict=False) if w[0] == x]
            if all(not t[1].startswith("n") for t in after):
                return "unsure", "compound_of_head"
    for (x, tx), (y, ty) in zip(ta, ta[1:], strict=False):
        if tx != "n" or ty != "n" or y not in wb - _SUBJECT or x in b or len(x) < 2:
            continue
        if _is_noun(y) and _is_noun(x) and not _cedict()[x][0].startswith("to "):  # 学: learn
            return "unsure", "compound_of_head"  # 儿童医院 / 医院, 妇产医院: a kind of it
    return None


def _is_noun(word: str) -> bool:
    """Whether a Chinese word is a noun: jieba tags it so, and CC-CEDICT glosses it as a thing,
    a gloss that ends in a WordNet noun and opens with no verb ("milk tea", "panda"; not "be
    called": 名叫, nor 学习, a verb to jieba) or with one's -ing form ("running shoes")."""
    if not all(tag.startswith("n") for _, tag in rjieba.tag(word)):
        return False
    gerund = any(_GERUND.match(d) for d in _cedict().get(word, ()))  # 跑鞋: "running shoes"
    for head in gloss_heads(word):
        words = head.split()
        if main_pos(words[-1]) == 0 and (main_pos(words[0]) != 1 or gerund and len(words) > 1):
            return True
    return False


def _across(zh: str, en: str) -> Kept | None:
    """A Chinese noun that CC-CEDICT glosses as another thing than the English noun its part or
    its gloss's last word names: 熊猫 (panda, 猫 cat) / "cats", 热狗 (hot dog) / "dogs"."""
    nouns = {w for w in content_words(en).words if main_pos(w) == 0}
    for word, tag in _tagged(zh):
        if len(word) < 2 or not tag.startswith("n") or not _is_noun(word):
            continue
        heads = {h.replace(" ", "_") for h in gloss_heads(word)}
        if heads & nouns or any(_diminutive(word, word[:k]) for k in range(1, len(word))):
            continue  # the same thing; 猫咪: a cat
        parts = {g for k in range(len(word)) for n in (1, 2) for g in gloss_heads(word[k : k + n])}
        for e in nouns:
            ending = [h for h in heads if h.endswith("_" + e)]
            if any(not taxonomy.noun_senses(h, 2) or kind_of(h, e) for h in ending):
                continue  # "temporary shelter": a shelter
            if (ending or e in parts - heads) and _other_thing(word, e, english=True)[0] == (
                "distinct"
            ):  # only when WordNet tells: a hot dog, a panda
                return "distinct", "other_thing_compound"
    return None


def _diminutive(long_: str, short: str) -> bool:
    """猫咪, 狗狗, 鸟儿: the same animal or thing, said fondly; 北京市, 谷歌公司: the same place
    or company with its kind said."""
    rest = long_.replace(short, "", 1)
    return rest in _DIMINUTIVE or rest in _SUFFIX or rest == short


def _other_thing(long_: str, short: str, english: bool = False) -> Kept:
    """``distinct`` when every gloss of the longer word that WordNet knows as a noun falls
    under none of the shorter word's (``english``: the shorter one is an English noun), else
    ``unsure``."""
    heads_long = {h.replace(" ", "_") for h in gloss_heads(long_)}
    heads_short = {short} if english else {h.replace(" ", "_") for h in gloss_heads(short)}
    known = [h for h in heads_long if taxonomy.noun_senses(h, 2)]
    under = [g for g in heads_short if taxonomy.noun_senses(g, 3)]
    if known and under and not any(kind_of(h, g) for h in known for g in under):
        return "distinct", "other_thing_compound"
    return "unsure", "compound_of_head"

"""Content-word alignment of two statements across wording (issue 28, docs/DEDUPE.md): each
content word of one side is matched, if it can be, by a word of the other side — the same
lemma, a synonym or related form, a dictionary gloss across English and Chinese
(:mod:`~app.services.memory.pairs.lexicon`), the same canonical number or date — in both
directions; unmatched words that name things (nouns, adjectives, names, numbers) say the two
may be different facts ("drinks coffee" / "drinks tea").

Chinese is compared by jieba words; a Chinese word is also matched when it occurs inside the
other side's text (segmentation differs between close sentences: 小组 / 互助小组).

Pure functions, cached per process.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property, lru_cache

import rjieba

from app.core import text
from app.services.memory.pairs import names, rules, taxonomy
from app.services.memory.pairs.canonical import canonical
from app.services.memory.pairs.lexicon import _DIGIT, _LATIN, _wordnet, is_thing, lemma, main_pos
from app.services.memory.pairs.synonymy import Vocabulary, synonyms

__all__ = ["Alignment", "Words", "align", "content_words", "is_thing", "lemma", "synonyms"]

# The words that name the subject of a personal memory (first person and "the user"), and
# light verbs: they align with anything and say nothing about which fact this is.
_SUBJECT = frozenset("i i'm i've i'd i'll me my mine myself user users 用户 我 我的 自己".split())
_LIGHT = frozenset(
    "be have do get 是 有 了 的 在 会 要 去 着 过 把 被 让 给 搞 弄 做 从 起 since "
    "个 只 次 回 本 台 部 辆 条 张 位 杯 种 些 件 家 名 场 幅 几个 一起 们 一 得 地 很 当 和 与 "
    "people person time thing "
    # Chinese personal pronouns, as English ones are stop words: 她的旧车 / "her old car"
    "他 她 它 他们 她们 它们 "
    # quantifiers and hedges: "some figurines", "roughly 7 hours each night"
    "some any each every all roughly approximately about around nearly almost just still "
    "even ever also really "
    # degree words, wh-words and conjunctions: "most productive", "why John likes him",
    # "because of", "instead of" say how, not which fact
    "very most more why how when where because instead".split()
)  # and Chinese measure words: 两只猫 / 2只猫咪 say the count with the number
_WORKS_AS = re.compile(r"\b(?:works?|worked|working)\s+as\b", re.IGNORECASE)
_FAVOURITE = re.compile(r"最(?:喜欢|爱)的?")
# "likes contemporary best", "the books John loves most": the favourite (as 最喜欢的 is)
_LIKES_BEST = re.compile(
    r"\b(?:likes?|liked|loves?|loved|enjoys?|enjoyed)\b((?:\s+\w+){0,4}?)\s+(?:best|most)\b",
    re.IGNORECASE,
)
# A separable verb split by how often (离合词): 游3次泳 / 跑4回步 say 游泳 / 跑步 3 times.
_SPLIT_VERB = re.compile(r"([\u4e00-\u9fff])\s*(\d+)\s*(次|回|趟|遍|下)\s*([\u4e00-\u9fff])")
_YEAR = re.compile(r"(?<!\d)(\d{4})\s*年(?![\d月])")
# A count of one by a measure word (一幅, 一场, 两只 are 1 and 2 with 幅, 场, 只: light)
_COUNTED = re.compile(r"^[一两几]?[个只次回本台部辆条张位杯种些件家名场幅首顿趟遍份尾]$")
# A number and its measure word, apart from the word after them (1只柯基, 1条狗: 只柯基, 条狗)
_COUNT = re.compile(r"(\d\s*[个只次回本台部辆条张位杯种件家名场幅首顿趟遍份尾])(?=[\u4e00-\u9fff])")
_EVERY = re.compile(r"^每个?(天|日|周|星期|月|年)$")
_NAME = re.compile(r"(?<![.!?]\s)(?<!^)\b([A-Z][a-z]+)")  # capitalised, not a sentence's start
_CAPS_INSIDE = re.compile(r"\b([A-Za-z]+[A-Z][A-Za-z]*)\b")  # MoMA, LinkedIn: a name anywhere


@dataclass(frozen=True)
class Words:
    """A statement's content words for alignment: English lemmas (WordNet compounds of two
    words joined, "ice_cream"), Chinese jieba words, canonical values (numbers, dates,
    amounts); the subject's words and light verbs left out. ``stems``: Snowball stems of the
    same words (painting / painted); ``cjk_text``: the Chinese text, for substrings."""

    words: tuple[str, ...]
    stems: tuple[str, ...]
    cjk_text: str
    names: frozenset[str] = frozenset()

    @cached_property
    def plain(self) -> Vocabulary:
        """The words that are no number, to look a synonym up among (numbers match only
        when equal)."""
        return Vocabulary(tuple(w for w in self.words if not _DIGIT.search(w)))

    @cached_property
    def heads(self) -> frozenset[str]:
        """The last word of each compound that is no number (video_game: game)."""
        return frozenset(w.split("_")[-1] for w in self.plain.words if "_" in w)

    @cached_property
    def cjk_chars(self) -> tuple[str, ...]:
        """The characters of the two-character Chinese words (喝酒: 喝, 酒)."""
        return tuple(ch for w in self.words if len(w) == 2 and text.has_cjk(w) for ch in w)


@lru_cache(maxsize=8192)
def content_words(value: str) -> Words:
    """The :class:`Words` of a statement."""
    c = canonical(_LIKES_BEST.sub(r"favourite\1", _WORKS_AS.sub("is", value)))
    zh = _FAVOURITE.sub(" favourite ", c.text)  # 最喜欢的 X: the favourite X
    for a, b in rules.ZH_REWRITES:
        zh = zh.replace(a, b)
    zh = _SPLIT_VERB.sub(_joined_verb, zh)
    zh = _YEAR.sub(r"\1 ", zh)  # 2022年画了: the year, then 画 (jieba reads 年画)
    zh = _COUNT.sub(r"\1 ", zh)  # 1只柯基: the count, then 柯基 (jieba reads 只柯基)
    tokens = [t for t in text.tokenize(zh) if not rules.NEGATION_TOKEN.match(t)]
    lemmas = [lemma(t) for t in tokens]
    wn = _wordnet()
    words: list[str] = []
    k = 0
    while k < len(lemmas):
        pair = f"{lemmas[k]}_{lemmas[k + 1]}" if k + 1 < len(lemmas) else ""
        if pair in wn and _LATIN.search(pair):
            words.append(pair)
            k += 2
            continue
        words.append(lemmas[k])
        k += 1
    kept = [
        _EVERY.sub(r"\1", w)
        for w in words
        if w not in _SUBJECT
        and w not in _LIGHT
        and w not in rules.FILLER
        and w != "1"
        and not _COUNTED.match(w)
        and not (len(w) > 1 and text.has_cjk(w) and all(ch in _LIGHT for ch in w))
    ]  # "1" is an article (一个, 一家, "one more"); 每天 / 天 (一天 is "a day"); a jieba word
    # of light characters is light (家有: 家 and 有)
    return Words(
        words=tuple(dict.fromkeys(kept)),
        stems=tuple(text.stem(w) if _LATIN.search(w) else w for w in dict.fromkeys(kept)),
        cjk_text="".join(ch for ch in zh if text.has_cjk(ch)),
        # Capitalised words past a sentence's start, and at its start those no dictionary
        # knows ("Boris taught …"): a name never aligns with another name.
        names=frozenset(w.casefold() for w in _NAME.findall(value) + _CAPS_INSIDE.findall(value))
        | frozenset(w for w in _capitalised(value) if w not in _wordnet()),
    )


def _joined_verb(m: re.Match[str]) -> str:
    """游3次泳 → 游泳 3次 when the two characters make one word of jieba's dictionary, the
    first is no ordinal's 第 and the second starts no longer word (做1次志愿者 stays)."""
    verb = m.group(1) + m.group(4)
    rest = rjieba.cut(m.string[m.start(4) : m.start(4) + 4])
    if m.group(1) != "第" and rest[:1] == [m.group(4)] and rjieba.cut(verb) == [verb]:
        return f"{verb} {m.group(2)}{m.group(3)}"
    return m.group()


def _parts_matched(compound: str, other: Words) -> bool:
    """Whether every part of an English compound (``software_engineer``) is matched by a word
    of ``other`` (软件 and 工程师; "software" and "engineer")."""
    return all(part in other.words or other.plain.has_synonym(part) for part in compound.split("_"))


def _matched(k: int, a: Words, b: Words) -> bool:
    """Whether content word ``k`` of ``a`` is matched by some word of ``b``."""
    w, s = a.words[k], a.stems[k]
    if w in b.words or s in b.stems:
        return True
    if text.has_cjk(w):
        if len(w) >= 2 and w in b.cjk_text:
            return True  # segmentation differs: 小组 in 互助小组
        for v in b.words:
            if not text.has_cjk(v):
                if not _DIGIT.search(v) and synonyms(w, v):
                    return True  # 住 / live (CC-CEDICT)
                parts = v.split("_")
                if len(parts) > 1 and any(synonyms(w, x) for x in parts) and _parts_matched(v, a):
                    return True  # 工程师 / software_engineer, whose parts 软件 and 工程师 match
                continue
            short, long_ = (w, v) if len(w) <= len(v) else (v, w)
            inside = short in long_ and 2 * len(short) >= len(long_)
            if inside and (len(short) > 1 or is_thing(short)):
                return True  # 猫 / 猫咪, 害怕 / 怕 (not 靠 / 靠窗)
            if len(short) == 1 and len(long_) == 2 and long_.endswith(short):
                return True  # a compound by its head, as video_game / game: 长跑 / 跑
            if synonyms(w, v):
                return True
        return False
    if _DIGIT.search(w):
        return False  # values match only when equal
    parts = w.split("_")
    if len(parts) > 1 and (
        (parts[-1] in b.words and kind_of(w, parts[-1]))
        or any(set(parts) <= set(v.split("_")) for v in b.words)
    ):  # a compound by its head: video_game / game; not red_wine / white_wine (tester F25)
        return True
    if len(parts) > 1 and _parts_matched(w, b):
        return True  # by all its parts: software_engineer / 软件 工程师
    if w in b.heads and any(v.endswith("_" + w) and kind_of(v, w) for v in b.plain.words):
        return True  # a compound by its head (game / video_game)
    if b.plain.has_synonym(w):
        return True  # a synonym
    # A character of a Chinese word: 喝酒 (to drink) holds 酒 (alcoholic beverage).
    return any(synonyms(w, ch) for ch in b.cjk_chars)


@lru_cache(maxsize=4096)
def kind_of(compound: str, head: str) -> bool:
    """Whether a compound names a kind of its head word (video_game / game, dark_chocolate /
    chocolate), not something else that ends in it (hot_dog / dog, sea_lion / lion, ice_cream /
    cream: the fifth held-back part's "loves dogs" / "loves hot dogs" merged): one of the
    compound's first two WordNet noun senses is, or falls under, one of the head's first
    three. True when WordNet knows either word as no noun (as before)."""
    below, heads = taxonomy.noun_senses(compound, 2), set(taxonomy.noun_senses(head, 3))
    if not below or not heads:
        return True
    return any(heads & (taxonomy.noun_ancestors(s) | {s}) for s in below)


@dataclass(frozen=True)
class Alignment:
    """How the content words of two statements align: the share of each side's words
    matched by the other (``cover_a``, ``cover_b``), the words left unmatched on each side,
    and the words of each side (0 when a side has none)."""

    cover_a: float
    cover_b: float
    unmatched_a: tuple[str, ...]
    unmatched_b: tuple[str, ...]
    n_a: int
    n_b: int

    things_a: int = 0
    things_b: int = 0
    # Each side has words of its own and the words both have are values or times alone
    # (:func:`_value_or_time`): "meditates ten minutes every morning" / "walks ten minutes to
    # the station every morning", 每月5号交房租 / 每月5号还花呗 (a value in another slot).
    values_only: bool = False

    @property
    def things(self) -> int:
        """Unmatched words that name things (:func:`is_thing`), on the side with more."""
        return max(self.things_a, self.things_b)

    @property
    def things_both(self) -> bool:
        """Both sides name a thing the other does not (coffee / tea: another fact)."""
        return self.things_a > 0 and self.things_b > 0

    @property
    def low(self) -> float:
        """The lower coverage of the two directions."""
        return min(self.cover_a, self.cover_b)

    @property
    def high(self) -> float:
        """The higher coverage of the two directions."""
        return max(self.cover_a, self.cover_b)


@lru_cache(maxsize=8192)
def _capitalised(value: str) -> frozenset[str]:
    """The lemmas of the words a statement writes with a capital, its first word too."""
    return frozenset(lemma(w.casefold()) for w in re.findall(r"\b[A-Z][a-z]+\b", value))


@lru_cache(maxsize=8192)
def _transliterated(latin: str, wl: Words, zh: str, wz: Words) -> frozenset[str]:
    """The words of a name that ``latin`` writes with Latin letters and ``zh`` in Chinese
    characters (:mod:`.names`: Melanie / 梅兰妮, Zhang Wei / 张伟), on both sides: the Latin
    words, and the Chinese words inside the characters; only names the other side does not
    write in Latin letters too, and no word a dictionary matches already."""
    if not wz.cjk_text:
        return frozenset()
    out: set[str] = set()
    for name in names.latin_names(latin):
        parts = {lemma(w) for w in name.split()} & set(wl.words)
        if not parts or parts & set(wz.words):
            continue
        if any(_matched(wl.words.index(w), wl, wz) for w in parts):
            continue  # 约翰 / John through CC-CEDICT
        spans = names.spans(name, zh)
        if spans:
            out |= parts
            out |= {w for w in wz.words if text.has_cjk(w) and any(w in s for s in spans)}
    return frozenset(out)


@lru_cache(maxsize=8192)
def align(a: str, b: str) -> Alignment:
    """Align the content words of statement ``a`` with those of ``b``, both directions
    (cached: the guards of one pair decision ask for the same alignment up to four times)."""
    wa, wb = content_words(a), content_words(b)
    # A name both sides give is the subject ("Carol is …" / "… Carol"), as "the user" is:
    # it neither counts for nor against the pair.
    subject = _capitalised(a) & _capitalised(b) & frozenset(wa.words) & frozenset(wb.words)
    # So is a name one side writes in Latin letters and the other in characters (梅兰妮).
    subject |= _transliterated(a, wa, b, wb) | _transliterated(b, wb, a, wa)
    ka = [k for k, w in enumerate(wa.words) if w not in subject]
    kb = [k for k, w in enumerate(wb.words) if w not in subject]
    ua = tuple(wa.words[k] for k in ka if not _matched(k, wa, wb))
    ub = tuple(wb.words[k] for k in kb if not _matched(k, wb, wa))
    na, nb = len(ka), len(kb)
    return Alignment(
        cover_a=(na - len(ua)) / na if na else 0.0,
        cover_b=(nb - len(ub)) / nb if nb else 0.0,
        unmatched_a=ua,
        unmatched_b=ub,
        n_a=na,
        n_b=nb,
        things_a=sum(w in wa.names or is_thing(w) for w in ua),
        things_b=sum(w in wb.names or is_thing(w) for w in ub),
        values_only=bool(ua and ub and na > len(ua))
        and any(w in wa.names or is_thing(w) for w in ua + ub)
        and all(_value_or_time(wa.words[k]) for k in ka if wa.words[k] not in ua),
    )


@lru_cache(maxsize=8192)
def _value_or_time(word: str) -> bool:
    """A content word that is a value or a time: a canonical value (10min, 1500cny, 5), a
    WordNet time period or unit (morning, week), a Chinese numeral, measure or time word
    (月, 号, 天, 早上) or one character glossed as one (周: week)."""
    from app.services.memory.pairs import lexicon

    if _DIGIT.search(word):
        return True
    if not text.has_cjk(word):
        first = lexicon._first_noun_senses().get(word) or ()
        return bool(first) and lexicon._descends(first[0], ("time_period", "time_unit"))
    tags = rjieba.tag(word)
    if len(tags) == 1 and tags[0][1] in ("m", "q", "t"):
        return True
    return len(word) == 1 and any(_value_or_time(g) for g in lexicon.glosses(word) if "_" not in g)


def zh_place_swapped(a: str, b: str) -> bool:
    """Whether two Chinese statements are one frame with one place filled otherwise: jieba's
    words of their canonical forms (a separable verb joined: 游3次泳 → 游泳 3次) the same
    before and after one or two words on each side (用户每周游泳3次 / 用户每周跑步3次,
    骑自行车上班 / 骑自行车去健身房), not a rewording that changes two places (用户的母亲去年
    去世了 / 用户的妈妈去年走了)."""
    ta, tb = (
        [w for w in rjieba.cut(_SPLIT_VERB.sub(_joined_verb, canonical(v).text)) if w.strip()]
        for v in (a, b)
    )
    start = 0
    while start < min(len(ta), len(tb)) and ta[start] == tb[start]:
        start += 1
    end = 0
    while end < min(len(ta), len(tb)) - start and ta[-1 - end] == tb[-1 - end]:
        end += 1
    return start + end > 0 and 0 < len(ta) - start - end <= 2 and 0 < len(tb) - start - end <= 2


def other_acts(a: str, b: str) -> bool:
    """Whether a pair in English and Chinese tells two acts on one thing: an English verb
    left unmatched (:func:`align`) and a Chinese verb (jieba's ``v``) that only English nouns
    match, each used as one (after an article, a possessive or a preposition): "The user
    works at a bank" / 用户在银行存钱 — 存钱, "deposit money", matches the noun "bank" through
    WordNet's verb sense, "work" nothing. Never one fact."""
    en, zh = (a, b) if not text.has_cjk(a) else (b, a)
    if text.has_cjk(en) or not text.has_cjk(zh):
        return False
    found = align(en, zh)
    if not any(main_pos(w) == 1 for w in found.unmatched_a):
        return False
    we, wz = content_words(en), content_words(zh)
    nouns = _after_determiners(en)
    verbs = {w for w, tag in rjieba.tag(zh) if tag.startswith("v") and w in wz.words}
    for w in verbs:
        k = wz.words.index(w)
        by = [
            v
            for v, s in zip(we.words, we.stems, strict=True)
            if _matched(k, wz, Words(words=(v,), stems=(s,), cjk_text=""))
        ]
        if by and all(main_pos(v) == 0 and v in nouns for v in by):
            return True
    return False


_DETERMINERS = frozenset(
    "a an the at in on of for from with his her their my our your its this that".split()
)


def _after_determiners(value: str) -> frozenset[str]:
    """The lemmas of English words right after an article, a possessive or a preposition
    ("at a bank": bank) — used as nouns in the sentence ("and track his progress" is a verb)."""
    words = re.findall(r"[a-z]+", value.casefold())
    return frozenset(lemma(w) for k, w in enumerate(words) if k and words[k - 1] in _DETERMINERS)

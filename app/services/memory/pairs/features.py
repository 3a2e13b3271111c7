"""Features of a pair of statements that cosine similarity alone lacks (docs/DEDUPE.md):
content words after canonical forms, stemming, CJK segmentation and synonym folding; their
overlap; canonical values (times, dates, amounts) and whether they agree; negation polarity;
antonym swaps; exclusive slots; the order of the shared words (a moved phrase, or roles that
swapped sides); whether the two are in different languages; type equality.

Pure functions over two strings and their cosine: no I/O, so a batch can be judged at once.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from difflib import SequenceMatcher
from functools import lru_cache

from app.core import text
from app.core.chinese_script import simplified
from app.services.memory.pairs import rules
from app.services.memory.pairs.canonical import Canonical, canonical

_ZH_NEG_CHARS = frozenset("不没别無无非未莫勿")
_ZH_STOP_CHARS = frozenset("用户我的了有是在也都很就还再吗呢吧啊从要正对")


@dataclass(frozen=True)
class Statement:
    """What the decision looks at in a unit: its canonical form, content words (ordered,
    negation cues and filler removed), the words that carry roles (ordered, for word order),
    Chinese characters (for overlap where segmentation differs), negation polarity, slots."""

    value: str
    canonical: Canonical
    words: tuple[str, ...]
    role_words: tuple[str, ...]
    chars: frozenset[str]
    polarity: int
    cjk: bool
    latin: bool
    slots: dict[str, str]
    names: frozenset[str]


def _fold(tokens: list[str], drop_filler: bool = True) -> list[str]:
    out: list[str] = []
    for tok in tokens:
        if len(tok) > 1 and tok[0] in _ZH_NEG_CHARS and text.has_cjk(tok):
            tok = tok[1:]  # 不喜欢 → 喜欢: the polarity carries the negation
        tok = rules.SYNONYMS.get(tok, tok)
        if not (drop_filler and tok in rules.FILLER):
            out.append(tok)
    return out


def _zh_rewrite(s: str) -> str:
    for a, b in rules.ZH_REWRITES:
        s = s.replace(a, b)
    return s


def _role_words(canonical_text: str) -> list[str]:
    """Tokens in order with the words that carry roles kept ("to", "from", 把, 被); Chinese
    as single characters, so segmentation cannot hide a swap (张三是李四的经理)."""
    out: list[str] = []
    for tok in text.dedupe_tokens(canonical_text):
        if text.has_cjk(tok):
            out.extend(ch for ch in tok if ch not in _ZH_NEG_CHARS and ch not in "的了")
        elif not rules.NEGATION_TOKEN.match(tok):
            out.extend(_fold([tok], drop_filler=False))
    return out


def _proper_nouns(value: str) -> frozenset[str]:
    """Capitalised words not at the start of a sentence, case-folded and stemmed."""
    words = re.findall(r"(?<![.!?]\s)(?<!^)\b([A-Z][a-z]+)", value.strip())
    return frozenset(text.stem_words([w.casefold() for w in words]))


def _spelling_pairs(
    only_a: frozenset[str], only_b: frozenset[str], names: frozenset[str]
) -> Iterator[tuple[str, str]]:
    """Pairs (a, b) that are spelling or inflection variants: favorit/favourit, allerg/allergi
    (Latin, ≥ 4 letters, the same first 4, difflib ratio ≥ 0.8; never proper nouns).
    Candidates b are grouped by their first 4 letters (in ``only_b``'s order), so a meets
    only the words it could pair with."""
    by_prefix: dict[str, list[str]] = {}
    for b in only_b:
        if len(b) >= 4 and b.isalpha() and not text.has_cjk(b) and b not in names:
            by_prefix.setdefault(b[:4], []).append(b)
    if not by_prefix:
        return
    for a in only_a:
        if len(a) < 4 or not a.isalpha() or a in names or text.has_cjk(a):
            continue
        for b in by_prefix.get(a[:4], ()):
            if SequenceMatcher(None, a, b).ratio() >= 0.8:
                yield a, b


@lru_cache(maxsize=8192)
def statement(value: str) -> Statement:
    """The :class:`Statement` of a unit's value (cached per process), traditional characters
    read as simplified (:mod:`app.core.chinese_script`)."""
    value = simplified(value)
    c = canonical(value)
    content = [t for t in text.stem_words(text.tokenize(c.text)) if t]
    words = tuple(_fold([t for t in content if not rules.NEGATION_TOKEN.match(t)]))
    chars = frozenset(
        ch
        for ch in _zh_rewrite(c.text)
        if text.has_cjk(ch) and ch not in _ZH_STOP_CHARS | _ZH_NEG_CHARS
    )
    return Statement(
        value=value,
        canonical=c,
        words=words,
        role_words=tuple(_role_words(c.text)),
        chars=chars,
        polarity=text.negation_polarity(c.text),
        cjk=text.has_cjk(value),
        latin=any(ch.isascii() and ch.isalpha() for ch in value),
        slots=rules.slots(value),
        names=_proper_nouns(value),
    )


def _jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    return len(a & b) / len(a | b) if a and b else 0.0


def word_order(a: tuple[str, ...], b: tuple[str, ...]) -> str:
    """How the words both share are ordered: ``same``; ``moved`` (one phrase moved, "on
    Fridays the user travels"); ``inverted`` (A is B / B is A around a copula); ``swapped``
    (roles changed sides: "Alice reports to Bob" / "Bob reports to Alice"); ``passive``
    (one side is in the passive voice: "by", 被)."""
    common = set(a) & set(b)
    sa = [t for t in dict.fromkeys(a) if t in common]
    sb = [t for t in dict.fromkeys(b) if t in common]
    if sa == sb:
        return "same"
    if ("by" in a) != ("by" in b) or ("被" in a) != ("被" in b):
        return "passive"
    pos = {t: k for k, t in enumerate(sa)}
    idx = [pos[t] for t in sb]
    # Runs of consecutive positions are phrases kept whole; rank them to a permutation.
    starts = [0] + [k for k in range(1, len(idx)) if idx[k] != idx[k - 1] + 1]
    chunks = [idx[s] for s in starts]
    order = sorted(range(len(chunks)), key=lambda k: chunks[k])
    perm = [0] * len(chunks)
    for rank, k in enumerate(order):
        perm[k] = rank
    if _longest_increasing(perm) >= len(perm) - 1:
        return "moved"
    spans = [idx[s:e] for s, e in zip(starts, [*starts[1:], len(idx)], strict=True)]
    if (
        len(spans) == 3
        and perm == [2, 1, 0]
        and all(sa[i] in rules.SYMMETRIC_PIVOTS for i in spans[1])
    ):
        return "inverted"
    return "swapped"


def _longest_increasing(seq: list[int]) -> int:
    best: list[int] = []
    for x in seq:
        lo, hi = 0, len(best)
        while lo < hi:
            mid = (lo + hi) // 2
            if best[mid] < x:
                lo = mid + 1
            else:
                hi = mid
        best[lo : lo + 1] = [x]
    return len(best)


@dataclass(frozen=True)
class Features:
    """Everything the decision uses about one pair (new, old)."""

    cosine: float
    canonical_equal: bool
    cross_lingual: bool
    polarity_differs: bool
    values_new: frozenset[str]
    values_old: frozenset[str]
    overlap: float  # Jaccard of content words (of CJK characters when both are Chinese)
    words: int  # content words of the shorter side
    containment: float  # shared words / the smaller side's words
    only_new: frozenset[str]
    only_old: frozenset[str]
    order: str
    antonym: bool
    slot_conflict: str | None
    slot_equal: bool
    exclusive: bool
    type_equal: bool
    frame_equal: bool  # the same words, role words included, apart from the values

    @property
    def values_differ(self) -> bool:
        """Both carry values and they are not the same set (2 kids / 3 kids). A "1" on one
        side only is an article when the rest agrees (每天喝两杯 / 一天喝2杯: 一天 is "a day")."""
        a, b = self.values_new, self.values_old
        if not (a and b) or a == b:
            return False
        article = ("1" in a) != ("1" in b) and bool(a - {"1"}) and a - {"1"} == b - {"1"}
        return not article

    @property
    def one_word_swap(self) -> bool:
        """Exactly one content word differs on each side ("green tea" / "black tea")."""
        return len(self.only_new) == 1 and len(self.only_old) == 1


def features(new: Statement, old: Statement, cosine: float, type_equal: bool = True) -> Features:
    """The :class:`Features` of ``new`` against ``old`` at ``cosine`` (their embeddings')."""
    wn, wo = frozenset(new.words), frozenset(old.words)
    variants = dict(_spelling_pairs(wn - wo, wo - wn, new.names | old.names))
    wn = frozenset(variants.get(w, w) for w in wn)  # spell both sides the old side's way
    both_cjk = new.cjk and old.cjk and not (new.latin and old.latin)
    overlap = _jaccard(new.chars, old.chars) if both_cjk else _jaccard(wn, wo)
    shared = len(wn & wo)
    containment = shared / min(len(wn), len(wo)) if wn and wo else 0.0
    only_new, only_old = wn - wo, wo - wn
    antonym_of = _antonym_index()
    antonym = any(antonym_of.get(a, frozenset()) & only_old for a in only_new)
    conflict = next(
        (
            k
            for k in sorted(new.slots.keys() & old.slots.keys())
            if not rules.same_slot_value(new.slots[k], old.slots[k])
        ),
        None,
    )
    return Features(
        cosine=cosine,
        canonical_equal=new.canonical.key == old.canonical.key,
        cross_lingual=new.cjk != old.cjk,
        polarity_differs=new.polarity != old.polarity,
        values_new=new.canonical.values,
        values_old=old.canonical.values,
        overlap=overlap,
        words=min(len(wn), len(wo), len(new.chars) or len(wn), len(old.chars) or len(wo)),
        containment=containment,
        only_new=only_new,
        only_old=only_old,
        order=word_order(new.role_words, old.role_words),
        antonym=antonym,
        slot_conflict=conflict,
        slot_equal=bool(new.slots.keys() & old.slots.keys()) and conflict is None,
        exclusive=bool(
            rules.EXCLUSIVE_CUE.search(new.value) and rules.EXCLUSIVE_CUE.search(old.value)
        ),
        type_equal=type_equal,
        frame_equal=_frame(new) == _frame(old),
    )


def frame_of(s: Statement) -> frozenset[str]:
    """A statement's role words without its values (:func:`_frame`)."""
    return _frame(s)


def _frame(s: Statement) -> frozenset[str]:
    """A statement's role words without its values — the tokens with digits, whatever the
    stemmer made of them ("checks in on" ≠ "checks out on")."""
    return _frame_of(s.role_words)


@lru_cache(maxsize=8192)
def _frame_of(role_words: tuple[str, ...]) -> frozenset[str]:
    return frozenset(w for w in role_words if not any(ch.isdigit() for ch in w))


# (the rules.ANTONYMS it was built from, its index), replaced whole when the table changes.
_ANTONYM_INDEX: tuple[tuple[frozenset[str], ...] | None, dict[str, frozenset[str]]] = (None, {})


def _antonym_index() -> dict[str, frozenset[str]]:
    """Word → the words :data:`rules.ANTONYMS` pairs it with (rebuilt when the table is
    replaced, as scripts/calibrate_dedupe.py does for its ablations). The two sides of a
    pair's only-words are disjoint, so "some a, b with {a, b} in ANTONYMS" is "some a
    whose antonyms meet the other side"."""
    global _ANTONYM_INDEX
    if _ANTONYM_INDEX[0] is not rules.ANTONYMS:
        index: dict[str, set[str]] = {}
        for pair in rules.ANTONYMS:
            for a in pair:
                index.setdefault(a, set()).update(pair - {a})
        _ANTONYM_INDEX = (rules.ANTONYMS, {k: frozenset(v) for k, v in index.items()})
    return _ANTONYM_INDEX[1]
